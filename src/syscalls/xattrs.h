/*
 * The raw system calls on extended attributes (call.h says how they
 * answer): the *xattrat calls (Linux 6.13), on a name in a directory or,
 * with "" and AT_EMPTY_PATH, on an fd; and the f* calls, on an fd open to
 * read or write (EBADF on O_PATH), which every kernel has.
 */
#ifndef EXECVEAT_SYSCALLS_XATTRS_H
#define EXECVEAT_SYSCALLS_XATTRS_H

#include <stddef.h>
#include <stdint.h>

#include "call.h"

/* <linux/xattr.h>'s struct xattr_args (Linux 6.13). */
struct sys_xattr_args {
	uint64_t value;
	uint32_t size;
	uint32_t flags;
};

static inline long sys_getxattrat(int dirfd, const char *path, int flags,
				  const char *name, void *value, size_t size)
{
	struct sys_xattr_args args = {
		.value = (uint64_t)(uintptr_t)value,
		.size = (uint32_t)size,
	};

	/* The kernel takes 32 bits of size; more is its own E2BIG. */
	if ((size_t)args.size != size)
		args.size = UINT32_MAX;
	return sys_call(GETXATTRAT_NR, (long)dirfd, SYS_ARG_PTR(path),
			(long)flags, SYS_ARG_PTR(name), SYS_ARG_PTR(&args),
			(long)sizeof args);
}

static inline int sys_setxattrat(int dirfd, const char *path, int flags,
				 const char *name, const void *value,
				 size_t size, int xattr_flags)
{
	struct sys_xattr_args args = {
		.value = (uint64_t)(uintptr_t)value,
		.size = (uint32_t)size,
		.flags = (uint32_t)xattr_flags,
	};

	if ((size_t)args.size != size)
		args.size = UINT32_MAX;
	return (int)sys_call(SETXATTRAT_NR, (long)dirfd, SYS_ARG_PTR(path),
			     (long)flags, SYS_ARG_PTR(name), SYS_ARG_PTR(&args),
			     (long)sizeof args);
}

static inline long sys_listxattrat(int dirfd, const char *path, int flags,
				   char *list, size_t size)
{
	return sys_call(LISTXATTRAT_NR, (long)dirfd, SYS_ARG_PTR(path),
			(long)flags, SYS_ARG_PTR(list), (long)size, 0L);
}

static inline int sys_removexattrat(int dirfd, const char *path, int flags,
				    const char *name)
{
	return (int)sys_call(REMOVEXATTRAT_NR, (long)dirfd, SYS_ARG_PTR(path),
			     (long)flags, SYS_ARG_PTR(name), 0L, 0L);
}

static inline long sys_fgetxattr(int fd, const char *name, void *value,
				 size_t size)
{
	return sys_call(SYS_fgetxattr, (long)fd, SYS_ARG_PTR(name),
			SYS_ARG_PTR(value), (long)size, 0L, 0L);
}

static inline int sys_fsetxattr(int fd, const char *name, const void *value,
				size_t size, int flags)
{
	return (int)sys_call(SYS_fsetxattr, (long)fd, SYS_ARG_PTR(name),
			     SYS_ARG_PTR(value), (long)size, (long)flags, 0L);
}

static inline long sys_flistxattr(int fd, char *list, size_t size)
{
	return sys_call(SYS_flistxattr, (long)fd, SYS_ARG_PTR(list),
			(long)size, 0L, 0L, 0L);
}

static inline int sys_fremovexattr(int fd, const char *name)
{
	return (int)sys_call(SYS_fremovexattr, (long)fd, SYS_ARG_PTR(name), 0L,
			     0L, 0L, 0L);
}

#endif /* EXECVEAT_SYSCALLS_XATTRS_H */
