/*
 * no-execveat ERRNO COMMAND [ARG...]: run COMMAND with execveat refused,
 * the way a seccomp policy refuses a system call it does not list. ERRNO
 * is ENOSYS (the modern convention for unknown system calls) or EPERM (an
 * allow-list whose default errno is EPERM, or a systemd unit denying it
 * with SystemCallErrorNumber=EPERM). For tools/demo; not installed.
 */
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int errno_named(const char *name)
{
	if (strcmp(name, "ENOSYS") == 0)
		return ENOSYS;
	if (strcmp(name, "EPERM") == 0)
		return EPERM;
	return 0;
}

static int refuse_execveat(int err)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	int rc;

	if (ctx == NULL)
		return -ENOMEM;
	rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(err), SCMP_SYS(execveat), 0);
	if (rc == 0)
		rc = seccomp_load(ctx);
	seccomp_release(ctx);
	return rc;
}

int main(int argc, char **argv)
{
	int err = argc >= 3 ? errno_named(argv[1]) : 0;
	int rc;

	if (err == 0) {
		fprintf(stderr, "usage: no-execveat ENOSYS|EPERM COMMAND [ARG...]\n");
		return 125;
	}
	rc = refuse_execveat(err);
	if (rc != 0) {
		fprintf(stderr, "no-execveat: seccomp: %s\n", strerror(-rc));
		return 125;
	}
	/* execvp uses execve, which the filter leaves alone. */
	execvp(argv[2], &argv[2]);
	fprintf(stderr, "no-execveat: %s: %s\n", argv[2], strerror(errno));
	return errno == ENOENT ? 127 : 126;
}
