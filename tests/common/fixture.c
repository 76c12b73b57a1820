#include "fixture.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

char *child_argv[] = { "report_args", CHILD_STATUS_STR, NULL };
char *child_envp[] = { "IN_TEST=yes", NULL };
const char *report_args_path;
const char *impostor_path;

void fixture_init(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s REPORT_ARGS IMPOSTOR\n", argv[0]);
		exit(2);
	}
	/* Absolute: a fake /proc's symlinks must not resolve relative to it. */
	report_args_path = realpath(argv[1], NULL);
	impostor_path = realpath(argv[2], NULL);
	if (report_args_path == NULL || impostor_path == NULL) {
		perror("realpath");
		exit(2);
	}
}

int open_or_fail(const char *path, int flags)
{
	int fd = open(path, flags);

	if (fd < 0)
		fail_msg("open %s: %m", path);
	return fd;
}

void read_to_end(int fd, char *buf, size_t size)
{
	size_t used = 0;
	ssize_t n;

	while (used + 1 < size && (n = read(fd, buf + used, size - 1 - used)) > 0)
		used += (size_t)n;
	buf[used] = '\0';
}
