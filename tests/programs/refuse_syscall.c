/*
 * refuse-syscall NAME ERRNO PROGRAM [ARG...]: runs PROGRAM with the
 * system call NAME refused with ERRNO (a number) by a seccomp filter, as
 * a container runtime's policy refuses a call it does not know. For the
 * tests that run unmodified programs in such worlds.
 */
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	scmp_filter_ctx ctx;
	int nr;

	if (argc < 4) {
		fprintf(stderr, "usage: refuse-syscall NAME ERRNO PROGRAM [ARG...]\n");
		return 125;
	}
	nr = seccomp_syscall_resolve_name(argv[1]);
	ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (nr == __NR_SCMP_ERROR || ctx == NULL ||
	    seccomp_rule_add(ctx, SCMP_ACT_ERRNO(atoi(argv[2])), nr, 0) != 0 ||
	    seccomp_load(ctx) != 0) {
		fprintf(stderr, "refuse-syscall: cannot refuse %s\n", argv[1]);
		return 125;
	}
	seccomp_release(ctx);
	execvp(argv[3], argv + 3);
	perror(argv[3]);
	return 127;
}
