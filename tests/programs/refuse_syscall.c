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

#include "../common/refuse_call.h"

int main(int argc, char **argv)
{
	int nr;

	if (argc < 4) {
		fprintf(stderr, "usage: refuse-syscall NAME ERRNO PROGRAM [ARG...]\n");
		return 125;
	}
	/* libseccomp knows the names; the filter is the tests' own. */
	nr = seccomp_syscall_resolve_name(argv[1]);
	if (nr == __NR_SCMP_ERROR || refuse_call(nr, atoi(argv[2])) != 0) {
		fprintf(stderr, "refuse-syscall: cannot refuse %s\n", argv[1]);
		return 125;
	}
	execvp(argv[3], argv + 3);
	perror(argv[3]);
	return 127;
}
