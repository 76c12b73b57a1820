/*
 * What /proc looks like to a test: missing, fake, or borrowed from another
 * process. Each call makes a private mount namespace first and returns 0
 * or an errno; call them in a forked child. System calls alone, so every C
 * library's suites can use them.
 */
#ifndef TESTS_PROC_MOUNTS_H
#define TESTS_PROC_MOUNTS_H

#include <sys/types.h>

/* An empty tmpfs over /proc. */
int hide_proc(void);

/* Like hide_proc, but the tmpfs holds self/fd/<fd> -> target: what glibc
 * would exec by name. */
int fake_proc(int fd, const char *target);

/* /proc/self/fd is owner's fd directory, bound over ours: real procfs,
 * naming other files. */
int borrow_proc_fd_dir(pid_t owner);

#endif /* TESTS_PROC_MOUNTS_H */
