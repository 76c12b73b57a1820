/*
 * openat2's resolution in userspace: the fallback where the system call
 * itself is refused. Internal to the library; src/resolve/ holds it, the
 * walk and its parts (src/resolve/resolve.c has the map).
 */
#ifndef EXECVEAT_RESOLVE_RESOLVE_H
#define EXECVEAT_RESOLVE_RESOLVE_H

/* struct open_how and the RESOLVE_ flags, as the public header has them. */
#include "execveat.h"

/*
 * Opens path relative to dirfd as openat2(dirfd, path, how, sizeof *how)
 * would, without openat2 and without /proc. how has passed the kernel's
 * argument checks already. Returns the new fd, the lowest one free, or
 * -errno.
 */
int libexecveat_resolve_open(int dirfd, const char *path,
			     const struct open_how *how);

#endif /* EXECVEAT_RESOLVE_RESOLVE_H */
