/*
 * beneath-open REFUSE WAY DIR PATH: open PATH beneath DIR with
 * RESOLVE_BENEATH and say what came back, in a world where openat2 is
 * allowed (REFUSE none) or refused by a seccomp filter (ENOSYS, EPERM).
 * WAY "raw" is the system call as a program makes it today on glibc 2.36,
 * which has no openat2() (glibc 2.43's is that same call); WAY "library"
 * is libexecveat's openat2(). For tools/demo; not installed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "execveat.h"

static int refuse_openat2(const char *name)
{
	int err = strcmp(name, "ENOSYS") == 0 ? ENOSYS :
		  strcmp(name, "EPERM") == 0  ? EPERM : 0;
	scmp_filter_ctx ctx;
	int rc;

	if (strcmp(name, "none") == 0)
		return 0;
	if (err == 0 || (ctx = seccomp_init(SCMP_ACT_ALLOW)) == NULL)
		return -EINVAL;
	rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(err), SCMP_SYS(openat2), 0);
	if (rc == 0)
		rc = seccomp_load(ctx);
	seccomp_release(ctx);
	return rc;
}

int main(int argc, char **argv)
{
	struct open_how how = { O_RDONLY | O_CLOEXEC, 0, RESOLVE_BENEATH };
	int dirfd, fd, rc;

	if (argc != 5 || (strcmp(argv[2], "raw") != 0 &&
			  strcmp(argv[2], "library") != 0)) {
		fprintf(stderr, "usage: beneath-open none|ENOSYS|EPERM "
			"raw|library DIR PATH\n");
		return 125;
	}
	dirfd = open(argv[3], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0 || (rc = refuse_openat2(argv[1])) != 0) {
		fprintf(stderr, "beneath-open: setup failed\n");
		return 125;
	}
	if (strcmp(argv[2], "raw") == 0)
		fd = (int)syscall(SYS_openat2, dirfd, argv[4], &how, sizeof(how));
	else
		fd = openat2(dirfd, argv[4], &how, sizeof(how));
	if (fd < 0) {
		printf("%s (%s)\n", strerrorname_np(errno), strerror(errno));
		return 1;
	}
	printf("an fd\n");
	return 0;
}
