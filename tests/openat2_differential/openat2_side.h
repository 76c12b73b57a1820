/*
 * The side of the differential that is not the kernel: openat2's
 * fallback, called directly (the resolver), or through the library's
 * public openat2 where the system call is refused.
 */
#ifndef TESTS_OPENAT2_SIDE_H
#define TESTS_OPENAT2_SIDE_H

#include "resolve.h"

/* 0, or -1 having said why. */
int openat2_side_start(void);
void openat2_side_stop(void);

/* As openat2(dirfd, path, how, sizeof *how): an fd, or -1 and errno. */
int openat2_side(int dirfd, const char *path, const struct open_how *how);

#endif /* TESTS_OPENAT2_SIDE_H */
