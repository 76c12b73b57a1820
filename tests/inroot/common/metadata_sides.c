#define _GNU_SOURCE
#include "metadata_sides.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/types.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "inroot.h"
#include "openat2_nr.h"

/* fchmodat2 (Linux 6.6), which C libraries older than it do not name. */
#define FCHMODAT2_NR (OPENAT2_NR - 437 + 452)

#define NOFOLLOW(c) ((c)->flags & AT_SYMLINK_NOFOLLOW)

static const struct timespec call_times[2] = { { CALL_ATIME, 0 },
					       { 2 * CALL_ATIME, 0 } };

/* ---- the library ---- */

/* op's fd form on the fd inroot_resolve gives, which is closed. */
static long on_resolved(int root, const struct inroot_call *c)
{
	int fd = inroot_resolve(root, c->path), err;
	long r;

	if (fd < 0)
		return -1;
	switch (c->op) {
	case OP_FSTATX:
		r = inroot_fstatx(fd, 0, STATX_BASIC_STATS,
				  (struct statx *)c->buf);
		break;
	case OP_FCHMOD:
		r = inroot_fchmod(fd, c->mode);
		break;
	case OP_FCHOWN:
		r = inroot_fchown(fd, CALL_UID, CALL_GID);
		break;
	case OP_FUTIMENS:
		r = inroot_futimens(fd, call_times);
		break;
	default:
		r = inroot_fsetxattr(fd, c->other, CALL_XATTR_VALUE,
				     sizeof CALL_XATTR_VALUE - 1, 0);
		break;
	}
	err = errno;
	close(fd);
	errno = err;
	return r;
}

long library_side_call_2_1(int root, const struct inroot_call *c)
{
	switch (c->op) {
	case OP_STATX:
		return inroot_statx(root, c->path, c->flags, STATX_BASIC_STATS,
				    (struct statx *)c->buf);
	case OP_CHMOD:
		return inroot_chmod(root, c->path, c->mode, c->flags);
	case OP_CHOWN:
		return inroot_chown(root, c->path, CALL_UID, CALL_GID,
				    c->flags);
	case OP_UTIMENS:
		return inroot_utimens(root, c->path, call_times, c->flags);
	case OP_GETXATTR:
		return inroot_getxattr(root, c->path, c->other, c->buf,
				       c->size, c->flags);
	case OP_SETXATTR:
		return inroot_setxattr(root, c->path, c->other,
				       CALL_XATTR_VALUE,
				       sizeof CALL_XATTR_VALUE - 1, 0,
				       c->flags);
	case OP_LISTXATTR:
		return inroot_listxattr(root, c->path, c->buf, c->size,
					c->flags);
	case OP_REMOVEXATTR:
		return inroot_removexattr(root, c->path, c->other, c->flags);
	case OP_FSTATX:
	case OP_FCHMOD:
	case OP_FCHOWN:
	case OP_FUTIMENS:
	case OP_FSETXATTR:
		return on_resolved(root, c);
	case OP_MKNOD_CHECKED:
		return inroot_mknod_checked(root, c->path, c->mode, 0);
	case OP_BIND:
		/* The source beneath the root's fd: a directory of the
		 * tree, which no link leads to. */
		return inroot_bind(root, c->other, root, c->path, 0);
	case OP_MASK:
		return inroot_mask(root, c->path);
	case OP_REMOUNT_RDONLY:
		return inroot_remount_rdonly(root, c->path, 0);
	default:
		break;
	}
	errno = EINVAL;
	return -1;
}

/* ---- the kernel ---- */

static int dev_null = -1, dev_null_tree = -1;

int kernel_side_hold_dev_null(void)
{
	dev_null = open("/dev/null", O_PATH | O_CLOEXEC);
	return dev_null < 0 ? -1 : 0;
}

void kernel_side_clone_dev_null(void)
{
	dev_null_tree = (int)syscall(SYS_open_tree, dev_null, "",
				     1 /* OPEN_TREE_CLONE */ | O_CLOEXEC |
				     AT_EMPTY_PATH);
}

/* The cloned /dev/null bound read-only over path, a last link
 * followed, as mount(2) follows one: the new mount API, whose paths are
 * the chroot's. */
static long null_over(const char *path)
{
	struct { __u64 set, clr, propagation, userns; } ro = { .set = 1 };
	long r;

	if (dev_null_tree < 0)
		return -1;
	r = syscall(SYS_mount_setattr, dev_null_tree, "", AT_EMPTY_PATH, &ro,
		    sizeof ro);
	if (r == 0)
		r = syscall(SYS_move_mount, dev_null_tree, "", AT_FDCWD, path,
			    0x04 /* MOVE_MOUNT_F_EMPTY_PATH */ |
			    0x10 /* MOVE_MOUNT_T_SYMLINKS */);
	return r;
}

/* inroot_mask's mounts by the kernel's own lookup of path. */
static long mask(const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return -1;
	if (S_ISDIR(st.st_mode))
		return mount("tmpfs", path, "tmpfs",
			     MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
			     "mode=0555");
	return null_over(path);
}

/* mknod, then its name opened without following, as the check opens
 * it. */
static long mknod_opened(const struct inroot_call *c)
{
	if (mknod(c->path, c->mode, 0) != 0)
		return -1;
	return open(c->path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
}

static long bind(const struct inroot_call *c)
{
	char source[256] = "/";

	if (strlen(c->other) + 2 > sizeof source) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcat(source, c->other);
	return mount(source, c->path, NULL, MS_BIND, NULL);
}

long kernel_side_call_2_1(const struct inroot_call *c)
{
	switch (c->op) {
	case OP_STATX:
		return statx(AT_FDCWD, c->path, c->flags, STATX_BASIC_STATS,
			     (struct statx *)c->buf);
	case OP_CHMOD:
		return syscall(FCHMODAT2_NR, AT_FDCWD, c->path, c->mode,
			       c->flags);
	case OP_CHOWN:
		return fchownat(AT_FDCWD, c->path, CALL_UID, CALL_GID,
				c->flags);
	case OP_UTIMENS:
		return utimensat(AT_FDCWD, c->path, call_times, c->flags);
	case OP_GETXATTR:
		return NOFOLLOW(c) ?
		       lgetxattr(c->path, c->other, c->buf, c->size) :
		       getxattr(c->path, c->other, c->buf, c->size);
	case OP_SETXATTR:
		return (NOFOLLOW(c) ? lsetxattr : setxattr)(
			c->path, c->other, CALL_XATTR_VALUE,
			sizeof CALL_XATTR_VALUE - 1, 0);
	case OP_LISTXATTR:
		return NOFOLLOW(c) ? llistxattr(c->path, c->buf, c->size) :
				     listxattr(c->path, c->buf, c->size);
	case OP_REMOVEXATTR:
		return (NOFOLLOW(c) ? lremovexattr : removexattr)(c->path,
								  c->other);
	case OP_FSTATX:
		return statx(AT_FDCWD, c->path, 0, STATX_BASIC_STATS,
			     (struct statx *)c->buf);
	case OP_FCHMOD:
		return chmod(c->path, c->mode);
	case OP_FCHOWN:
		return chown(c->path, CALL_UID, CALL_GID);
	case OP_FUTIMENS:
		return utimensat(AT_FDCWD, c->path, call_times, 0);
	case OP_FSETXATTR:
		return setxattr(c->path, c->other, CALL_XATTR_VALUE,
				sizeof CALL_XATTR_VALUE - 1, 0);
	case OP_MKNOD_CHECKED:
		return mknod_opened(c);
	case OP_BIND:
		return bind(c);
	case OP_MASK:
		return mask(c->path);
	case OP_REMOUNT_RDONLY:
		return mount(NULL, c->path, NULL,
			     MS_REMOUNT | MS_BIND | MS_RDONLY, NULL);
	default:
		break;
	}
	errno = EINVAL;
	return -1;
}
