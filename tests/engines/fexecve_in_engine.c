/*
 * An unmodified program for the engines suite, built against the C library
 * alone (never linked with libexecveat), in the engine's own root: glibc
 * 2.36's in the Debian 12 root, glibc 2.31's in the Debian 11 one. It says
 * which world the engine made, then calls the C library's fexecve on FILE.
 *
 *   fexecve_in_engine FILE
 *
 * Prints "execveat errno N", N being what the execveat system call itself
 * answers there (EBADF where it is allowed: the fd is -1; EPERM or ENOSYS
 * where the engine's policy refuses it). Then fexecve: a successful exec
 * prints nothing more and FILE (report_args) exits 42; a failed one prints
 * "fexecve errno N" and exits 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char *child_argv[] = { "report_args", "42", NULL };
	char *child_envp[] = { "IN_TEST=yes", NULL };
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: %s FILE\n", argv[0]);
		return 2;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	/* glibc 2.31 has no execveat(): the system call, as such programs
	 * make it. */
	syscall(SYS_execveat, -1, "", child_argv, child_envp, AT_EMPTY_PATH);
	printf("execveat errno %d\n", errno);
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "open %s: errno %d\n", argv[1], errno);
		return 2;
	}
	fexecve(fd, child_argv, child_envp);
	printf("fexecve errno %d\n", errno);
	return 1;
}
