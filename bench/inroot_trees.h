/*
 * The trees inroot-cost works on, beneath its root (the working
 * directory): a file 16 directories deep for open, 16-deep chains of
 * directories for mkdir_all, and a tree of 1,000 entries for
 * remove_all. Built and taken down by name, untimed.
 */
#ifndef BENCH_INROOT_TREES_H
#define BENCH_INROOT_TREES_H

#include <stddef.h>

#define TREE_DEPTH 16
#define TREE_DIRS 10
#define TREE_FILES_PER_DIR 99
/* TREE_DIRS + TREE_DIRS * TREE_FILES_PER_DIR entries beneath its top. */
#define TREE_ENTRIES (TREE_DIRS * (1 + TREE_FILES_PER_DIR))

/* The file open opens: 16 directories, then the file. */
extern const char deep_file_path[];

/* The file and its directories; 0, or -1 with errno set. */
int build_deep_file(void);

/* The path of the i-th chain mkdir_all makes: TREE_DEPTH directories,
 * none of them there before. */
void mkdir_chain_path(int i, char *buf, size_t size);

/* The i-th chain, removed from its deepest directory up; 0, or -1 with
 * errno set. */
int remove_mkdir_chain(int i);

/* A directory top and TREE_ENTRIES entries beneath: TREE_DIRS
 * directories of TREE_FILES_PER_DIR empty files each. 0, or -1 with
 * errno set. */
int build_removal_tree(const char *top);

#endif /* BENCH_INROOT_TREES_H */
