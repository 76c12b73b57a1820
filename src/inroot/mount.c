/*
 * inroot_bind, inroot_remount_rdonly, inroot_mask: mounts onto a target
 * held inside a root, never by a name that could lead elsewhere.
 *
 * The new mount API where it answers: the source cloned as a detached
 * tree (open_tree, Linux 5.2), made read-only while detached
 * (mount_setattr, 5.12), attached onto the held fd (move_mount with
 * both paths empty), so that no name is looked up at all. Where that
 * API is refused, mount(2) onto the held fd (mount_target.c: a
 * directory by fchdir, anything else through a proven /proc), else
 * EOPNOTSUPP. After each mount, the proof that it landed on the target
 * held (mount_target.c); where that fails, EAGAIN, and the mount stays
 * on the file held (a move_mount cannot put it elsewhere), no longer
 * under the name, which a swap took.
 */
#define _GNU_SOURCE /* O_PATH */
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h> /* ST_ flags, which statfs's f_flags holds too */
#include <sys/sysmacros.h>

#include "../call_refused.h"
#include "../exports.h"
#include "inroot.h"
#include "mount_target.h"
#include "../resolve/moment.h"
#include "../syscalls/fds.h"
#include "../syscalls/files.h"
#include "../syscalls/mounts.h"

#define MS_RDONLY_ 1UL
#define MS_NOSUID_ 2UL
#define MS_NODEV_ 4UL
#define MS_NOEXEC_ 8UL
#define MS_REMOUNT_ 32UL
#define MS_NOATIME_ 1024UL
#define MS_NODIRATIME_ 2048UL
#define MS_BIND_ 4096UL
#define MS_REC_ 16384UL
#define MS_RELATIME_ (1UL << 21)

#define MOUNT_FLAGS (INROOT_MOUNT_RECURSIVE | INROOT_MOUNT_RDONLY)

/* The mount of a detached or attached tree's root, in *id: id, or NULL
 * where nothing tells. */
static const struct mount_id *tree_mount(int tree, struct mount_id *id)
{
	return libexecveat_mount_of(tree, id) == 0 ? id : NULL;
}

/* Read-only, on a tree (detached or not): 0, or -errno. */
static int set_rdonly(int fd, bool recursive)
{
	struct sys_mount_attr attr = { .attr_set = SYS_MOUNT_ATTR_RDONLY };

	return sys_mount_setattr(fd, "",
				 AT_EMPTY_PATH | (recursive ? AT_RECURSIVE : 0),
				 &attr);
}

/* The per-mount flags a remount must keep (mount(2) replaces them all;
 * in a user namespace, dropping a locked one is EPERM). */
static unsigned long kept_flags(int fd)
{
	struct statfs sfs;
	unsigned long kept = 0;

	if (sys_fstatfs(fd, &sfs) != 0)
		return 0;
	kept |= (sfs.f_flags & ST_NOSUID) ? MS_NOSUID_ : 0;
	kept |= (sfs.f_flags & ST_NODEV) ? MS_NODEV_ : 0;
	kept |= (sfs.f_flags & ST_NOEXEC) ? MS_NOEXEC_ : 0;
	kept |= (sfs.f_flags & ST_NOATIME) ? MS_NOATIME_ : 0;
	kept |= (sfs.f_flags & ST_NODIRATIME) ? MS_NODIRATIME_ : 0;
	kept |= (sfs.f_flags & ST_RELATIME) ? MS_RELATIME_ : 0;
	return kept;
}

/* The old API's read-only remount of what is mounted at t's name. */
static int remount_old(const struct mount_target *top)
{
	return libexecveat_mount_old(top, NULL, -1, NULL,
				     MS_REMOUNT_ | MS_BIND_ | MS_RDONLY_ |
					     kept_flags(top->fd),
				     NULL);
}

/* The new API's bind of source onto t: 0, or -errno. */
static int bind_new(const struct mount_target *t, int source,
		    unsigned int flags)
{
	bool recursive = flags & INROOT_MOUNT_RECURSIVE;
	struct mount_id id;
	int tree = sys_open_tree(source, "", SYS_OPEN_TREE_CLONE | O_CLOEXEC |
				 AT_EMPTY_PATH |
				 (recursive ? AT_RECURSIVE : 0));
	int r = tree < 0 ? tree : 0;

	if (r == 0 && (flags & INROOT_MOUNT_RDONLY))
		r = set_rdonly(tree, recursive);
	if (r == 0)
		r = sys_move_mount_fds(tree, t->fd);
	if (r == 0) {
		AT_MOMENT(AFTER_MOUNT, t->p.fd, t->p.name);
		r = libexecveat_mount_landed(t, tree_mount(tree, &id), NULL);
	}
	if (tree >= 0)
		sys_close(tree);
	return r;
}

/* The old API's bind, made read-only by a remount where asked. */
static int bind_old(const struct mount_target *t, int source,
		    const char *source_path, unsigned int flags)
{
	struct stat source_st;
	struct mount_target top;
	int r = sys_fstat(source, &source_st);

	if (r < 0)
		return r;
	r = libexecveat_mount_old(t, source_path, source_path ? -1 : source,
				  NULL, MS_BIND_ |
				  ((flags & INROOT_MOUNT_RECURSIVE) ? MS_REC_ : 0),
				  NULL);
	if (r == 0) {
		AT_MOMENT(AFTER_MOUNT, t->p.fd, t->p.name);
		r = libexecveat_mount_landed(t, NULL, &source_st);
	}
	if (r != 0 || !(flags & INROOT_MOUNT_RDONLY))
		return r;
	if (flags & INROOT_MOUNT_RECURSIVE)
		return -EOPNOTSUPP; /* one remount per mount: not here */
	top = *t;
	top.fd = sys_openat(t->p.fd, t->p.name, O_PATH | O_NOFOLLOW | O_CLOEXEC,
			    0);
	if (top.fd < 0)
		return top.fd;
	r = sys_fstat(top.fd, &top.st);
	if (r == 0)
		r = remount_old(&top);
	sys_close(top.fd);
	return r;
}

/* src onto t (source_path: the string that names src, or NULL):
 * mount(2)'s ENOTDIR where one is a directory and the other not
 * (move_mount's would be EINVAL), then the new API, else the old. */
static int bind_onto(const struct mount_target *t, int src,
		     const char *source_path, unsigned int flags)
{
	struct stat st;
	int r = sys_fstat(src, &st);

	if (r < 0)
		return r;
	if (S_ISDIR(st.st_mode) != S_ISDIR(t->st.st_mode))
		return -ENOTDIR;
	r = bind_new(t, src, flags);
	if (may_be_refusal(r))
		r = bind_old(t, src, source_path, flags);
	return r;
}

/*
 * source_dir and source as open_tree(2) takes them ("": source_dir
 * itself), the source opened O_PATH first, following a last link as
 * mount(2) does. The old API names the source by its string where it
 * is absolute and source_dir is AT_FDCWD, else by its proven /proc
 * entry.
 */
static int bind(int source_dir, const char *source, int root,
		const char *target, unsigned int flags)
{
	struct mount_target t;
	int src, r;

	if (flags & ~MOUNT_FLAGS)
		return -EINVAL;
	r = libexecveat_check_path(source);
	if (r == -ENOENT) /* "": source_dir itself */
		src = sys_fcntl_dupfd_cloexec(source_dir, 0);
	else if (r == 0)
		src = sys_openat(source_dir, source, O_PATH | O_CLOEXEC, 0);
	else
		return r;
	if (src < 0)
		return src;
	r = libexecveat_mount_target_hold(root, target, &t);
	if (r == 0) {
		r = bind_onto(&t, src, source_dir == AT_FDCWD &&
			      source[0] == '/' ? source : NULL, flags);
		libexecveat_mount_target_release(&t);
	}
	sys_close(src);
	return r;
}

EXECVEAT_EXPORT int inroot_bind(int source_dir, const char *source, int root,
				const char *target, unsigned int flags)
{
	return answer(bind(source_dir, source, root, target, flags));
}

/* The mount at path's name, whose root the held fd must be. */
static int remount_rdonly(int root, const char *path, unsigned int flags)
{
	struct mount_target t;
	struct mount_id below;
	int r;

	if (flags & ~INROOT_MOUNT_RECURSIVE)
		return -EINVAL;
	r = libexecveat_mount_target_hold(root, path, &t);
	if (r != 0)
		return r;
	/* The held fd crossed onto the top mount at the name: a mount
	 * root, unless its mount is the held directory's own. */
	r = libexecveat_mount_of(t.p.fd, &below);
	if (r == 0 && !below.by_device &&
	    libexecveat_same_mount(&t.mount, &below))
		r = -EINVAL;
	if (r == 0) {
		r = set_rdonly(t.fd, flags & INROOT_MOUNT_RECURSIVE);
		if (may_be_refusal(r))
			r = (flags & INROOT_MOUNT_RECURSIVE) ? -EOPNOTSUPP :
			    remount_old(&t);
	}
	libexecveat_mount_target_release(&t);
	return r;
}

EXECVEAT_EXPORT int inroot_remount_rdonly(int root, const char *path,
					  unsigned int flags)
{
	return answer(remount_rdonly(root, path, flags));
}

/* An empty read-only tmpfs, detached: its fd, or -errno. */
static int empty_tmpfs(void)
{
	int fs = sys_fsopen("tmpfs", SYS_FSOPEN_CLOEXEC), mnt;

	if (fs < 0)
		return fs;
	mnt = sys_fsconfig(fs, SYS_FSCONFIG_SET_STRING, "mode", "0555");
	if (mnt == 0)
		mnt = sys_fsconfig(fs, SYS_FSCONFIG_CMD_CREATE, NULL, NULL);
	if (mnt == 0)
		mnt = sys_fsmount(fs, SYS_FSMOUNT_CLOEXEC,
				  SYS_MOUNT_ATTR_RDONLY | SYS_MOUNT_ATTR_NOSUID |
				  SYS_MOUNT_ATTR_NODEV | SYS_MOUNT_ATTR_NOEXEC);
	sys_close(fs);
	return mnt;
}

static int mask_directory(const struct mount_target *t)
{
	struct mount_id id;
	int mnt = empty_tmpfs(), r;

	if (mnt >= 0) {
		r = sys_move_mount_fds(mnt, t->fd);
		if (r == 0) {
			AT_MOMENT(AFTER_MOUNT, t->p.fd, t->p.name);
			r = libexecveat_mount_landed(t, tree_mount(mnt, &id),
						     NULL);
		}
		sys_close(mnt);
		return r;
	}
	if (!may_be_refusal(mnt))
		return mnt;
	r = libexecveat_mount_old(t, "tmpfs", -1, "tmpfs",
				  MS_RDONLY_ | MS_NOSUID_ | MS_NODEV_ |
					  MS_NOEXEC_,
				  "mode=0555");
	if (r != 0)
		return r;
	AT_MOMENT(AFTER_MOUNT, t->p.fd, t->p.name);
	return libexecveat_mount_landed(t, NULL, NULL);
}

/* The machine's /dev/null, checked to be the null device (1, 3). */
static int dev_null(void)
{
	struct stat st;
	int fd = sys_openat(AT_FDCWD, "/dev/null", O_PATH | O_CLOEXEC, 0);

	if (fd < 0)
		return fd;
	if (sys_fstat(fd, &st) != 0 || !S_ISCHR(st.st_mode) ||
	    st.st_rdev != makedev(1, 3)) {
		sys_close(fd);
		return -EOPNOTSUPP;
	}
	return fd;
}

static int mask(int root, const char *path)
{
	struct mount_target t;
	int r = libexecveat_mount_target_hold(root, path, &t), null;

	if (r != 0)
		return r;
	if (S_ISDIR(t.st.st_mode)) {
		r = mask_directory(&t);
	} else {
		null = dev_null();
		r = null < 0 ? null : bind_onto(&t, null, "/dev/null",
						 INROOT_MOUNT_RDONLY);
		if (null >= 0)
			sys_close(null);
	}
	libexecveat_mount_target_release(&t);
	return r;
}

EXECVEAT_EXPORT int inroot_mask(int root, const char *path)
{
	return answer(mask(root, path));
}
