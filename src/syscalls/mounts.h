/*
 * The raw system calls that make mounts (call.h says how they answer):
 * the new mount API (open_tree, move_mount, fsopen, fsconfig, fsmount:
 * Linux 5.2; mount_setattr: 5.12), which acts on fds; and the old
 * mount(2), whose names are looked up from the working directory, with
 * fchdir, which moves it there.
 */
#ifndef EXECVEAT_SYSCALLS_MOUNTS_H
#define EXECVEAT_SYSCALLS_MOUNTS_H

#include <stdint.h>

#include "call.h"

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

static inline int sys_open_tree(int dirfd, const char *path,
				unsigned int flags)
{
	return (int)sys_call(OPEN_TREE_NR, (long)dirfd, SYS_ARG_PTR(path),
			     (long)flags, 0L, 0L, 0L);
}

/* move_mount(from, "", to, "", both paths empty): the tree of from onto
 * the file of to, no name looked up. */
static inline int sys_move_mount_fds(int from, int to)
{
	return (int)sys_call(MOVE_MOUNT_NR, (long)from, SYS_ARG_PTR(""),
			     (long)to, SYS_ARG_PTR(""),
			     (long)(SYS_MOVE_MOUNT_F_EMPTY_PATH |
				    SYS_MOVE_MOUNT_T_EMPTY_PATH),
			     0L);
}

static inline int sys_mount_setattr(int fd, const char *path, int flags,
				    const struct sys_mount_attr *attr)
{
	return (int)sys_call(MOUNT_SETATTR_NR, (long)fd, SYS_ARG_PTR(path),
			     (long)flags, SYS_ARG_PTR(attr),
			     (long)sizeof(*attr), 0L);
}

static inline int sys_fsopen(const char *fstype, unsigned int flags)
{
	return (int)sys_call(FSOPEN_NR, SYS_ARG_PTR(fstype), (long)flags, 0L,
			     0L, 0L, 0L);
}

static inline int sys_fsconfig(int fs, unsigned int cmd, const char *key,
			       const char *value)
{
	return (int)sys_call(FSCONFIG_NR, (long)fs, (long)cmd, SYS_ARG_PTR(key),
			     SYS_ARG_PTR(value), 0L, 0L);
}

static inline int sys_fsmount(int fs, unsigned int flags,
			      unsigned long long attrs)
{
	return (int)sys_call(FSMOUNT_NR, (long)fs, (long)flags, (long)attrs,
			     0L, 0L, 0L);
}

/* mount(2): the old API, every name looked up from the working
 * directory. */
static inline int sys_mount(const char *source, const char *target,
			    const char *fstype, unsigned long flags,
			    const char *data)
{
	return (int)sys_call(SYS_mount, SYS_ARG_PTR(source),
			     SYS_ARG_PTR(target), SYS_ARG_PTR(fstype),
			     (long)flags, SYS_ARG_PTR(data), 0L);
}

static inline int sys_fchdir(int fd)
{
	return (int)sys_call(SYS_fchdir, (long)fd, 0L, 0L, 0L, 0L, 0L);
}

#endif /* EXECVEAT_SYSCALLS_MOUNTS_H */
