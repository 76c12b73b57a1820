/*
 * A close-on-exec script, which execveat refuses and a /proc name would
 * not: the fallback asks before it execs.
 */
#ifndef EXECVEAT_CLOEXEC_SCRIPT_H
#define EXECVEAT_CLOEXEC_SCRIPT_H

#include <stdbool.h>

#include "proc_fallback.h"

/*
 * True if fd is close-on-exec and its file (name, proven by
 * libexecveat_proc_fd_find) is an executable regular file starting with
 * "#!". Costs one system call when fd is not close-on-exec.
 */
bool libexecveat_is_cloexec_script(int fd, const struct proc_fd_name *name);

#endif /* EXECVEAT_CLOEXEC_SCRIPT_H */
