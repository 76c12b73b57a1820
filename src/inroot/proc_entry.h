/*
 * An fd's entry in this thread's /proc fd directory, once that directory
 * is proven procfs and this very table and the entry leads to the fd's
 * file (src/proc/proc_fd_dir.c): the last way to a file an O_PATH fd holds
 * where the kernel offers none without a name. A call made relative to
 * the directory fd with the entry's name follows the entry (a magic link)
 * to the file itself, and looks nothing else up.
 */
#ifndef EXECVEAT_INROOT_PROC_ENTRY_H
#define EXECVEAT_INROOT_PROC_ENTRY_H

#include <sys/stat.h>

#include "../proc/proc_fd_dir.h"

/* The proven directory's fd (close-on-exec; the caller closes it) with
 * name set to fd's entry in it, or -EOPNOTSUPP where there is none. */
int libexecveat_proc_entry(int fd, const struct stat *st,
			   char name[FD_NAME_SIZE]);

#endif /* EXECVEAT_INROOT_PROC_ENTRY_H */
