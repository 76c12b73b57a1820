/*
 * A close-on-exec script, which execveat refuses and a /proc name would
 * not: the fallback asks before it execs.
 */
#ifndef EXECVEAT_CLOEXEC_SCRIPT_H
#define EXECVEAT_CLOEXEC_SCRIPT_H

#include "../proc/proc_fd_name.h"

/*
 * The -errno execveat would refuse fd with, or 0 to exec its name: nonzero
 * only if fd is close-on-exec and its file (name, proven by
 * libexecveat_proc_fd_find) is an executable regular file starting with
 * "#!". Then EACCES (or another of faccessat2's refusals) if the caller
 * may not execute it, ENOENT if it may; EMFILE or ENFILE where it had to
 * open the file to look (an O_PATH fd, and no other fd of the process
 * reads the file) and no fd was free. Costs an fcntl; for a close-on-exec
 * executable file a two-byte read more; for a script an fcntl and a
 * faccessat2 more; for an O_PATH fd, which cannot be read, a search of
 * the fd table instead of the read.
 */
int libexecveat_cloexec_script_refusal(int fd, const struct proc_fd_name *name);

#endif /* EXECVEAT_CLOEXEC_SCRIPT_H */
