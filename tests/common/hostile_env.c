#define _GNU_SOURCE
#include "hostile_env.h"

#include "child_errno.h"
#include "execveat_refusal.h"

#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * A filter kills every system call of an ABI it does not list. An i386
 * test that runs a script starts /bin/sh, an x86_64 program: list each
 * x86 ABI, so that all the programs of the test see the same policy.
 */
static int add_other_x86_abis(scmp_filter_ctx ctx)
{
#if defined(__x86_64__) || defined(__i386__)
	static const uint32_t abis[] = { SCMP_ARCH_X86_64, SCMP_ARCH_X86,
					 SCMP_ARCH_X32 };

	for (size_t i = 0; i < sizeof(abis) / sizeof(abis[0]); i++) {
		int rc = seccomp_arch_add(ctx, abis[i]);

		if (rc != 0 && rc != -EEXIST)
			return rc;
	}
#else
	(void)ctx;
#endif
	return 0;
}

scmp_filter_ctx execveat_refusing_filter(int err)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);

	if (ctx == NULL)
		return NULL;
	if (add_other_x86_abis(ctx) != 0 ||
	    seccomp_rule_add(ctx, SCMP_ACT_ERRNO(err), SCMP_SYS(execveat),
			     0) != 0) {
		seccomp_release(ctx);
		return NULL;
	}
	return ctx;
}

static int load_execveat_filter(int err)
{
	scmp_filter_ctx ctx = execveat_refusing_filter(err);
	int rc;

	if (ctx == NULL)
		return EINVAL;
	rc = seccomp_load(ctx);
	seccomp_release(ctx);
	return -rc;
}

int block_execveat(int err)
{
	/* Where execveat is refused so already (qemu-user, an old kernel),
	 * that is the world asked for, and no filter is needed. */
	if (execveat_refusal() == err)
		return 0;
	return load_execveat_filter(err);
}

int block_execveat_and_faccessat2(int execveat_err, int faccessat2_err)
{
	scmp_filter_ctx ctx = execveat_refusing_filter(execveat_err);
	int rc;

	if (ctx == NULL)
		return EINVAL;
	rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(faccessat2_err),
			      SCMP_SYS(faccessat2), 0);
	if (rc == 0)
		rc = seccomp_load(ctx);
	seccomp_release(ctx);
	return -rc;
}

static int load_a_filter(void)
{
	return load_execveat_filter(EPERM);
}

bool seccomp_filters_available(char *why, size_t why_size)
{
	int err = errno_of_child(load_a_filter);
	int refusal = execveat_refusal();

	if (err != 0)
		snprintf(why, why_size, "no seccomp filter can be loaded here "
			 "(%s), and execveat %s%s", strerror(err),
			 refusal != 0 ? "fails with " : "works",
			 refusal != 0 ? strerror(refusal) : "");
	return err == 0;
}

static int hide_proc_and_block_execveat(void)
{
	int err = hide_proc();

	return err != 0 ? err : block_execveat(ENOSYS);
}

bool hostile_env_available(char *why, size_t why_size)
{
	int err = errno_of_child(hide_proc_and_block_execveat);

	if (err != 0)
		snprintf(why, why_size,
			 "needs a mount namespace (root or user namespaces) "
			 "and seccomp: %s",
			 strerror(err));
	return err == 0;
}

void require_hostile_env(void)
{
	char why[200];

	if (!hostile_env_available(why, sizeof(why))) {
		printf("SKIP: %s\n", why);
		exit(77);
	}
}
