/*
 * The path shapes openat2's fallback is measured on: by depth (1, 16, 64
 * components), with ".." steps, with a symlink every other step, and
 * under RESOLVE_IN_ROOT behind an absolute symlink. The benchmark times
 * them, count-resolve-syscalls.sh holds each to its system-call limit,
 * and the no-allocation checks walk them.
 */
#ifndef BENCH_RESOLVE_SHAPES_H
#define BENCH_RESOLVE_SHAPES_H

#include <stdint.h>

/* The deepest shape's components: 63 directories and the file. */
#define RESOLVE_SHAPES_DEEPEST 64

struct resolve_shape {
	const char *name; /* as the count script's table names it; no ':' */
	uint64_t resolve;
	char path[3 * RESOLVE_SHAPES_DEEPEST];
};

#define RESOLVE_SHAPES 6
extern struct resolve_shape resolve_shapes[RESOLVE_SHAPES];

/*
 * Makes the tree the shapes walk, as the directory name in parent, and
 * fills in the shapes' paths: returns an O_PATH fd of that directory (the
 * dirfd every shape is relative to), or -1 with errno set.
 *
 *   d/d/.../d    63 directories, one in the other; in the top directory
 *                and in each d a file f, beside each d a symlink s -> d,
 *                and in the first five d's a directory x
 *   a -> /d      an absolute symlink (under RESOLVE_IN_ROOT: the top d)
 */
int resolve_shapes_build(int parent, const char *name);

#endif /* BENCH_RESOLVE_SHAPES_H */
