/*
 * no-faccessat2 ENOSYS|EPERM COMMAND [ARG...]: run COMMAND with faccessat2
 * refused, the way a seccomp policy that predates it (Linux 5.8) refuses
 * it. For tools/demo; not installed.
 */
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int err = argc < 3 ? 0 : strcmp(argv[1], "ENOSYS") == 0 ? ENOSYS :
		  strcmp(argv[1], "EPERM") == 0 ? EPERM : 0;
	scmp_filter_ctx ctx;
	int rc = -EINVAL;

	if (err == 0) {
		fprintf(stderr, "usage: no-faccessat2 ENOSYS|EPERM COMMAND [ARG...]\n");
		return 125;
	}
	ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (ctx != NULL) {
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(err),
				      seccomp_syscall_resolve_name("faccessat2"), 0);
		if (rc == 0)
			rc = seccomp_load(ctx);
		seccomp_release(ctx);
	}
	if (rc != 0) {
		fprintf(stderr, "no-faccessat2: seccomp: %s\n", strerror(-rc));
		return 125;
	}
	execvp(argv[2], &argv[2]);
	fprintf(stderr, "no-faccessat2: %s: %s\n", argv[2], strerror(errno));
	return errno == ENOENT ? 127 : 126;
}
