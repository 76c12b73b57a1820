/*
 * An unmodified program, built against the C library only (never linked
 * with libexecveat), for the preload and sandbox suites. It calls the C
 * library's functions on fd FD, opened for it by the test on report_args,
 * and prints what came back; a successful exec prints nothing.
 *
 *   glibc_fexecve_probe MODE FD
 *
 * MODE: fexecve, execveat-null (execveat(FD, NULL, ..., AT_EMPTY_PATH)),
 * signal (fexecve from a signal handler), vfork (fexecve in a vfork
 * child), fd-count (fexecve, then the number of open fds before and after).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char *child_argv[] = { "report_args", "42", NULL };
static char *child_envp[] = { "IN_TEST=yes", NULL };
static int target_fd;
static volatile sig_atomic_t handler_errno;

static int report_errno(int err)
{
	printf("errno %d\n", err);
	return 1;
}

static void exec_in_handler(int sig)
{
	(void)sig;
	fexecve(target_fd, child_argv, child_envp);
	handler_errno = errno;
}

static int fexecve_from_signal_handler(void)
{
	signal(SIGUSR1, exec_in_handler);
	raise(SIGUSR1);
	return report_errno(handler_errno);
}

static int fexecve_in_vfork_child(void)
{
	static volatile int child_errno;
	int status;
	pid_t pid = vfork();

	if (pid == 0) {
		fexecve(target_fd, child_argv, child_envp);
		child_errno = errno;
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return report_errno(errno);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && child_errno)
		return report_errno(child_errno);
	printf("child status %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return 0;
}

/* fcntl, not /proc: the probe runs where /proc is missing or fake. */
static int count_open_fds(void)
{
	int count = 0;

	for (int fd = 0; fd < 1024; fd++)
		count += fcntl(fd, F_GETFD) != -1;
	return count;
}

static int fexecve_and_count_fds(void)
{
	int before = count_open_fds(), err;

	fexecve(target_fd, child_argv, child_envp);
	err = errno;
	printf("errno %d fds %d -> %d\n", err, before, count_open_fds());
	return 1;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s MODE FD\n", argv[0]);
		return 2;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	target_fd = atoi(argv[2]);
	if (strcmp(argv[1], "fexecve") == 0) {
		fexecve(target_fd, child_argv, child_envp);
		return report_errno(errno);
	}
	if (strcmp(argv[1], "execveat-null") == 0) {
		/* volatile: glibc declares the path nonnull. */
		const char *volatile no_path = NULL;

		execveat(target_fd, no_path, child_argv, child_envp, AT_EMPTY_PATH);
		return report_errno(errno);
	}
	if (strcmp(argv[1], "signal") == 0)
		return fexecve_from_signal_handler();
	if (strcmp(argv[1], "vfork") == 0)
		return fexecve_in_vfork_child();
	if (strcmp(argv[1], "fd-count") == 0)
		return fexecve_and_count_fds();
	fprintf(stderr, "unknown mode %s\n", argv[1]);
	return 2;
}
