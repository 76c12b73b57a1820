/*
 * An open held at the kernel's door, so that a test can act at that
 * moment: a seccomp user-notification filter (SECCOMP_RET_USER_NOTIF,
 * Linux 5.0; the call let go on as it was with
 * SECCOMP_USER_NOTIF_FLAG_CONTINUE, 5.5) stops every open and openat
 * without O_PATH of the process that loads it, and its supervisor, in
 * another process, acts before it lets each one go on. A race between a
 * check and an open is then made the same way every run.
 *
 * The filter holds the native ABI's calls by number only: the programs
 * that load it make no call of another ABI. The structures of
 * <linux/seccomp.h> are spelled here, since musl builds have no kernel
 * headers.
 */
#ifndef TESTS_HELD_OPEN_H
#define TESTS_HELD_OPEN_H

#include <sys/types.h>

/*
 * In the process whose opens are to be held (a child, once its other
 * filters are loaded): loads the filter and sends its listener fd over
 * the unix socket to_supervisor (SCM_RIGHTS). 0, or an errno (ENOSYS or
 * EINVAL where the kernel has no user notification, EACCES where no
 * filter may be loaded).
 */
int hold_opens(int to_supervisor);

/* In the supervisor: the listener fd that hold_opens sent, or -1. */
int receive_listener(int from_held);

/*
 * In the supervisor: lets each held open of process pid go on, first
 * calling act(arg), once, where the open's path is name (read from the
 * process's memory). Returns once done is readable (the held process
 * writes to it when its calls are made): how many opens of name were
 * held, or -1 where the listener failed.
 */
int serve_held_opens(int listener, pid_t pid, const char *name,
		     void (*act)(void *), void *arg, int done);

#endif /* TESTS_HELD_OPEN_H */
