/*
 * The subject of count-fast-path-syscalls.sh: between marks written to
 * fd -1, the library's fchmodat with AT_SYMLINK_NOFOLLOW once, its
 * pidfd_getpid once, its faccessat with AT_EACCESS once, then its
 * closefrom once, so that the system calls between each pair of marks
 * are that function's. Where the kernel has fchmodat2, PIDFD_GET_INFO,
 * faccessat2 and close_range (Linux 6.6, 6.13, 5.8 and 5.9) and nothing
 * refuses them, each is one call.
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

#include "execveat.h"

#define MARK(text) (void)!write(-1, text, sizeof(text) - 1)

int main(void)
{
	char dir[] = "/tmp/fast-paths-once.XXXXXX";
	int dirfd, fd, rc, err;

	if (mkdtemp(dir) == NULL ||
	    (dirfd = open(dir, O_DIRECTORY | O_RDONLY)) < 0 ||
	    (fd = openat(dirfd, "file", O_CREAT | O_WRONLY, 0644)) < 0)
		return 2;
	close(fd);
	MARK("fast-paths-once: calling fchmodat");
	rc = fchmodat(dirfd, "file", 0600, AT_SYMLINK_NOFOLLOW);
	err = errno;
	MARK("fast-paths-once: fchmodat returned");
	unlinkat(dirfd, "file", 0);
	rmdir(dir);
	if (rc != 0) {
		fprintf(stderr, "fast-paths-once: fchmodat: %s\n", strerror(err));
		return 1;
	}
	/* A pidfd of this process, asked before closefrom closes it. */
	fd = (int)syscall(SYS_pidfd_open, (long)getpid(), 0L);
	MARK("fast-paths-once: calling pidfd_getpid");
	rc = pidfd_getpid(fd);
	err = errno;
	MARK("fast-paths-once: pidfd_getpid returned");
	if (rc != getpid()) {
		fprintf(stderr, "fast-paths-once: pidfd_getpid: %s\n",
			rc < 0 ? strerror(err) : "another pid");
		return 1;
	}
	MARK("fast-paths-once: calling faccessat");
	rc = faccessat(AT_FDCWD, "/", X_OK, AT_EACCESS);
	err = errno;
	MARK("fast-paths-once: faccessat returned");
	if (rc != 0) {
		fprintf(stderr, "fast-paths-once: faccessat: %s\n", strerror(err));
		return 1;
	}
	MARK("fast-paths-once: calling closefrom");
	closefrom(3);
	MARK("fast-paths-once: closefrom returned");
	return 0;
}
