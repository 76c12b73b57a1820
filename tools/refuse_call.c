/*
 * refuse-call SYSCALL ENOSYS|EPERM COMMAND [ARG...]: run COMMAND with the
 * system call SYSCALL refused, the way a seccomp policy that predates it
 * refuses it (close_range: Linux 5.9; faccessat2: 5.8). For tools/demo;
 * not installed.
 */
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "seccomp_abis.h"

int main(int argc, char **argv)
{
	int err = argc < 4 ? 0 : strcmp(argv[2], "ENOSYS") == 0 ? ENOSYS :
		  strcmp(argv[2], "EPERM") == 0 ? EPERM : 0;
	int nr = argc < 4 ? __NR_SCMP_ERROR :
			    seccomp_syscall_resolve_name(argv[1]);
	scmp_filter_ctx ctx;
	int rc = -EINVAL;

	if (err == 0 || nr == __NR_SCMP_ERROR) {
		fprintf(stderr, "usage: refuse-call SYSCALL ENOSYS|EPERM "
				"COMMAND [ARG...]\n");
		return 125;
	}
	ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (ctx != NULL) {
		rc = seccomp_add_machine_abis(ctx);
		if (rc == 0)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(err), nr, 0);
		if (rc == 0)
			rc = seccomp_load(ctx);
		seccomp_release(ctx);
	}
	if (rc != 0) {
		fprintf(stderr, "refuse-call: seccomp: %s\n", strerror(-rc));
		return 125;
	}
	execvp(argv[3], &argv[3]);
	fprintf(stderr, "refuse-call: %s: %s\n", argv[3], strerror(errno));
	return errno == ENOENT ? 127 : 126;
}
