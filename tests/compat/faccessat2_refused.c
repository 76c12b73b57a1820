/*
 * faccessat2-refused ERRNO PROGRAM [ARG...]: runs PROGRAM with faccessat2
 * refused with ERRNO (a number) by a seccomp filter, as a policy older
 * than Linux 5.8 refuses it. Built in the Debian unstable root, for its
 * own dash.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "refuse_call.h"

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: faccessat2-refused ERRNO PROGRAM [ARG...]\n");
		return 125;
	}
	if (refuse_call(SYS_faccessat2, atoi(argv[1])) != 0) {
		fprintf(stderr, "faccessat2-refused: cannot load the filter\n");
		return 125;
	}
	execvp(argv[2], argv + 2);
	perror(argv[2]);
	return 127;
}
