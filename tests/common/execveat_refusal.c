#define _GNU_SOURCE
#include "execveat_refusal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

/*
 * fd -1 with AT_EMPTY_PATH: a kernel that has execveat looks at the fd
 * first and says EBADF, so the probe never execs anything. Any answer but
 * ENOSYS or EPERM (the refusals the library falls back on) means present.
 */
int execveat_refusal(void)
{
	char *no_args[] = { NULL };
	long rc = syscall(SYS_execveat, -1L, (long)(uintptr_t)"",
			  (long)(uintptr_t)no_args, (long)(uintptr_t)no_args,
			  (long)AT_EMPTY_PATH);

	if (rc == -1 && (errno == ENOSYS || errno == EPERM))
		return errno;
	return 0;
}

int execveat_outcome_errno(int expected)
{
	int refusal = execveat_refusal();

	return refusal != 0 ? refusal : expected;
}
