/*
 * A libseccomp filter kills every system call of an ABI it does not list
 * (its default "bad arch" action). A 32-bit program that runs a script
 * starts /bin/sh, a 64-bit program, under the filter it loaded (an i386
 * program on x86_64, an armhf one on arm64, which starts its aarch64
 * /bin/sh or bwrap): list each ABI of the machine, so that every program
 * it runs meets the same policy (libseccomp finds each ABI's number of a
 * rule's call by its name). Shared by tools/refuse_call.c and the tests'
 * own refusals.
 */
#ifndef EXECVEAT_TOOLS_SECCOMP_ABIS_H
#define EXECVEAT_TOOLS_SECCOMP_ABIS_H

#include <errno.h>
#include <seccomp.h>

/* 0, or a libseccomp -errno. */
static inline int seccomp_add_machine_abis(scmp_filter_ctx ctx)
{
#if defined(__x86_64__) || defined(__i386__)
	static const uint32_t abis[] = { SCMP_ARCH_X86_64, SCMP_ARCH_X86,
					 SCMP_ARCH_X32 };
#elif defined(__aarch64__) || defined(__arm__)
	static const uint32_t abis[] = { SCMP_ARCH_AARCH64, SCMP_ARCH_ARM };
#else
	static const uint32_t abis[] = { SCMP_ARCH_NATIVE };
#endif

	for (size_t i = 0; i < sizeof(abis) / sizeof(abis[0]); i++) {
		int rc = seccomp_arch_add(ctx, abis[i]);

		if (rc != 0 && rc != -EEXIST)
			return rc;
	}
	return 0;
}

#endif /* EXECVEAT_TOOLS_SECCOMP_ABIS_H */
