/*
 * A seccomp filter as classic BPF, spelled from <linux/filter.h>,
 * <linux/seccomp.h> (stable ABI since Linux 3.5) since musl builds have
 * no kernel headers: the instructions and the layout of struct
 * seccomp_data they read. Shared by the filters of the tests.
 */
#ifndef TESTS_CLASSIC_BPF_H
#define TESTS_CLASSIC_BPF_H

#include <stdint.h>

struct bpf_insn_classic {
	uint16_t code;
	uint8_t jump_if_true;
	uint8_t jump_if_false;
	uint32_t k;
};

struct bpf_program_classic {
	unsigned short len;
	struct bpf_insn_classic *insns;
};

#define LOAD_WORD_AT 0x20  /* BPF_LD | BPF_W | BPF_ABS */
#define AND_WITH 0x54      /* BPF_ALU | BPF_AND | BPF_K */
#define JUMP_IF_EQUAL 0x15 /* BPF_JMP | BPF_JEQ | BPF_K */
#define JUMP_IF_AT_LEAST 0x35 /* BPF_JMP | BPF_JGE | BPF_K */
#define JUMP_IF_ANY_BIT 0x45  /* BPF_JMP | BPF_JSET | BPF_K */
#define RETURN 0x06        /* BPF_RET | BPF_K */

/* struct seccomp_data: int nr; u32 arch; u64 ip; u64 args[6]. */
#define DATA_NR 0
#define DATA_ARCH 4
#define DATA_ARGS 16
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define LOW_WORD 0
#define HIGH_WORD 4
#else
#define LOW_WORD 4
#define HIGH_WORD 0
#endif

#define SECCOMP_ALLOW 0x7fff0000u

#endif /* TESTS_CLASSIC_BPF_H */
