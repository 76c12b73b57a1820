/*
 * 2.1's operations of include/inroot.h (metadata, checked nodes,
 * mounts), asked of both sides as library_side.h and kernel_side.h ask
 * 2.0's: the library beneath a root fd, the kernel's own call in a
 * process chrooted to the same tree. The values they set are fixed
 * here, so that both sides set the same. Needs a C library with struct
 * statx (glibc 2.28).
 */
#ifndef TESTS_INROOT_METADATA_SIDES_H
#define TESTS_INROOT_METADATA_SIDES_H

#include "inroot_call.h"

#define CALL_UID 1234
#define CALL_GID 4321
#define CALL_ATIME 1000 /* and mtime 2000 */
#define CALL_XATTR_VALUE "q"

/* statx's buffer is c->buf (c->size bytes, a struct statx); getxattr's
 * and listxattr's value too. An fd, 0, a length, or -1 with errno. */
long library_side_call_2_1(int root, const struct inroot_call *c);
long kernel_side_call_2_1(const struct inroot_call *c);

/* The machine's /dev/null, held for the kernel's side of a mask over a
 * file (a chrooted process cannot name it): before the chroot. 0, or -1
 * with errno. */
int kernel_side_hold_dev_null(void);

/* The held /dev/null cloned as a detached mount, for a mask asked in a
 * mount namespace of its own: before that namespace is made (a mount
 * of another namespace cannot be cloned there; a detached one can be
 * attached). */
void kernel_side_clone_dev_null(void);

#endif /* TESTS_INROOT_METADATA_SIDES_H */
