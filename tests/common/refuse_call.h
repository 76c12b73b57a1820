/*
 * System calls refused the way a seccomp policy refuses them: every call
 * of this process and of its later children gets an errno (or kills),
 * for good. The worlds the library falls back in are made with this.
 *
 * Two implementations, one per build: refuse_call_libseccomp.c where the
 * tests link libseccomp (its filter also lists the other x86 ABIs, so
 * that an i386 test's x86_64 children, the shell or bwrap, see the same
 * policy), refuse_call_bpf.c where they cannot (musl, x32, cross builds):
 * a classic BPF program loaded with prctl, which refuses the native ABI's
 * calls only and lets every other ABI's pass.
 */
#ifndef TESTS_REFUSE_CALL_H
#define TESTS_REFUSE_CALL_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* As err: the call kills the process instead of failing. */
#define REFUSAL_KILLS (-1)

struct refused_call {
	/* The native ABI's number: SYS_statx, OPENAT2_NR (x32's carry
	 * their bit). */
	long nr;
	/* The errno each call gets, or REFUSAL_KILLS. */
	int err;
	/* Where mask is not 0, only some calls are refused: those whose
	 * argument arg, masked, equals value; with unless_equal, those
	 * whose argument does not equal value (mask all ones then). */
	unsigned arg;
	uint64_t mask;
	uint64_t value;
	bool unless_equal;
};

/* Loads one filter refusing each of calls[0..n). 0, or an errno. */
int refuse_calls(const struct refused_call *calls, size_t n);

/* Every call nr fails with err (or kills, REFUSAL_KILLS). 0, or an
 * errno. */
static inline int refuse_call(long nr, int err)
{
	struct refused_call call = { .nr = nr, .err = err };

	return refuse_calls(&call, 1);
}

/* What a probe of a call answered (rc, and errno where rc is -1) says of
 * the call: refused with ENOSYS or EPERM, the refusals the library falls
 * back on, or 0 where it is there. */
static inline int refusal_of(long rc)
{
	return rc == -1 && (errno == ENOSYS || errno == EPERM) ? errno : 0;
}

/* refuse_call, unless a probe found the call refused with err here
 * already (refusal_here: qemu-user, an old kernel): that is the world
 * asked for, and no filter is needed. */
static inline int refuse_call_unless_so(int refusal_here, long nr, int err)
{
	return refusal_here == err ? 0 : refuse_call(nr, err);
}

/* Writes the filter refuse_calls would load to fd, unloaded, as the
 * kernel's struct sock_filter array (bwrap --seccomp FD reads it). 0, or
 * an errno. */
int write_refusal_filter(const struct refused_call *calls, size_t n, int fd);

#endif /* TESTS_REFUSE_CALL_H */
