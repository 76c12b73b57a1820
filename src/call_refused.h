/*
 * Whether an errno can mean that a system call itself was refused, rather
 * than anything about its file or its arguments. Shared by every call
 * with a fallback, which falls back only then; and how a refusal, once
 * proven, is remembered.
 *
 * ENOSYS: the kernel is older than the call, a qemu-user emulator lacks it
 * (Debian 12's 7.2 has neither execveat nor openat2), or a seccomp policy
 * signals an unknown system call that way (podman's default profile,
 * systemd since 2021). EPERM: a seccomp policy refusing it (an allow-list
 * whose default errno is EPERM and that omits the call, systemd-nspawn's
 * --system-call-filter=, or a unit's SystemCallFilter= with
 * SystemCallErrorNumber=EPERM; without that line a unit's filter kills).
 */
#ifndef EXECVEAT_CALL_REFUSED_H
#define EXECVEAT_CALL_REFUSED_H

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>

/* Whether r, a call's answer (an -errno where it failed), may be one. */
static inline bool may_be_refusal(int r)
{
	return r == -ENOSYS || r == -EPERM;
}

/*
 * A refusal of a call itself, once proven, is remembered for the process,
 * so that later calls go to the fallback without asking the call again:
 * a kernel does not gain system calls, and a seccomp filter, once loaded,
 * is never removed. Nothing else is remembered: a call allowed now may
 * be refused by a filter loaded later.
 *
 * But filters belong to threads (a thread may have none, or one that
 * judges the arguments, dirfd or size, and refuses some calls only), and
 * a vfork child writes the memory into its parent's. So a thread may find
 * a refusal remembered that it does not have. That costs it speed, never
 * an answer: where the refusal is only remembered, the fallback is taken
 * only for what it answers as the kernel would, without doing anything
 * the call does not (no child, no open of the file); where it cannot
 * answer, may answer otherwise (its fds, a rename under its walk), or
 * would have to act, the call is asked first, as if nothing were
 * remembered.
 *
 * 2.1's calls follow the same rule: the *xattrat calls (one memory for
 * the four) and utimensat's AT_EMPTY_PATH are remembered; statx and the
 * new mount API are asked every time, since their fallbacks answer less
 * (fstatat's fields) or act otherwise (mount(2)), so that no answer could
 * be taken without the call.
 *
 * Lock-free atomics, never a lock: the callers run in signal handlers and
 * vfork children.
 */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "atomic int must be lock-free");

static inline bool refusal_remembered(atomic_int *memory)
{
	return atomic_load_explicit(memory, memory_order_relaxed) != 0;
}

static inline void remember_refusal(atomic_int *memory)
{
	atomic_store_explicit(memory, 1, memory_order_relaxed);
}

#endif /* EXECVEAT_CALL_REFUSED_H */
