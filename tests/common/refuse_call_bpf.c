/*
 * refuse_call.h without libseccomp: the classic BPF program written out
 * (classic_bpf.h), with the constants of <linux/audit.h> spelled here,
 * since musl builds have no kernel headers.
 */
#define _GNU_SOURCE
#include "refuse_call.h"

#include "classic_bpf.h"

#include <errno.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <unistd.h>

#define SECCOMP_KILL 0x00000000u      /* the thread, as libseccomp's */
#define SECCOMP_FAIL_WITH 0x00050000u /* | errno */
#define SECCOMP_FILTER_MODE 2

/* AUDIT_ARCH_*: the ELF machine, 0x80000000 for a 64-bit ABI (x32's is
 * x86_64's), 0x40000000 for little-endian. */
#define ARCH_64 0x80000000u
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ARCH_LE 0x40000000u
#else
#define ARCH_LE 0u
#endif
#if defined(__x86_64__)
#define NATIVE_ARCH (62u | ARCH_64 | ARCH_LE)
#elif defined(__i386__)
#define NATIVE_ARCH (3u | ARCH_LE)
#elif defined(__aarch64__)
#define NATIVE_ARCH (183u | ARCH_64 | ARCH_LE)
#elif defined(__arm__)
#define NATIVE_ARCH (40u | ARCH_LE)
#elif defined(__riscv) && __riscv_xlen == 64
#define NATIVE_ARCH (243u | ARCH_64 | ARCH_LE)
#elif defined(__riscv)
#define NATIVE_ARCH (243u | ARCH_LE)
#elif defined(__powerpc64__)
#define NATIVE_ARCH (21u | ARCH_64 | ARCH_LE)
#elif defined(__s390x__)
#define NATIVE_ARCH (22u | ARCH_64)
#elif defined(__loongarch64)
#define NATIVE_ARCH (258u | ARCH_64 | ARCH_LE)
#else
/* Unknown here: no filter is loaded (refuse_calls says ENOSYS). */
#define NATIVE_ARCH 0u
#endif

/* x86_64 and x32 share AUDIT_ARCH_X86_64; x32's numbers carry this bit. */
#define X32_BIT 0x40000000u

/* Enough for 8 conditional refusals. */
#define MAX_INSNS 96

struct program {
	struct bpf_insn_classic insns[MAX_INSNS];
	unsigned short len;
};

static void emit(struct program *p, uint16_t code, uint8_t jt, uint8_t jf,
		 uint32_t k)
{
	if (p->len < MAX_INSNS)
		p->insns[p->len] = (struct bpf_insn_classic){ code, jt, jf, k };
	p->len++;
}

static uint32_t action(int err)
{
	return err == REFUSAL_KILLS ? SECCOMP_KILL :
				      SECCOMP_FAIL_WITH | ((uint32_t)err & 0xffff);
}

/*
 * The call's number, then its argument's two words masked, each word
 * compared with the value's; a block of 9:
 *   0    number is not the call's: on to the next block (9)
 *   1-3  high word differs: to "differs"
 *   4-6  low word: to "differs" or "equal"
 *   7    return the refusal
 *   8    load the number again, for the next block
 * "differs" is 7 and "equal" 8 with unless_equal; the other way round
 * without.
 */
static void emit_conditional(struct program *p, const struct refused_call *c)
{
	uint32_t arg = DATA_ARGS + 8 * c->arg;
	uint8_t differs_after_3 = c->unless_equal ? 3 : 4;
	uint8_t equal_after_6 = c->unless_equal ? 1 : 0;

	emit(p, JUMP_IF_EQUAL, 0, 8, (uint32_t)c->nr);
	emit(p, LOAD_WORD_AT, 0, 0, arg + HIGH_WORD);
	emit(p, AND_WITH, 0, 0, (uint32_t)(c->mask >> 32));
	emit(p, JUMP_IF_EQUAL, 0, differs_after_3, (uint32_t)(c->value >> 32));
	emit(p, LOAD_WORD_AT, 0, 0, arg + LOW_WORD);
	emit(p, AND_WITH, 0, 0, (uint32_t)c->mask);
	emit(p, JUMP_IF_EQUAL, equal_after_6, 1 - equal_after_6,
	     (uint32_t)c->value);
	emit(p, RETURN, 0, 0, action(c->err));
	emit(p, LOAD_WORD_AT, 0, 0, DATA_NR);
}

/* The program refusing calls[0..n) into p: 0, or an errno. */
static int build(struct program *p, const struct refused_call *calls,
		 size_t n)
{
	if (NATIVE_ARCH == 0)
		return ENOSYS;
	p->len = 0;
	emit(p, LOAD_WORD_AT, 0, 0, DATA_ARCH);
	/* Another ABI (an i386 program's on x86_64): not ours to refuse. */
	emit(p, JUMP_IF_EQUAL, 1, 0, NATIVE_ARCH);
	emit(p, RETURN, 0, 0, SECCOMP_ALLOW);
	emit(p, LOAD_WORD_AT, 0, 0, DATA_NR);
#if defined(__x86_64__) && defined(__ILP32__)
	/* x32: x86_64's calls, without the bit, are another ABI's. */
	emit(p, JUMP_IF_ANY_BIT, 1, 0, X32_BIT);
	emit(p, RETURN, 0, 0, SECCOMP_ALLOW);
#elif defined(__x86_64__)
	/* x86_64: x32's calls, with the bit, are another ABI's. */
	emit(p, JUMP_IF_AT_LEAST, 0, 1, X32_BIT);
	emit(p, RETURN, 0, 0, SECCOMP_ALLOW);
#endif
	for (size_t i = 0; i < n; i++) {
		if (calls[i].mask != 0) {
			emit_conditional(p, &calls[i]);
			continue;
		}
		emit(p, JUMP_IF_EQUAL, 0, 1, (uint32_t)calls[i].nr);
		emit(p, RETURN, 0, 0, action(calls[i].err));
	}
	emit(p, RETURN, 0, 0, SECCOMP_ALLOW);
	return p->len > MAX_INSNS ? E2BIG : 0;
}

int refuse_calls(const struct refused_call *calls, size_t n)
{
	struct program p;
	struct bpf_program_classic program;
	int err = build(&p, calls, n);

	if (err != 0)
		return err;
	program = (struct bpf_program_classic){ p.len, p.insns };
	/* Unprivileged filters need no_new_privs (Linux 3.5). */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) != 0 ||
	    prctl(PR_SET_SECCOMP, (long)SECCOMP_FILTER_MODE,
		  (long)(uintptr_t)&program, 0L, 0L) != 0)
		return errno;
	return 0;
}

int write_refusal_filter(const struct refused_call *calls, size_t n, int fd)
{
	struct program p;
	size_t size;
	int err = build(&p, calls, n);

	if (err != 0)
		return err;
	size = p.len * sizeof(p.insns[0]);
	return write(fd, p.insns, size) == (ssize_t)size ? 0 : EIO;
}
