#define _GNU_SOURCE
#include "resolve_shapes.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "execveat.h"

#define LEVELS (RESOLVE_SHAPES_DEEPEST - 1)
#define DOTDOT_ROUNDS 5 /* "d/x/../" five times and the file: 16 */
#define LINK_PAIRS 7	/* "s/d/" seven times, "s/f": 16, 8 of them links */

struct resolve_shape resolve_shapes[RESOLVE_SHAPES] = {
	{ "1 file", RESOLVE_BENEATH, "" },
	{ "16 directories", RESOLVE_BENEATH, "" },
	{ "64 directories", RESOLVE_BENEATH, "" },
	{ "16 with ..", RESOLVE_BENEATH, "" },
	{ "16, a symlink every other step", RESOLVE_BENEATH, "" },
	{ "IN_ROOT, absolute link first, 4", RESOLVE_IN_ROOT, "" },
};

/* steps times step, then "f". */
static void repeat(char *path, const char *step, int steps)
{
	size_t len = 0;

	for (int i = 0; i < steps; i++)
		len += (size_t)sprintf(path + len, "%s", step);
	sprintf(path + len, "f");
}

static void fill_paths(void)
{
	repeat(resolve_shapes[0].path, "", 0);
	repeat(resolve_shapes[1].path, "d/", 15);
	repeat(resolve_shapes[2].path, "d/", LEVELS);
	repeat(resolve_shapes[3].path, "d/x/../", DOTDOT_ROUNDS);
	repeat(resolve_shapes[4].path, "s/d/", LINK_PAIRS);
	repeat(resolve_shapes[4].path + 4 * LINK_PAIRS, "s/", 1);
	/* a -> /d, then two more levels: d/d/d/f from the root. */
	sprintf(resolve_shapes[5].path, "a/d/d/f");
}

/* One level: its file, its link to the next level, the next level. */
static int build_level(int dir, int level)
{
	int fd = openat(dir, "f", O_CREAT | O_WRONLY | O_CLOEXEC, 0644);

	if (fd < 0 || close(fd) < 0)
		return -1;
	if (level == LEVELS)
		return 0;
	if (mkdirat(dir, "d", 0755) < 0 || symlinkat("d", dir, "s") < 0)
		return -1;
	if (level >= 1 && level <= DOTDOT_ROUNDS &&
	    mkdirat(dir, "x", 0755) < 0)
		return -1;
	return 0;
}

int resolve_shapes_build(int parent, const char *name)
{
	int root, dir;

	if (mkdirat(parent, name, 0755) < 0 ||
	    (root = openat(parent, name, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -1;
	if (symlinkat("/d", root, "a") < 0 || (dir = dup(root)) < 0)
		goto fail;
	for (int level = 0;; level++) {
		int next;

		if (build_level(dir, level) < 0) {
			close(dir);
			goto fail;
		}
		if (level == LEVELS)
			break;
		next = openat(dir, "d", O_PATH | O_DIRECTORY | O_CLOEXEC);
		close(dir);
		if (next < 0)
			goto fail;
		dir = next;
	}
	close(dir);
	fill_paths();
	return root;
fail:
	{
		int err = errno;

		close(root);
		errno = err;
	}
	return -1;
}
