/*
 * The target of a mount beneath a root, held; the old mount(2) onto it;
 * the proof that a mount landed (mount_target.h).
 *
 * Why the proof looks the name up again: a mount made onto an fd (the
 * new API) cannot land elsewhere, but one made by mount(2) goes where
 * its names lead when the kernel reads them, and a mount that lands on
 * the held file while the name now holds another is not where the
 * caller will look for it. The name is looked up in the held directory,
 * one component, crossing onto what is mounted there: the top mount's
 * id and root are what a later lookup of the path meets.
 */
#define _GNU_SOURCE /* O_PATH */
#include <string.h>
#include <sys/stat.h>

#include "held_file.h"
#include "mount_target.h"
#include "../path/same_file.h"
#include "../proc/proc_fd_dir.h"
#include "../syscalls/files.h"
#include "../syscalls/mounts.h"

/* dir's name, crossing onto what is mounted there ("": dir itself): its
 * file and its mount. 0 or -errno. */
static int file_and_mount(int dir, const char *name, struct stat *st,
			  struct mount_id *mount)
{
	int r = sys_fstatat(dir, name, st, AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH);

	if (r < 0)
		return r;
	return libexecveat_mount_at(dir, name, AT_EMPTY_PATH, mount);
}

int libexecveat_mount_target_hold(int root, const char *path,
				  struct mount_target *t)
{
	char bare[PATH_MAX];
	size_t len, bare_len;
	int r = libexecveat_check_path(path);

	if (r != 0)
		return r;
	/* Held by its name, without the trailing slashes, which ask for a
	 * directory (checked below). */
	len = strlen(path);
	bare_len = libexecveat_slashes_trimmed(path, len);
	memcpy(bare, path, bare_len);
	bare[bare_len] = '\0';
	r = libexecveat_hold_file(root, bare, true, &t->p);
	if (r != 0)
		return r;
	t->fd = -1;
	if (t->p.kind != LAST_IS_NAME) {
		r = -EINVAL;
	} else {
		t->fd = sys_openat(t->p.fd, t->p.name,
				   O_PATH | O_NOFOLLOW | O_CLOEXEC, 0);
		r = t->fd < 0 ? t->fd :
		    file_and_mount(t->fd, "", &t->st, &t->mount);
	}
	if (r == 0 && bare_len < len && !S_ISDIR(t->st.st_mode))
		r = -ENOTDIR;
	if (r != 0)
		libexecveat_mount_target_release(t);
	return r;
}

void libexecveat_mount_target_release(struct mount_target *t)
{
	if (t->fd >= 0)
		sys_close(t->fd);
	libexecveat_release_parent(&t->p);
}

int libexecveat_mount_landed(const struct mount_target *t,
			     const struct mount_id *tree,
			     const struct stat *root_st)
{
	struct stat now;
	struct mount_id now_mount;

	if (file_and_mount(t->p.fd, t->p.name, &now, &now_mount) != 0)
		return -EAGAIN;
	if (tree != NULL && !tree->by_device &&
	    !libexecveat_same_mount(&now_mount, tree))
		return -EAGAIN;
	if (!now_mount.by_device &&
	    libexecveat_same_mount(&now_mount, &t->mount))
		return -EAGAIN;
	if (root_st != NULL && !libexecveat_same_file(&now, root_st))
		return -EAGAIN;
	return 0;
}

/* mount(2) with the working directory at cwd_fd, then put back. */
static int mount_from(int cwd_fd, const char *source, const char *target,
		      const char *fstype, unsigned long flags,
		      const char *data)
{
	int saved = sys_openat(AT_FDCWD, ".", O_PATH | O_DIRECTORY | O_CLOEXEC,
			       0);
	int r;

	if (saved < 0)
		return saved;
	r = sys_fchdir(cwd_fd);
	if (r == 0) {
		r = sys_mount(source, target, fstype, flags, data);
		sys_fchdir(saved);
	}
	sys_close(saved);
	return r;
}

int libexecveat_mount_old(const struct mount_target *t, const char *source,
			  int source_fd, const char *fstype,
			  unsigned long flags, const char *data)
{
	char target_name[FD_NAME_SIZE], source_name[FD_NAME_SIZE];
	struct stat source_st;
	int dir, r;

	if (S_ISDIR(t->st.st_mode) && source_fd < 0)
		return mount_from(t->fd, source, ".", fstype, flags, data);
	dir = libexecveat_proc_entry(t->fd, &t->st, target_name);
	if (dir < 0)
		return dir;
	if (source_fd >= 0) {
		r = sys_fstat(source_fd, &source_st);
		if (r == 0 &&
		    !libexecveat_proc_fd_names(dir, source_fd, &source_st))
			r = -EOPNOTSUPP;
		libexecveat_fd_name(source_name, source_fd);
		source = source_name;
	} else {
		r = 0;
	}
	if (r == 0)
		r = mount_from(dir, source, target_name, fstype, flags, data);
	sys_close(dir);
	return r;
}
