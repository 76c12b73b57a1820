/*
 * The differential's fallback side (the kernel's is openat2_oracle.h's):
 * the resolver called directly, or the library's public openat2 in a
 * process whose openat2 is refused.
 */
#ifndef TESTS_OPENAT2_SIDE_H
#define TESTS_OPENAT2_SIDE_H

#include "execveat.h"

/* From OPENAT2_DIFFERENTIAL_SIDE: "openat2" (the default) or "resolver".
 * For "openat2", refuses openat2 (ENOSYS) to this process but for the
 * kernel side's calls. 0, or -1 having said why. */
int openat2_side_start(void);
const char *openat2_side_name(void);

/* As openat2(dirfd, path, how, sizeof *how): an fd, or -1 and errno. */
int openat2_side(int dirfd, const char *path, const struct open_how *how);

#endif /* TESTS_OPENAT2_SIDE_H */
