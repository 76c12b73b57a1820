/*
 * inroot_statx, inroot_fstatx: statx(2) of a file beneath a root, and of
 * an fd (an O_PATH one too: statx takes "" with AT_EMPTY_PATH on any fd
 * since Linux 4.11, and that needs no /proc).
 *
 * Where statx itself is refused (ENOSYS or EPERM: a kernel before 4.11,
 * a seccomp policy that predates it), the answer of fstatat, which every
 * kernel has, in statx's shape: the basic fields, stx_mask saying so.
 */
#define _GNU_SOURCE /* O_PATH */
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "../call_refused.h"
#include "../exports.h"
#include "held_file.h"
#include "inroot.h"
#include "../syscalls/files.h"

#ifndef AT_NO_AUTOMOUNT
#define AT_NO_AUTOMOUNT 0x800
#endif
#define STATX_SYNC_FLAGS 0x6000 /* AT_STATX_FORCE_SYNC | _DONT_SYNC */
#define STATX_BASIC 0x7ffU      /* STATX_BASIC_STATS */

static void from_stat(const struct stat *st, struct sys_statx *stx)
{
	memset(stx, 0, sizeof *stx);
	stx->stx_mask = STATX_BASIC;
	stx->stx_blksize = (uint32_t)st->st_blksize;
	stx->stx_nlink = (uint32_t)st->st_nlink;
	stx->stx_uid = st->st_uid;
	stx->stx_gid = st->st_gid;
	stx->stx_mode = (uint16_t)st->st_mode;
	stx->stx_ino = st->st_ino;
	stx->stx_size = (uint64_t)st->st_size;
	stx->stx_blocks = (uint64_t)st->st_blocks;
	stx->stx_atime.tv_sec = st->st_atim.tv_sec;
	stx->stx_atime.tv_nsec = (uint32_t)st->st_atim.tv_nsec;
	stx->stx_mtime.tv_sec = st->st_mtim.tv_sec;
	stx->stx_mtime.tv_nsec = (uint32_t)st->st_mtim.tv_nsec;
	stx->stx_ctime.tv_sec = st->st_ctim.tv_sec;
	stx->stx_ctime.tv_nsec = (uint32_t)st->st_ctim.tv_nsec;
	stx->stx_rdev_major = major(st->st_rdev);
	stx->stx_rdev_minor = minor(st->st_rdev);
	stx->stx_dev_major = major(st->st_dev);
	stx->stx_dev_minor = minor(st->st_dev);
}

/* statx(dir, name, flags) into buf, which is the caller's struct statx
 * (the kernel's layout, which sys_statx has). */
static int stat_at(int dir, const char *name, int flags, unsigned int mask,
		   struct statx *buf)
{
	struct sys_statx stx;
	struct stat st;
	int r = sys_statx(dir, name, flags, mask, &stx);

	if (r < 0) {
		if (!may_be_refusal(r))
			return r;
		r = sys_fstatat(dir, name, &st,
				flags & (AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH));
		if (r < 0)
			return r;
		from_stat(&st, &stx);
	}
	memcpy(buf, &stx, sizeof stx);
	return 0;
}

EXECVEAT_EXPORT int inroot_statx(int root, const char *path, int flags,
				 unsigned int mask, struct statx *buf)
{
	struct held_parent p;
	int r;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT |
		      STATX_SYNC_FLAGS) ||
	    (flags & STATX_SYNC_FLAGS) == STATX_SYNC_FLAGS)
		return answer(-EINVAL);
	r = libexecveat_hold_file(root, path, !(flags & AT_SYMLINK_NOFOLLOW),
				  &p);
	if (r != 0)
		return answer(r);
	r = stat_at(p.fd, p.name, flags | AT_SYMLINK_NOFOLLOW, mask, buf);
	libexecveat_release_parent(&p);
	return answer(r);
}

EXECVEAT_EXPORT int inroot_fstatx(int fd, int flags, unsigned int mask,
				  struct statx *buf)
{
	if (flags & ~STATX_SYNC_FLAGS ||
	    (flags & STATX_SYNC_FLAGS) == STATX_SYNC_FLAGS)
		return answer(-EINVAL);
	return answer(stat_at(fd, "", flags | AT_EMPTY_PATH, mask, buf));
}
