/*
 * No /proc, a fake /proc, execveat refused: the environments the library
 * exists for, made with system calls alone, so that they work with any C
 * library (musl has no libseccomp and ships no kernel headers). Each
 * returns 0 or an errno; call them in a forked child.
 */
#ifndef TESTS_PORTABLE_KERNEL_ENV_H
#define TESTS_PORTABLE_KERNEL_ENV_H

#include <stdbool.h>
#include <stddef.h>

#include "execveat_refusal.h"
#include "proc_mounts.h"

/* The same for openat2 (Linux 5.6, number 437 on every ABI; x32 with its
 * bit), which the C library may have no number or wrapper for. The filter
 * is the calling thread's (and its later children's) only. */
int block_openat2(int err);

/* 0 where openat2 is there; else the errno every call gets (ENOSYS under
 * qemu-user 7.2 and kernels before 5.6). Asked with size 0, which a
 * kernel that has the call rejects (EINVAL) before looking at anything. */
int openat2_refusal(void);

/* close_range (Linux 5.9: 436 on every ABI) and fchmodat2 (Linux 6.6:
 * 452), which older C libraries and kernel headers do not name: the raw
 * calls, their refusals (0 where they are there), and filters that make
 * them fail with err, as block_openat2 does for openat2. */
long raw_close_range(unsigned int first, unsigned int last, unsigned int flags);
long raw_fchmodat2(int dirfd, const char *path, unsigned int mode, int flags);
int close_range_refusal(void);
int fchmodat2_refusal(void);
int block_close_range(int err);
int block_fchmodat2(int err);

/* Whether openat(fd, "", O_EMPTYPATH) opens an O_PATH fd's own file
 * (Linux 7.2); kernels before answer the empty name ENOENT. */
bool kernel_reopens_empty_path(void);

/* The running kernel's version as major * 100 + minor (uname), for
 * answers that changed between kernels. */
int kernel_version(void);

#endif /* TESTS_PORTABLE_KERNEL_ENV_H */
