/*
 * A program built against glibc 2.43 or later and never linked with
 * libexecveat, for the compat suite's sid root: it calls glibc's own
 * openat2() with RESOLVE_BENEATH, for a file inside a directory and for
 * an escape from it, in the world its argument names, and prints each
 * answer. Exits 0 when both are the kernel's (an fd to the file; EXDEV),
 * 1 otherwise.
 *
 *   glibc_openat2_client allowed|enosys|eperm
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel_env.h"

static int answer(int dirfd, const char *path)
{
	struct open_how how = { .flags = O_RDONLY,
				.resolve = RESOLVE_BENEATH };
	int fd = openat2(dirfd, path, &how, sizeof(how));

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	char top[] = "/tmp/openat2-client.XXXXXX";
	int dirfd, fd, err = 0, inside, escape;

	if (argc != 2) {
		fprintf(stderr, "usage: %s allowed|enosys|eperm\n", argv[0]);
		return 2;
	}
	if (mkdtemp(top) == NULL || (dirfd = open(top, O_DIRECTORY)) < 0 ||
	    (fd = openat(dirfd, "file", O_CREAT | O_WRONLY, 0644)) < 0) {
		perror("fixture");
		return 2;
	}
	close(fd);
	if (strcmp(argv[1], "enosys") == 0)
		err = block_openat2(ENOSYS);
	else if (strcmp(argv[1], "eperm") == 0)
		err = block_openat2(EPERM);
	if (err != 0) {
		fprintf(stderr, "setup: %s\n", strerror(err));
		return 2;
	}
	inside = answer(dirfd, "file");
	escape = answer(dirfd, "../file");
	printf("inside: %s; escape: %s\n", inside ? strerror(inside) : "an fd",
	       escape ? strerror(escape) : "an fd");
	unlinkat(dirfd, "file", 0);
	rmdir(top);
	return inside == 0 && escape == EXDEV ? 0 : 1;
}
