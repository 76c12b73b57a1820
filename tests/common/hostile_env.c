#define _GNU_SOURCE
#include "hostile_env.h"

#include "child_errno.h"
#include "execveat_refusal.h"
#include "refuse_call.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int block_execveat_and_faccessat2(int execveat_err, int faccessat2_err)
{
	const struct refused_call calls[] = {
		{ .nr = SYS_execveat, .err = execveat_err },
		{ .nr = SYS_faccessat2, .err = faccessat2_err },
	};

	return refuse_calls(calls, sizeof(calls) / sizeof(calls[0]));
}

static int load_a_filter(void)
{
	return refuse_call(SYS_execveat, EPERM);
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
