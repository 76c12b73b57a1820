/*
 * The library's one error convention. Inside, a function that can fail
 * answers a value >= 0 (0, an fd, a length, a count) or -errno; the raw
 * system calls (syscalls/) answer so too and leave errno as they found it.
 * errno is set once, by a public function as it returns, with answer()
 * (musl's __syscall_ret does the same): a call that succeeds leaves errno
 * as the caller had it, and nothing on the way, in a signal handler or a
 * vfork child, writes it but that last word.
 */
#ifndef EXECVEAT_ANSWER_H
#define EXECVEAT_ANSWER_H

#include <errno.h>

/* A public function's last word: r as it is, or -1 with errno = -r. */
static inline int answer(int r)
{
	if (r >= 0)
		return r;
	errno = -r;
	return -1;
}

/* The few C library calls the library makes (mmap, lseek, clone, stdio):
 * r, or -errno where the call failed and set errno. */
static inline int call_result(int r)
{
	return r < 0 ? -errno : r;
}

#endif /* EXECVEAT_ANSWER_H */
