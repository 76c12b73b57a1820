/* refuse_call.h with libseccomp, where the tests link it. */
#define _GNU_SOURCE
#include "refuse_call.h"

#include <errno.h>
#include <seccomp.h>
#include <stdlib.h>

#include "../../tools/seccomp_abis.h" /* the ABIs a filter lists */

static int add_rule(scmp_filter_ctx ctx, const struct refused_call *c)
{
	uint32_t act = c->err == REFUSAL_KILLS ? SCMP_ACT_KILL :
						 SCMP_ACT_ERRNO((uint32_t)c->err);
	struct scmp_arg_cmp cmp = {
		.arg = c->arg,
		.op = c->unless_equal ? SCMP_CMP_NE : SCMP_CMP_MASKED_EQ,
		/* SCMP_CMP_NE compares datum_a; MASKED_EQ masks with it. */
		.datum_a = c->unless_equal ? c->value : c->mask,
		.datum_b = c->value,
	};

	/* libseccomp has no masked "not equal". */
	if (c->unless_equal && c->mask != UINT64_MAX)
		return -EINVAL;
	if (c->mask == 0)
		return seccomp_rule_add(ctx, act, (int)c->nr, 0);
	return seccomp_rule_add(ctx, act, (int)c->nr, 1, cmp);
}

/* The other ABIs' numbers are found through the call's name: a call this
 * libseccomp cannot name (fchmodat2 for 2.5.4) is refused on the native
 * ABI alone. */
static bool all_named(const struct refused_call *calls, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE,
							      (int)calls[i].nr);

		if (name == NULL)
			return false;
		free(name);
	}
	return true;
}

/* NULL, or a filter not yet loaded; *rc says why not. */
static scmp_filter_ctx filter_of(const struct refused_call *calls, size_t n,
				 int *rc)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);

	*rc = ctx == NULL ? -ENOMEM : 0;
	if (*rc == 0 && all_named(calls, n))
		*rc = seccomp_add_machine_abis(ctx);
	for (size_t i = 0; *rc == 0 && i < n; i++)
		*rc = add_rule(ctx, &calls[i]);
	if (*rc != 0 && ctx != NULL) {
		seccomp_release(ctx);
		ctx = NULL;
	}
	return ctx;
}

int refuse_calls(const struct refused_call *calls, size_t n)
{
	int rc;
	scmp_filter_ctx ctx = filter_of(calls, n, &rc);

	if (ctx == NULL)
		return -rc;
	rc = seccomp_load(ctx);
	seccomp_release(ctx);
	return -rc;
}

int write_refusal_filter(const struct refused_call *calls, size_t n, int fd)
{
	int rc;
	scmp_filter_ctx ctx = filter_of(calls, n, &rc);

	if (ctx == NULL)
		return -rc;
	rc = seccomp_export_bpf(ctx, fd);
	seccomp_release(ctx);
	return -rc;
}
