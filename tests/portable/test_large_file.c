/*
 * A file over 2 GiB through openat2's fallback, as the kernel's openat2
 * opens it: on every build, and what it is for, on 32-bit ones.
 *
 * The kernel's openat2 adds O_LARGEFILE to every open but O_PATH on a
 * 64-bit kernel, also for a 32-bit program (src/openat2/largefile.c). The
 * fallback's walk ends in the compat openat, which adds nothing: without
 * the flag, opening a file over 2 GiB answers EOVERFLOW and a write past
 * 2 GiB EFBIG (a truncation past it, EINVAL). Each case opens a sparse
 * 3 GiB file in a child whose openat2 is refused, writes a byte past
 * 3 GiB through the fd, and compares F_GETFL, or the errno, with the
 * kernel's own openat2 in the parent, where it is there: on a 32-bit
 * kernel both refuse. The kernel's scoped ".." answers EAGAIN while a
 * rename anywhere on the machine races it: asked again as
 * openat2_again.h says, and where renames never stop, not judged (the
 * fallback's open and write still are). Under qemu-user (which calls
 * the host's 64-bit openat) every case passes whatever the library
 * does: only a 64-bit kernel running a 32-bit program natively tells.
 *
 * Libc-neutral (no cmocka, no libseccomp). Exits 1 if a case failed, 77
 * where the scratch file system cannot hold a sparse 3 GiB file.
 */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "execveat.h"
#include "kernel_env.h"
#include "openat2_again.h"

#define SIZE_3G ((off_t)3 << 30)
#define NOT_RUN -1

struct large_case {
	const char *name;
	const char *path;
	uint64_t flags, resolve;
	bool writes;
};

static const struct large_case cases[] = {
	{ "read-only, beneath", "sub/large", O_RDONLY, RESOLVE_BENEATH, false },
	{ "read-write, beneath", "sub/large", O_RDWR, RESOLVE_BENEATH, true },
	{ "write, in root, through ..", "sub/../sub/large", O_WRONLY,
	  RESOLVE_IN_ROOT, true },
	{ "created, no symlinks", "sub/new", O_RDWR | O_CREAT,
	  RESOLVE_NO_SYMLINKS, true },
	{ "O_PATH: never the flag", "sub/large", O_PATH, RESOLVE_BENEATH,
	  false },
};

/* The case's fd from the library's openat2 (in the fallback's child),
 * or where unanswered is not NULL from the kernel's own call, asked
 * again while renames make it EAGAIN (kernel_openat2). */
static int open_large(int dirfd, const struct large_case *c,
		      bool *unanswered)
{
	struct open_how how = { .flags = c->flags, .resolve = c->resolve,
				.mode = (c->flags & O_CREAT) ? 0600 : 0 };

	if (unanswered == NULL)
		return openat2(dirfd, c->path, &how, sizeof(how));
	return (int)kernel_openat2(dirfd, c->path, &how, sizeof(how),
				   unanswered);
}

/* The case's file grown past 3 GiB through fd, and written there. */
static int write_past_3g(int fd)
{
	if (ftruncate(fd, SIZE_3G) < 0)
		return errno;
	if (pwrite(fd, "x", 1, SIZE_3G) != 1)
		return errno;
	return 0;
}

/* The case through open_large: F_GETFL of its fd, or -errno of the
 * open or of the write past 3 GiB. */
static int outcome(int dirfd, const struct large_case *c, bool *unanswered)
{
	int fd = open_large(dirfd, c, unanswered), result, err;

	if (fd < 0)
		return -errno;
	if (c->writes && (err = write_past_3g(fd)) != 0)
		result = -err;
	else
		result = fcntl(fd, F_GETFL);
	close(fd);
	return result;
}

/* In a child whose openat2 is refused: the outcome, into the pipe. */
static void fallback_child(int dirfd, const struct large_case *c, int out)
{
	int err = block_openat2(ENOSYS);
	int result = err == 0 ? outcome(dirfd, c, NULL) : -err;

	_exit(write(out, &result, sizeof(result)) == sizeof(result) ? 0 : 1);
}

static int through_fallback(int dirfd, const struct large_case *c)
{
	int pipefd[2], result = NOT_RUN, status;
	pid_t pid;

	if (pipe(pipefd) < 0 || (pid = fork()) < 0) {
		perror("pipe or fork");
		exit(1);
	}
	if (pid == 0)
		fallback_child(dirfd, c, pipefd[1]);
	close(pipefd[1]);
	if (read(pipefd[0], &result, sizeof(result)) != sizeof(result))
		result = NOT_RUN;
	close(pipefd[0]);
	waitpid(pid, &status, 0);
	return result;
}

/* What the kernel shows that the fallback may add (openat2(3), NOTES):
 * O_NOFOLLOW on a file it opened following links. */
static bool same_outcome(int kernel, int fallback)
{
	return kernel == fallback ||
	       (kernel >= 0 && fallback >= 0 && (fallback & ~O_NOFOLLOW) == kernel);
}

static bool run_case(int dirfd, const struct large_case *c, bool kernel_has)
{
	bool unanswered = false;
	int got = through_fallback(dirfd, c);
	int want = kernel_has ? outcome(dirfd, c, &unanswered) : NOT_RUN;
	bool ok;

	if (unanswered) {
		openat2_say_not_judged(c->name, "the fallback's open and write");
		want = NOT_RUN;
	}
	/* Without the kernel's answer, the answer of a 64-bit kernel
	 * (qemu-user's host): opened and written. */
	ok = want == NOT_RUN ? got >= 0 : same_outcome(want, got);

	unlinkat(dirfd, "sub/new", 0);
	printf("%s: %s: fallback ", ok ? "ok" : "FAILED", c->name);
	if (got >= 0)
		printf("F_GETFL %#x", (unsigned)got);
	else
		printf("%s", strerror(-got));
	if (want >= 0)
		printf(", kernel's openat2 F_GETFL %#x", (unsigned)want);
	else if (want != NOT_RUN)
		printf(", kernel's openat2 %s", strerror(-want));
	printf("\n");
	return ok;
}

static int make_tree(char *dir)
{
	int dirfd, fd;

	if (mkdtemp(dir) == NULL || (dirfd = open(dir, O_PATH)) < 0 ||
	    mkdirat(dirfd, "sub", 0700) < 0 ||
	    (fd = openat(dirfd, "sub/large", O_RDWR | O_CREAT, 0600)) < 0) {
		perror("the test's directory");
		exit(1);
	}
	if (ftruncate(fd, SIZE_3G) < 0) {
		printf("SKIP: %s cannot hold a sparse 3 GiB file: %s\n", dir,
		       strerror(errno));
		exit(77);
	}
	close(fd);
	return dirfd;
}

int main(void)
{
	char dir[] = "/var/tmp/libexecveat-large.XXXXXX";
	int dirfd = make_tree(dir), failed = 0;
	bool kernel_has = openat2_refusal() == 0;

	if (!kernel_has)
		printf("not here: the kernel's F_GETFL: openat2 is refused here"
		       " (%s); the fallback's opens and writes are checked\n",
		       strerror(openat2_refusal()));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		failed |= !run_case(dirfd, &cases[i], kernel_has);
	unlinkat(dirfd, "sub/large", 0);
	unlinkat(dirfd, "sub", AT_REMOVEDIR);
	rmdir(dir);
	printf("%s\n", failed ? "FAILED" : "all cases passed");
	return failed;
}
