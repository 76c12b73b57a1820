/*
 * openat2() inside the library (src/openat2/), for the operations beneath
 * a root, which open through it, and its fallback's walk, which the tests
 * compare with the kernel's call.
 */
#ifndef EXECVEAT_OPENAT2_H
#define EXECVEAT_OPENAT2_H

#include <stddef.h>

/* struct open_how, as the public header has it. */
#include "execveat.h"

/* openat2() as the library answers it: the kernel's call, or where it is
 * refused, the walk's. An fd, or -errno. Called inside the library by
 * this name, which no preloaded or earlier openat2 can take the place
 * of. */
int libexecveat_openat2_policy(int dirfd, const char *path,
			       const struct open_how *how, size_t size);

/*
 * openat2 as its fallback answers it, checks and all, whether or not the
 * kernel has the call: for a caller that wants the walk's answer where
 * the kernel's was EAGAIN. An fd, or -errno.
 */
int libexecveat_open_without_openat2(int dirfd, const char *path,
				     const struct open_how *how, size_t size);

/*
 * The walk as openat2's fallback makes it once the arguments have passed
 * the kernel's checks (src/openat2/largefile.c): how's flags with those
 * the kernel's system call adds (O_LARGEFILE for a 32-bit process on a
 * 64-bit kernel). What the fallback answers, and so what the kernel's
 * openat2 is compared with. An fd, or -errno.
 */
int libexecveat_resolve_open_as_openat2(int dirfd, const char *path,
					const struct open_how *how);

#endif /* EXECVEAT_OPENAT2_H */
