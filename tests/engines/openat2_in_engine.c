/*
 * A program linked with -lexecveat for the engines suite: beneath a
 * directory of its own it asks the library's openat2() for a file inside,
 * for an escape and for a symbolic link, and prints what came back, after
 * what the openat2 system call itself answers in the engine's world.
 *
 *   openat2_in_engine
 *
 * Prints, one line each:
 *   openat2 errno N   the raw call with a short struct: EINVAL (22) where
 *                     openat2 is allowed; EPERM or ENOSYS where refused
 *   inside fd         RESOLVE_BENEATH of a file inside: an fd of that file
 *   escape errno N    RESOLVE_BENEATH of "../DIR/inside": EXDEV (18)
 *   link errno N      RESOLVE_NO_SYMLINKS of a link to the file: ELOOP (40)
 * and exits 0; 2 when it could not make its directory.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <execveat.h>

/* glibc 2.31 (Debian 11) names no SYS_openat2; the number is 437 on
 * every ABI this program is built for here. */
#ifndef SYS_openat2
#define SYS_openat2 437
#endif

/* "WHAT fd" (the open succeeded) or "WHAT errno N". */
static void print_outcome(const char *what, int fd)
{
	if (fd >= 0) {
		printf("%s fd\n", what);
		close(fd);
	} else {
		printf("%s errno %d\n", what, errno);
	}
}

static void print_inside(int dirfd)
{
	struct open_how how = { .flags = O_RDONLY, .resolve = RESOLVE_BENEATH };
	struct stat want, got;
	int fd = openat2(dirfd, "inside", &how, sizeof(how));

	if (fd < 0) {
		printf("inside errno %d\n", errno);
		return;
	}
	if (fstat(fd, &got) == 0 && fstatat(dirfd, "inside", &want, 0) == 0 &&
	    got.st_dev == want.st_dev && got.st_ino == want.st_ino)
		printf("inside fd\n");
	else
		printf("inside fd of another file\n");
	close(fd);
}

int main(void)
{
	char dir[] = "/tmp/beneath.XXXXXX", escape[64];
	struct open_how how = { .flags = O_RDONLY, .resolve = RESOLVE_BENEATH };
	int dirfd, err;

	setvbuf(stdout, NULL, _IONBF, 0);
	syscall(SYS_openat2, AT_FDCWD, ".", &how, 0);
	printf("openat2 errno %d\n", errno);

	if (mkdtemp(dir) == NULL || (dirfd = open(dir, O_RDONLY | O_DIRECTORY)) < 0 ||
	    (err = openat(dirfd, "inside", O_WRONLY | O_CREAT, 0644)) < 0 ||
	    close(err) != 0 || symlinkat("inside", dirfd, "link") != 0) {
		fprintf(stderr, "making %s: %s\n", dir, strerror(errno));
		return 2;
	}
	print_inside(dirfd);

	snprintf(escape, sizeof(escape), "../%s/inside", strrchr(dir, '/') + 1);
	print_outcome("escape", openat2(dirfd, escape, &how, sizeof(how)));

	how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS;
	print_outcome("link", openat2(dirfd, "link", &how, sizeof(how)));

	unlinkat(dirfd, "link", 0);
	unlinkat(dirfd, "inside", 0);
	rmdir(dir);
	return 0;
}
