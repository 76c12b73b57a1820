/*
 * openat2's resolution in userspace: the fallback where the system call
 * itself is refused. Internal to the library.
 */
#ifndef EXECVEAT_RESOLVE_H
#define EXECVEAT_RESOLVE_H

/* struct open_how and RESOLVE_*: the kernel's header where the system has
 * it (Debian 12 does), else the same definitions (C libraries without
 * kernel headers, such as Debian's musl-gcc). */
#if defined(__has_include)
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#define EXECVEAT_HAVE_LINUX_OPENAT2_H 1
#endif
#endif
#if !defined(EXECVEAT_HAVE_LINUX_OPENAT2_H) && !defined(EXECVEAT_OPEN_HOW_DEFINED)
#define EXECVEAT_OPEN_HOW_DEFINED 1
#include <stdint.h>
struct open_how {
	uint64_t flags;
	uint64_t mode;
	uint64_t resolve;
};
#define RESOLVE_NO_XDEV 0x01
#define RESOLVE_NO_MAGICLINKS 0x02
#define RESOLVE_NO_SYMLINKS 0x04
#define RESOLVE_BENEATH 0x08
#define RESOLVE_IN_ROOT 0x10
#define RESOLVE_CACHED 0x20
#endif

/*
 * Opens path relative to dirfd as openat2(dirfd, path, how, sizeof *how)
 * would, without openat2 and without /proc. how has passed the kernel's
 * argument checks already, and has no RESOLVE_CACHED. Returns the new fd,
 * or -1 with errno set.
 */
int libexecveat_resolve_open(int dirfd, const char *path,
			     const struct open_how *how);

#endif /* EXECVEAT_RESOLVE_H */
