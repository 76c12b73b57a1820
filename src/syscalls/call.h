/*
 * How the library makes a system call: raw, through syscall().
 *
 * Why raw: the library must load into processes of glibc 2.17 and later,
 * and glibc 2.33 moved stat and friends to new symbol versions. syscall()
 * itself is as old as glibc and, like the calls in this folder,
 * async-signal-safe.
 *
 * What they answer: the kernel's result, or -errno where the call fails,
 * and errno is left as it was (sys_call). So the library never sets
 * errno on its way: only a public function does, once, as it returns
 * (answer.h), and one that succeeds leaves errno as the caller had it.
 *
 * Every argument goes to syscall() as a long (pointers through
 * uintptr_t), so nothing depends on how a variadic call promotes an int;
 * the kernel reads each argument as a full register (CVE-2009-0029) and
 * casts it back.
 */
#ifndef EXECVEAT_SYSCALLS_CALL_H
#define EXECVEAT_SYSCALLS_CALL_H

#include <errno.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "syscall_numbers.h"

#define SYS_ARG_PTR(p) ((long)(uintptr_t)(p))

/*
 * System call nr with six arguments (those it does not take are passed
 * as 0, and the kernel reads none of them): its result, or -errno, with
 * errno as it was before the call, which syscall() sets on failure.
 */
static inline long sys_call(long nr, long a, long b, long c, long d, long e,
			    long f)
{
	int saved = errno;
	long r = syscall(nr, a, b, c, d, e, f);

	if (r != -1)
		return r;
	r = -errno;
	errno = saved;
	return r;
}

#endif /* EXECVEAT_SYSCALLS_CALL_H */
