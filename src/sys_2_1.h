/*
 * The raw system calls of 2.1's metadata, mount and device operations
 * beneath a root (src/inroot/): the *xattrat calls (Linux 6.13), the
 * mount API (open_tree, move_mount, fsopen, fsconfig, fsmount: 5.2;
 * mount_setattr: 5.12) and the old calls beside them.
 *
 * The numbers from 424 on are one table on every ABI (x32 with its bit),
 * so headers older than a call get its number here; the kernel headers'
 * own number, where they have one, must agree (checked at build time).
 * Arguments are cast to long as in sys.h.
 */
#ifndef EXECVEAT_SYS_2_1_H
#define EXECVEAT_SYS_2_1_H

#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>

#include "sys.h"

#if defined(__x86_64__) && defined(__ILP32__)
#define NR_UNIFIED(n) (0x40000000 + (n))
#else
#define NR_UNIFIED(n) (n)
#endif

#define OPEN_TREE_NR NR_UNIFIED(428)
#define MOVE_MOUNT_NR NR_UNIFIED(429)
#define FSOPEN_NR NR_UNIFIED(430)
#define FSCONFIG_NR NR_UNIFIED(431)
#define FSMOUNT_NR NR_UNIFIED(432)
#define MOUNT_SETATTR_NR NR_UNIFIED(442)
#define SETXATTRAT_NR NR_UNIFIED(463)
#define GETXATTRAT_NR NR_UNIFIED(464)
#define LISTXATTRAT_NR NR_UNIFIED(465)
#define REMOVEXATTRAT_NR NR_UNIFIED(466)

#ifdef SYS_open_tree
_Static_assert(SYS_open_tree == OPEN_TREE_NR, "open_tree's number");
#endif
#ifdef SYS_move_mount
_Static_assert(SYS_move_mount == MOVE_MOUNT_NR, "move_mount's number");
#endif
#ifdef SYS_fsmount
_Static_assert(SYS_fsmount == FSMOUNT_NR, "fsmount's number");
#endif
#ifdef SYS_mount_setattr
_Static_assert(SYS_mount_setattr == MOUNT_SETATTR_NR, "mount_setattr's");
#endif
#ifdef SYS_getxattrat
_Static_assert(SYS_getxattrat == GETXATTRAT_NR, "getxattrat's number");
#endif

/* <linux/mount.h>, which glibc's <sys/mount.h> cannot be included with. */
#define SYS_OPEN_TREE_CLONE 1U
#define SYS_MOVE_MOUNT_F_EMPTY_PATH 0x04U
#define SYS_MOVE_MOUNT_T_EMPTY_PATH 0x40U
#define SYS_FSOPEN_CLOEXEC 1U
#define SYS_FSMOUNT_CLOEXEC 1U
#define SYS_FSCONFIG_SET_STRING 1U
#define SYS_FSCONFIG_CMD_CREATE 6U
#define SYS_MOUNT_ATTR_RDONLY 0x1ULL
#define SYS_MOUNT_ATTR_NOSUID 0x2ULL
#define SYS_MOUNT_ATTR_NODEV 0x4ULL
#define SYS_MOUNT_ATTR_NOEXEC 0x8ULL
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif

struct sys_mount_attr {
	uint64_t attr_set;
	uint64_t attr_clr;
	uint64_t propagation;
	uint64_t userns_fd;
};

/* <linux/xattr.h>'s struct xattr_args (Linux 6.13). */
struct sys_xattr_args {
	uint64_t value;
	uint32_t size;
	uint32_t flags;
};

static inline int sys_open_tree(int dirfd, const char *path,
				unsigned int flags)
{
	return (int)syscall(OPEN_TREE_NR, (long)dirfd, SYS_ARG_PTR(path),
			    (long)flags);
}

static inline int sys_move_mount_fds(int from, int to)
{
	return (int)syscall(MOVE_MOUNT_NR, (long)from, SYS_ARG_PTR(""),
			    (long)to, SYS_ARG_PTR(""),
			    (long)(SYS_MOVE_MOUNT_F_EMPTY_PATH |
				   SYS_MOVE_MOUNT_T_EMPTY_PATH));
}

static inline int sys_mount_setattr(int fd, const char *path, int flags,
				    const struct sys_mount_attr *attr)
{
	return (int)syscall(MOUNT_SETATTR_NR, (long)fd, SYS_ARG_PTR(path),
			    (long)flags, SYS_ARG_PTR(attr),
			    (long)sizeof(*attr));
}

static inline int sys_fsopen(const char *fstype, unsigned int flags)
{
	return (int)syscall(FSOPEN_NR, SYS_ARG_PTR(fstype), (long)flags);
}

static inline int sys_fsconfig(int fs, unsigned int cmd, const char *key,
			       const char *value)
{
	return (int)syscall(FSCONFIG_NR, (long)fs, (long)cmd, SYS_ARG_PTR(key),
			    SYS_ARG_PTR(value), 0L);
}

static inline int sys_fsmount(int fs, unsigned int flags,
			      unsigned long long attrs)
{
	return (int)syscall(FSMOUNT_NR, (long)fs, (long)flags, (long)attrs);
}

/* mount(2): the old API, every name looked up from the working
 * directory. */
static inline int sys_mount(const char *source, const char *target,
			    const char *fstype, unsigned long flags,
			    const char *data)
{
	return (int)syscall(SYS_mount, SYS_ARG_PTR(source), SYS_ARG_PTR(target),
			    SYS_ARG_PTR(fstype), (long)flags, SYS_ARG_PTR(data));
}

static inline int sys_fchdir(int fd)
{
	return (int)syscall(SYS_fchdir, (long)fd);
}

/* fchownat takes 32-bit ids on every ABI (it came after chown32). */
static inline int sys_fchownat(int dirfd, const char *path, uid_t uid,
			       gid_t gid, int flags)
{
	return (int)syscall(SYS_fchownat, (long)dirfd, SYS_ARG_PTR(path),
			    (long)uid, (long)gid, (long)flags);
}

/* utimensat with the C library's struct timespec: on 32-bit ABIs built
 * without _TIME_BITS=64 (sys.h) that is the kernel's old timespec, which
 * utimensat (not utimensat_time64) takes. */
static inline int sys_utimensat(int dirfd, const char *path,
				const struct timespec ts[2], int flags)
{
	return (int)syscall(SYS_utimensat, (long)dirfd, SYS_ARG_PTR(path),
			    SYS_ARG_PTR(ts), (long)flags);
}

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
	return syscall(GETXATTRAT_NR, (long)dirfd, SYS_ARG_PTR(path),
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
	return (int)syscall(SETXATTRAT_NR, (long)dirfd, SYS_ARG_PTR(path),
			    (long)flags, SYS_ARG_PTR(name), SYS_ARG_PTR(&args),
			    (long)sizeof args);
}

static inline long sys_listxattrat(int dirfd, const char *path, int flags,
				   char *list, size_t size)
{
	return syscall(LISTXATTRAT_NR, (long)dirfd, SYS_ARG_PTR(path),
		       (long)flags, SYS_ARG_PTR(list), (long)size);
}

static inline int sys_removexattrat(int dirfd, const char *path, int flags,
				    const char *name)
{
	return (int)syscall(REMOVEXATTRAT_NR, (long)dirfd, SYS_ARG_PTR(path),
			    (long)flags, SYS_ARG_PTR(name));
}

/* The fd forms, for an fd open to read or write (EBADF on O_PATH). */
static inline long sys_fgetxattr(int fd, const char *name, void *value,
				 size_t size)
{
	return syscall(SYS_fgetxattr, (long)fd, SYS_ARG_PTR(name),
		       SYS_ARG_PTR(value), (long)size);
}

static inline int sys_fsetxattr(int fd, const char *name, const void *value,
				size_t size, int flags)
{
	return (int)syscall(SYS_fsetxattr, (long)fd, SYS_ARG_PTR(name),
			    SYS_ARG_PTR(value), (long)size, (long)flags);
}

static inline long sys_flistxattr(int fd, char *list, size_t size)
{
	return syscall(SYS_flistxattr, (long)fd, SYS_ARG_PTR(list), (long)size);
}

static inline int sys_fremovexattr(int fd, const char *name)
{
	return (int)syscall(SYS_fremovexattr, (long)fd, SYS_ARG_PTR(name));
}

#endif /* EXECVEAT_SYS_2_1_H */
