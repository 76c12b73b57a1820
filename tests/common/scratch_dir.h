/*
 * A scratch directory for one test program, under /tmp: searchable by
 * every user (the tests that switch to a second uid walk into it), and
 * removed with all it holds at the end.
 */
#ifndef TESTS_SCRATCH_DIR_H
#define TESTS_SCRATCH_DIR_H

/* Makes the directory from a mkdtemp template (changed in place) and
 * returns an O_PATH fd of it, or -1. */
int scratch_dir_make(char *template);

/* Closes fd and removes the directory and what it holds: 0, or -1. */
int scratch_dir_remove(const char *path, int fd);

#endif /* TESTS_SCRATCH_DIR_H */
