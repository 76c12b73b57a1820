/*
 * openat2 allocates nothing on any path: the fast path, a file's own
 * EPERM-free failures, the argument checks and the probe where the call
 * is refused with ENOSYS or EPERM, and (where it is built) the walk. It
 * runs in signal handlers and vfork children, as openat does.
 *
 *   check-openat2-no-allocation
 *
 * Each call is counted by heap_counter.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "execveat.h"
#include "heap_counter.h"
#include "kernel_env.h"
#include "resolve_shapes.h"

static int dirfd_under_test = -1;
static int shapes = -1; /* resolve_shapes.h's tree */

struct call {
	const char *what;
	const char *path;
	struct open_how how;
	size_t size;
};

static const struct call calls[] = {
	{ "a file, beneath", "file", { O_RDONLY, 0, RESOLVE_BENEATH }, 24 },
	{ "a file through a link, in root", "link",
	  { O_RDONLY, 0, RESOLVE_IN_ROOT }, 24 },
	{ "an escape, beneath", "../file", { O_RDONLY, 0, RESOLVE_BENEATH }, 24 },
	{ "a missing file", "missing", { O_RDONLY, 0, 0 }, 24 },
	{ "a refused link", "link", { O_RDONLY, 0, RESOLVE_NO_SYMLINKS }, 24 },
	{ "a creation", "created", { O_CREAT | O_WRONLY, 0600, RESOLVE_BENEATH },
	  24 },
	{ "size 23", "file", { O_RDONLY, 0, 0 }, 23 },
	{ "unknown flags", "file", { 1ULL << 40, 0, 0 }, 24 },
	{ "RESOLVE_CACHED", "file", { O_RDONLY, 0, RESOLVE_CACHED }, 24 },
	{ NULL, NULL, { 0, 0, 0 }, 0 },
};

static bool counter_works(void)
{
	unsigned long before = heap_calls;
	/* volatile: compilers delete an allocation that is freed unused. */
	char *volatile copy = strdup("x");

	free(copy);
	return heap_calls - before >= 2;
}

/* One call, its heap calls counted and reported. */
static bool no_allocation_in(const char *what, const char *world, int dirfd,
			     const char *path, const struct open_how *how,
			     size_t size)
{
	unsigned long before = heap_calls;
	int fd = openat2(dirfd, path, how, size);
	int err = fd < 0 ? errno : 0;
	unsigned long heap = heap_calls - before;

	if (fd >= 0)
		close(fd);
	printf("%s %s, openat2 %s: %s, %lu heap call(s)\n",
	       heap == 0 ? "ok" : "not ok", what, world,
	       err ? strerrorname_np(err) : "an fd", heap);
	return heap == 0;
}

static bool no_allocation(const char *world)
{
	bool ok = true;

	for (const struct call *c = calls; c->what != NULL; c++) {
		ok &= no_allocation_in(c->what, world, dirfd_under_test,
				       c->path, &c->how, c->size);
		unlinkat(dirfd_under_test, "created", 0);
	}
	/* The shapes the benchmark measures: 64 deep, ".." steps, links
	 * every other step, an absolute link under IN_ROOT. */
	for (int k = 0; k < RESOLVE_SHAPES; k++) {
		struct open_how how = { O_RDONLY, 0, resolve_shapes[k].resolve };

		ok &= no_allocation_in(resolve_shapes[k].name, world, shapes,
				       resolve_shapes[k].path, &how, sizeof how);
	}
	return ok;
}

/* In a child: seccomp filters cannot be removed. 0, 1, or 77. */
static int in_refused_world(int err)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		int setup = block_openat2(err);

		if (setup != 0) {
			printf("SKIP: cannot refuse openat2 with seccomp: %s\n",
			       strerror(setup));
			_exit(77);
		}
		_exit(no_allocation(strerrorname_np(err)) ? 0 : 1);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 1;
	return WEXITSTATUS(status);
}

static int worse(int a, int b)
{
	if (a == 1 || b == 1)
		return 1;
	return a > b ? a : b;
}

int main(void)
{
	char dir[] = "/tmp/openat2-alloc.XXXXXX", cmd[64];
	int fd, result;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (!counter_works()) {
		printf("the heap counter sees no calls: not interposed\n");
		return 99; /* before the directory: nothing to remove */
	}
	if (mkdtemp(dir) == NULL ||
	    (dirfd_under_test = open(dir, O_DIRECTORY | O_RDONLY)) < 0 ||
	    (fd = openat(dirfd_under_test, "file", O_CREAT | O_WRONLY, 0644)) < 0 ||
	    symlinkat("file", dirfd_under_test, "link") != 0 ||
	    (shapes = resolve_shapes_build(dirfd_under_test, "shapes")) < 0) {
		perror("setup");
		return 99;
	}
	close(fd);
	result = openat2_refusal() == 0 ? (no_allocation("allowed") ? 0 : 1) : 0;
	result = worse(result, in_refused_world(ENOSYS));
	result = worse(result, in_refused_world(EPERM));
	close(shapes);
	unlinkat(dirfd_under_test, "link", 0);
	unlinkat(dirfd_under_test, "file", 0);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		result = worse(result, 1);
	return result;
}
