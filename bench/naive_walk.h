/*
 * The benchmark's peer for openat2's fallback: the walk an emulation of
 * RESOLVE_BENEATH / RESOLVE_IN_ROOT makes when it ignores races, written
 * plainly and without waste, so that the fallback's price for its
 * guarantees shows against it. Not a resolver to use: the kernel answers
 * its "..", so a directory renamed out of the tree during the walk takes
 * it out too (the race the fallback exists to refuse).
 */
#ifndef BENCH_NAIVE_WALK_H
#define BENCH_NAIVE_WALK_H

#include "execveat.h"

/*
 * As openat2(dirfd, path, how, sizeof *how) with how->resolve one of 0,
 * RESOLVE_BENEATH, RESOLVE_IN_ROOT, and flags that open an existing file
 * (no O_PATH, O_CREAT or O_TMPFILE): EINVAL for the rest. An fd, or -1
 * with errno set.
 */
int naive_walk_open(int dirfd, const char *path, const struct open_how *how);

#endif /* BENCH_NAIVE_WALK_H */
