/*
 * What /proc looks like to a test: missing, fake, or borrowed from another
 * process. Each call makes a private mount namespace first and returns 0
 * or an errno; call them in a forked child. System calls alone, so every C
 * library's suites can use them.
 */
#ifndef TESTS_PROC_MOUNTS_H
#define TESTS_PROC_MOUNTS_H

#include <sys/types.h>

/* unshare(CLONE_NEWNS), with nothing mounted afterwards propagating
 * back to the namespace it came from. */
int private_mount_namespace(void);

/* An empty tmpfs over /proc. */
int hide_proc(void);

/* Like hide_proc, but the tmpfs holds self/fd/<fd> and thread-self/fd/<fd>
 * -> target: what glibc (or a careless fallback) would exec by name. */
int fake_proc(int fd, const char *target);

/* One more pair of links in the tmpfs that fake_proc or hide_proc made. */
int fake_proc_link(int fd, const char *target);

/* Like fake_proc, with the links of every fd from first_fd to 63: every
 * fd a call could hold names target. */
int fake_proc_from(int first_fd, const char *target);

/* /proc/self/fd and /proc/thread-self/fd are owner's fd directory, bound
 * over ours: real procfs, naming other files. Call it single-threaded. */
int borrow_proc_fd_dir(pid_t owner);

/* A child that waits to be killed, or for its parent's death, with no
 * output of the test held open (it checks that its parent did not die
 * before it asked for the signal): an owner for borrow_proc_fd_dir, a
 * process to have a pidfd of. The calling process must stay the one to
 * kill and reap it (a child that has become another user could not:
 * kill, and the parent-death signal, are refused across users). */
pid_t start_waiting_child(void);

#endif /* TESTS_PROC_MOUNTS_H */
