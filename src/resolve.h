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
 * argument checks already. Returns the new fd, the lowest one free, or -1
 * with errno set.
 */
int libexecveat_resolve_open(int dirfd, const char *path,
			     const struct open_how *how);

/*
 * The walk as openat2's fallback makes it once the arguments have passed
 * the kernel's checks (src/openat2.c): how's flags with those the kernel's
 * system call adds (O_LARGEFILE for a 32-bit process on a 64-bit kernel,
 * src/largefile.c). What the fallback answers, and so what the kernel's
 * openat2 is compared with.
 */
int libexecveat_resolve_open_as_openat2(int dirfd, const char *path,
					const struct open_how *how);

/* openat2() itself (src/openat2.c), by its name inside the library,
 * which no preloaded or earlier openat2 can take the place of. */
int libexecveat_openat2(int dirfd, const char *path,
			const struct open_how *how, size_t size);

/*
 * openat2 as its fallback answers it, checks and all, whether or not the
 * kernel has the call (src/openat2.c): for a caller that wants the walk's
 * answer where the kernel's was EAGAIN. An fd, or -1 with errno set.
 */
int libexecveat_open_without_openat2(int dirfd, const char *path,
				     const struct open_how *how, size_t size);

#endif /* EXECVEAT_RESOLVE_H */
