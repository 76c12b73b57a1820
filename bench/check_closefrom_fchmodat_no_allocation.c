/*
 * closefrom, close_range, fchmodat, pidfd_getpid and faccessat allocate
 * nothing on any path: the system calls (and the PIDFD_GET_INFO ioctl)
 * allowed, and refused (ENOSYS, EPERM) with /proc real (the proven
 * listing, fd directory and fdinfo) or hidden (the scan, the reopen;
 * faccessat's AT_EMPTY_PATH without /proc). They run between fork and
 * exec and in vfork children.
 *
 *   check-closefrom-fchmodat-no-allocation
 *
 * Each call is counted by heap_counter.c, in a forked child per world
 * (filters and mount namespaces cannot be undone), which reports through
 * its exit status. Needs root for the worlds without /proc.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "execveat.h"
#include "heap_counter.h"
#include "kernel_env.h"
#include "pidfd_worlds.h"
#include "refuse_call.h"

static int dirfd_under_test = -1;

struct chmod_call {
	const char *what;
	const char *path;
	int flags;
};

static const struct chmod_call chmod_calls[] = {
	{ "a file", "file", AT_SYMLINK_NOFOLLOW },
	{ "a directory", "dir", AT_SYMLINK_NOFOLLOW },
	{ "a symlink", "link", AT_SYMLINK_NOFOLLOW },
	{ "a missing file", "missing", AT_SYMLINK_NOFOLLOW },
	{ "a path in a directory", "dir/../file", AT_SYMLINK_NOFOLLOW },
	{ "no flags", "file", 0 },
	{ NULL, NULL, 0 },
};

/* faccessat's flags, each asked of "link" with X_OK: the old call as it
 * is, the symlink's own answer, and the fd's file through /proc. */
static const int access_flags[] = {
	0, AT_EACCESS, AT_SYMLINK_NOFOLLOW, AT_EMPTY_PATH,
};

static bool counter_works(void)
{
	unsigned long before = heap_calls;
	char *volatile copy = strdup("x");

	free(copy);
	return heap_calls - before >= 2;
}

static bool counted(const char *what, const char *world, unsigned long heap)
{
	printf("%s %s (%s): %lu heap call(s)\n", heap == 0 ? "ok" : "not ok",
	       what, world, heap);
	return heap == 0;
}

static bool no_allocation(const char *world)
{
	unsigned long before;
	bool ok = true;

	for (const struct chmod_call *c = chmod_calls; c->what; c++) {
		before = heap_calls;
		/* Its answer is the fchmodat tests' to judge: only the heap
		 * calls count here. */
		int answer = fchmodat(dirfd_under_test, c->path, 0600, c->flags);

		(void)answer;
		ok &= counted(c->what, world, heap_calls - before);
	}
	/* faccessat, then again with another real UID: then AT_EACCESS and
	 * AT_SYMLINK_NOFOLLOW are asked by the fallback's child. */
	for (int other_ids = 0; other_ids < 2; other_ids++) {
		if (other_ids && setresuid(65534, 0, 0) != 0)
			return false;
		for (size_t i = 0; i < sizeof(access_flags) / sizeof(int); i++) {
			int flags = access_flags[i];
			int answer;

			before = heap_calls;
			answer = faccessat(dirfd_under_test,
					   flags & AT_EMPTY_PATH ? "" : "link",
					   X_OK, flags);
			(void)answer;
			ok &= counted(other_ids ? "faccessat, other real UID" :
						  "faccessat", world,
				      heap_calls - before);
		}
	}
	if (setresuid(0, 0, 0) != 0)
		return false;
	before = heap_calls;
	close_range(3, ~0u, CLOSE_RANGE_CLOEXEC);
	ok &= counted("close_range, CLOSE_RANGE_CLOEXEC", world,
		      heap_calls - before);
	before = heap_calls;
	close_range(9, 8, 0);
	ok &= counted("close_range, first above last", world,
		      heap_calls - before);
	before = heap_calls;
	{
		int own = (int)syscall(SYS_pidfd_open, (long)getpid(), 0L);
		pid_t answer = pidfd_getpid(own);

		(void)answer;
		ok &= counted("pidfd_getpid", world, heap_calls - before);
	}
	/* Last: it closes the directory the calls above use. */
	before = heap_calls;
	closefrom(3);
	ok &= counted("closefrom", world, heap_calls - before);
	return ok;
}

/* 0, 1, or 77 (the world cannot be made here). */
static int in_world(int err, bool without_proc, const char *world)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if ((without_proc && hide_proc() != 0) ||
		    (err != 0 && (block_close_range(err) != 0 ||
				  block_fchmodat2(err) != 0 ||
				  refuse_pidfd_get_info(err) != 0 ||
				  refuse_call(SYS_faccessat2, err) != 0))) {
			printf("not here: %s\n", world);
			_exit(77);
		}
		_exit(no_allocation(world) ? 0 : 1);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 1;
	return WEXITSTATUS(status);
}

int main(void)
{
	static const struct {
		int err;
		bool without_proc;
		const char *name;
	} worlds[] = {
		{ 0, false, "as they are" },
		{ ENOSYS, false, "refused with ENOSYS" },
		{ EPERM, false, "refused with EPERM" },
		{ ENOSYS, true, "refused with ENOSYS, no /proc" },
		{ EPERM, true, "refused with EPERM, no /proc" },
	};
	char dir[] = "/tmp/closefrom-alloc.XXXXXX";
	int fd, result = 0, ran = 0;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (!counter_works()) {
		printf("the heap counter sees no calls: not interposed\n");
		return 99; /* before the directory: nothing to remove */
	}
	if (mkdtemp(dir) == NULL ||
	    (dirfd_under_test = open(dir, O_DIRECTORY | O_RDONLY)) < 0 ||
	    (fd = openat(dirfd_under_test, "file", O_CREAT | O_WRONLY, 0644)) < 0 ||
	    mkdirat(dirfd_under_test, "dir", 0755) != 0 ||
	    symlinkat("file", dirfd_under_test, "link") != 0) {
		perror("setup");
		return 99;
	}
	close(fd);
	for (size_t i = 0; i < sizeof(worlds) / sizeof(worlds[0]); i++) {
		int r = in_world(worlds[i].err, worlds[i].without_proc,
				 worlds[i].name);

		if (r == 1)
			result = 1;
		ran += r == 0 || r == 1;
	}
	unlinkat(dirfd_under_test, "link", 0);
	unlinkat(dirfd_under_test, "file", 0);
	unlinkat(dirfd_under_test, "dir", AT_REMOVEDIR);
	rmdir(dir);
	return ran == 0 ? 77 : result;
}
