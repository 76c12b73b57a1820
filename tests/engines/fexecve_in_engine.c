/*
 * An unmodified program for the engines suite, built against the C library
 * alone (never linked with libexecveat), in the engine's own root: glibc
 * 2.36's in the Debian 12 root, glibc 2.31's in the Debian 11 one. It says
 * which world the engine made, then calls the C library's fexecve on each
 * FILE, in a child of its own.
 *
 *   fexecve_in_engine FILE...
 *
 * Prints "execveat errno N", N being what the execveat system call itself
 * answers there (EBADF where it is allowed: the fd is -1; EPERM or ENOSYS
 * where the engine's policy refuses it). Then for each FILE, named by its
 * last component: "NAME: fexecve errno N" if fexecve came back, and
 * "NAME: exit S", how the child ended (report_args exits 42 when its
 * arguments and environment arrived; a child whose fexecve came back
 * exits 1).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static char *child_argv[] = { "report_args", "42", NULL };
static char *child_envp[] = { "IN_TEST=yes", NULL };

static void run_by_fd(const char *file)
{
	const char *name = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		int fd = open(file, O_RDONLY | O_CLOEXEC);

		if (fd < 0) {
			printf("%s: open errno %d\n", name, errno);
			_exit(2);
		}
		fexecve(fd, child_argv, child_envp);
		printf("%s: fexecve errno %d\n", name, errno);
		_exit(1);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		printf("%s: fork or wait errno %d\n", name, errno);
	else if (WIFEXITED(status))
		printf("%s: exit %d\n", name, WEXITSTATUS(status));
	else
		printf("%s: signal %d\n", name, WTERMSIG(status));
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE...\n", argv[0]);
		return 2;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	/* glibc 2.31 has no execveat(): the system call, as such programs
	 * make it. */
	syscall(SYS_execveat, -1, "", child_argv, child_envp, AT_EMPTY_PATH);
	printf("execveat errno %d\n", errno);
	for (int i = 1; i < argc; i++)
		run_by_fd(argv[i]);
	return 0;
}
