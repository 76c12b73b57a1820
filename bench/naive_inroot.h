/*
 * The benchmark's peer for the 2.0 operations (inroot.h): what a program
 * writes when it does not care where a path leads. The path is handed to
 * the kernel by name, relative to the working directory (the benchmark's
 * root), and the kernel resolves it unscoped: a symlink or a rename can
 * take it anywhere on the machine. Not an operation to use; the price of
 * the library's guarantees shows against it.
 */
#ifndef BENCH_NAIVE_INROOT_H
#define BENCH_NAIVE_INROOT_H

#include <sys/types.h>

/* mkdir -p: mkdir(2) of each prefix of path in turn, EEXIST taken as
 * found. 0, or -1 with errno set. */
int naive_mkdir_all(const char *path, mode_t mode);

/* rm -r: nftw(3), depth first, symlinks not followed, each entry removed
 * by name with unlinkat(2). 0, or -1 with errno set. */
int naive_remove_all(const char *path);

/* open(2) of path by name. */
int naive_open(const char *path, int flags);

#endif /* BENCH_NAIVE_INROOT_H */
