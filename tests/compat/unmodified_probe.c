/*
 * A program built against the C library alone (never linked with
 * libexecveat), for the compat suite: in the world named by its first
 * argument it calls fexecve on REPORT_ARGS and, if fexecve comes back,
 * prints the errno and exits 1. Built inside the Debian 11 root, so its
 * fexecve is glibc 2.31's unless libexecveat is preloaded.
 *
 *   unmodified_probe real|eperm|fake-enosys REPORT_ARGS IMPOSTOR
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kernel_env.h"

static int make_world(const char *world, int fd, const char *impostor)
{
	if (strcmp(world, "real") == 0)
		return 0;
	if (strcmp(world, "eperm") == 0)
		return block_execveat(EPERM);
	if (strcmp(world, "fake-enosys") == 0) {
		int err = fake_proc(fd, impostor);

		return err != 0 ? err : block_execveat(ENOSYS);
	}
	return EINVAL;
}

int main(int argc, char **argv)
{
	char *child_argv[] = { "report_args", "42", NULL };
	char *child_envp[] = { "IN_TEST=yes", NULL };
	int fd, err;

	if (argc != 4) {
		fprintf(stderr, "usage: %s WORLD REPORT_ARGS IMPOSTOR\n",
			argv[0]);
		return 2;
	}
	fd = open(argv[2], O_RDONLY);
	if (fd < 0 || (err = make_world(argv[1], fd, argv[3])) != 0) {
		fprintf(stderr, "setup: %s\n", strerror(fd < 0 ? errno : err));
		return 2;
	}
	fexecve(fd, child_argv, child_envp);
	printf("errno %d (%s)\n", errno, strerror(errno));
	return 1;
}
