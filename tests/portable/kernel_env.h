/*
 * No /proc, a fake /proc, execveat refused: the environments the library
 * exists for, made with system calls alone, so that they work with any C
 * library (musl has no libseccomp and ships no kernel headers). Each
 * returns 0 or an errno; call them in a forked child.
 */
#ifndef TESTS_PORTABLE_KERNEL_ENV_H
#define TESTS_PORTABLE_KERNEL_ENV_H

#include "proc_mounts.h"

/* Makes every execveat fail with err: a seccomp filter, unless execveat
 * is refused with err here already. */
int block_execveat(int err);

#endif /* TESTS_PORTABLE_KERNEL_ENV_H */
