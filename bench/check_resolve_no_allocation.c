/*
 * openat2's fallback (the resolver) allocates nothing, on every kind of
 * step and every way it fails: it runs where openat does, in signal
 * handlers and vfork children.
 *
 *   check-resolve-no-allocation
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
#include <sys/stat.h>
#include <unistd.h>

#include "heap_counter.h"
#include "resolve/resolve.h"
#include "resolve_shapes.h"

#define B RESOLVE_BENEATH
#define R RESOLVE_IN_ROOT
#define DEEP 40 /* deeper than the fds the walk keeps */

static char deep[5 * DEEP + 16];

struct call {
	const char *what;
	int dirfd; /* 0: the tree */
	const char *path;
	struct open_how how;
};

/* One call, its heap calls counted and reported. */
static bool no_allocation(const char *what, int dirfd, const char *path,
			  const struct open_how *how)
{
	unsigned long before = heap_calls;
	int fd = libexecveat_resolve_open(dirfd, path, how);
	int err = fd < 0 ? -fd : 0;
	unsigned long heap = heap_calls - before;

	if (fd >= 0)
		close(fd);
	printf("%s %s: %s, %lu heap call(s)\n", heap == 0 ? "ok" : "not ok",
	       what, err ? strerrorname_np(err) : "an fd", heap);
	return heap == 0;
}

static bool counter_works(void)
{
	unsigned long before = heap_calls;
	/* volatile: compilers delete an allocation that is freed unused. */
	char *volatile copy = strdup("x");

	free(copy);
	return heap_calls - before >= 2;
}

int main(void)
{
	char dir[] = "/tmp/resolve-alloc.XXXXXX";
	int tree, shapes, d, proc_self = open("/proc/self", O_PATH | O_CLOEXEC);
	bool ok = true;
	size_t len = 0;

	setvbuf(stdout, NULL, _IONBF, 0);
	/* Before the tree is made: nothing to leave behind. */
	if (!counter_works()) {
		printf("the heap counter sees nothing: cannot check\n");
		return 1;
	}
	if (mkdtemp(dir) == NULL ||
	    (tree = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0 ||
	    close(openat(tree, "file", O_CREAT | O_WRONLY, 0644)) != 0 ||
	    symlinkat("file", tree, "link") != 0 ||
	    symlinkat("/file", tree, "abs") != 0 ||
	    symlinkat("new", tree, "dangling") != 0 ||
	    symlinkat("loop", tree, "loop") != 0 ||
	    (shapes = resolve_shapes_build(tree, "shapes")) < 0) {
		perror("setup");
		return 99;
	}
	d = dup(tree);
	for (int i = 0; i < DEEP; i++) {
		int next;

		if (mkdirat(d, "d", 0755) != 0 ||
		    (next = openat(d, "d", O_PATH | O_DIRECTORY)) < 0) {
			perror("setup deep");
			return 99;
		}
		close(d);
		d = next;
		len += (size_t)sprintf(deep + len, "d/");
	}
	close(d);
	for (int i = 0; i < DEEP; i++)
		len += (size_t)sprintf(deep + len, "../");
	sprintf(deep + len, "file");

	const struct call calls[] = {
		{ "a name", 0, "file", { O_RDONLY, 0, B } },
		{ "a link", 0, "link", { O_RDONLY, 0, B } },
		{ "an absolute link, in root", 0, "abs", { O_RDONLY, 0, R } },
		{ "an absolute link, beneath", 0, "abs", { O_RDONLY, 0, B } },
		{ "'..' at the root", 0, "../file", { O_RDONLY, 0, R } },
		{ "'..' above the root", 0, "../file", { O_RDONLY, 0, B } },
		{ "down 40 and up again", 0, deep, { O_RDONLY, 0, B } },
		{ "a loop", 0, "loop", { O_RDONLY, 0, B } },
		{ "a creation through a link", 0, "dangling",
		  { O_CREAT | O_WRONLY, 0600, B } },
		{ "O_TMPFILE", 0, ".", { O_TMPFILE | O_RDWR, 0600, B } },
		{ "O_PATH, followed", 0, "link", { O_PATH, 0, B } },
		{ "a trailing slash on a file", 0, "file/", { O_RDONLY, 0, B } },
		{ "NO_SYMLINKS", 0, "link", { O_RDONLY, 0, RESOLVE_NO_SYMLINKS } },
		{ "a magic link refused", AT_FDCWD, "/proc/self/fd/0",
		  { O_RDONLY, 0, RESOLVE_NO_MAGICLINKS } },
		{ "a magic link followed, into another mount", -2, "cwd",
		  { O_PATH, 0, RESOLVE_NO_XDEV } },
		{ "a mount crossed, NO_XDEV", AT_FDCWD, "/proc/self",
		  { O_PATH, 0, RESOLVE_NO_XDEV } },
		{ "a bad dirfd", -1, "file", { O_RDONLY, 0, B } },
		{ NULL, 0, NULL, { 0, 0, 0 } },
	};

	for (const struct call *c = calls; c->what != NULL; c++) {
		ok &= no_allocation(c->what,
				    c->dirfd == 0    ? tree :
				    c->dirfd == -2 ? proc_self :
						     c->dirfd,
				    c->path, &c->how);
		unlinkat(tree, "new", 0);
	}
	/* The shapes the benchmark measures: 64 deep, ".." steps, links
	 * every other step, an absolute link under IN_ROOT. */
	for (int k = 0; k < RESOLVE_SHAPES; k++) {
		struct open_how how = { O_RDONLY, 0, resolve_shapes[k].resolve };

		ok &= no_allocation(resolve_shapes[k].name, shapes,
				    resolve_shapes[k].path, &how);
	}
	char cmd[64];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		ok = false;
	return ok ? 0 : 1;
}
