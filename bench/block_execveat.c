#include "block_execveat.h"

#include <errno.h>
#include <seccomp.h>
#include <stddef.h>

int block_execveat(int err)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	int rc;

	if (ctx == NULL)
		return ENOMEM;
	rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO((unsigned)err),
			      SCMP_SYS(execveat), 0);
	if (rc == 0)
		rc = seccomp_load(ctx);
	seccomp_release(ctx);
	return -rc;
}
