/*
 * The subject of bad-args-syscalls: fexecve's argument errors, between two
 * marks that a system-call tracer sees (writes of 5 and 3 bytes to fd -1),
 * so that any system call between them is fexecve's own.
 *
 *   bad-args-fexecve PROGRAM
 *
 * Exits 0 once each call has failed with EINVAL, 1 otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "execveat.h"

static char *child_argv[] = { "never-run", NULL };
static char *child_envp[] = { NULL };
/* volatile: the compiler must not see these NULLs (glibc's __nonnull). */
static char **volatile no_argv;
static char **volatile no_envp;

static int fails_einval(int fd, char **argv, char **envp)
{
	errno = 0;
	return fexecve(fd, argv, envp) == -1 && errno == EINVAL;
}

int main(int argc, char **argv)
{
	int fd, ok;

	if (argc != 2 || (fd = open(argv[1], O_RDONLY)) < 0) {
		fprintf(stderr, "usage: bad-args-fexecve PROGRAM\n");
		return 2;
	}
	if (write(-1, "BEGIN", 5) != -1)
		return 2;
	ok = fails_einval(-1, child_argv, child_envp) &
	     fails_einval(fd, no_argv, child_envp) &
	     fails_einval(fd, child_argv, no_envp);
	if (write(-1, "END", 3) != -1)
		return 2;
	return ok ? 0 : 1;
}
