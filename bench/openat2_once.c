/*
 * The subject of count-openat2-syscalls.sh: marks the moment in the
 * trace with a write to fd -1, calls the library's openat2 once
 * (RESOLVE_BENEATH, one component, openat2 allowed), and marks its end,
 * so that every system call between the marks is openat2's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "execveat.h"

#define MARK "openat2-once: calling openat2"
#define END "openat2-once: returned"

int main(void)
{
	char dir[] = "/tmp/openat2-once.XXXXXX";
	struct open_how how = { O_RDONLY | O_CLOEXEC, 0, RESOLVE_BENEATH };
	int dirfd, fd, err;

	if (mkdtemp(dir) == NULL ||
	    (dirfd = open(dir, O_DIRECTORY | O_RDONLY)) < 0 ||
	    (fd = openat(dirfd, "file", O_CREAT | O_WRONLY, 0644)) < 0)
		return 2;
	close(fd);
	(void)!write(-1, MARK, sizeof(MARK) - 1);
	fd = openat2(dirfd, "file", &how, sizeof(how));
	err = errno;
	(void)!write(-1, END, sizeof(END) - 1);
	unlinkat(dirfd, "file", 0);
	rmdir(dir);
	if (fd < 0) {
		fprintf(stderr, "openat2-once: %s\n", strerror(err));
		return 1;
	}
	return 0;
}
