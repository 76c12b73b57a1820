/*
 * The kernel's side of a call, the judge of the library's: the kernel's
 * own system call for the operation, made in a process whose root (a
 * chroot) and working directory are the tree's, so that the kernel
 * resolves the path beneath the same root as the library. mkdir_all and
 * remove_all have no system call: they are made of the kernel's calls as
 * `mkdir -p` and `rm -rf` make them, with the semantics that
 * include/inroot.h and inroot(3) give them.
 */
#ifndef TESTS_INROOT_KERNEL_SIDE_H
#define TESTS_INROOT_KERNEL_SIDE_H

#include <sys/types.h>

#include "inroot_call.h"

/* What the call returned: an fd, 0, or readlink's length (readlink(2)
 * truncates to size silently; the caller makes the header's answer of
 * it); -1 with errno. OP_REOPEN opens the file the path names. */
long kernel_side_call(const struct inroot_call *c);

/* mkdir -p: an O_PATH|O_DIRECTORY fd of path, or -1 with errno. */
int kernel_mkdir_all(const char *path, mode_t mode);

/* rm -rf, the last name never followed: 0, or -1 with errno. */
int kernel_remove_all(const char *path);

#endif /* TESTS_INROOT_KERNEL_SIDE_H */
