/*
 * openat2's resolution in userspace: the fallback where the system call
 * itself is refused. Internal to the library; src/resolve/ holds it, the
 * walk and its parts (src/resolve/walk.c has the map).
 */
#ifndef EXECVEAT_RESOLVE_H
#define EXECVEAT_RESOLVE_H

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

/* openat2() as the library answers it (src/openat2.c): the kernel's
 * call, or where it is refused, the walk's. An fd, or -errno. Called
 * inside the library by this name, which no preloaded or earlier openat2
 * can take the place of. */
int libexecveat_openat2_policy(int dirfd, const char *path,
			       const struct open_how *how, size_t size);

/*
 * openat2 as its fallback answers it, checks and all, whether or not the
 * kernel has the call (src/openat2.c): for a caller that wants the walk's
 * answer where the kernel's was EAGAIN. An fd, or -errno.
 */
int libexecveat_open_without_openat2(int dirfd, const char *path,
				     const struct open_how *how, size_t size);

#endif /* EXECVEAT_RESOLVE_H */
