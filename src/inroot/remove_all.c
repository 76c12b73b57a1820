/*
 * inroot_remove_all: a name, and everything beneath it if it is a
 * directory, as `rm -rf` removes it inside a chroot to the root.
 *
 * The name is removed from the directory that holds it (walked inside
 * the root); a directory's entries are removed from the directory itself,
 * opened from its parent with O_NOFOLLOW, never by a path. Whatever is
 * renamed meanwhile, each removal names one entry of a directory held
 * open beneath the root: a symlink is removed and never followed, and a
 * directory moved away is simply no longer found.
 *
 * Mounts: a directory on another mount than its parent (a mount point,
 * or a bind mount of a host directory into the root) is neither entered
 * nor removed: EBUSY, the kernel's answer for removing a mount point.
 * Where statx has no mount id (before Linux 5.8), the device decides,
 * which cannot tell a bind mount of the same file system.
 *
 * Entries made while a directory is emptied: the directory is emptied a
 * second time when its rmdir finds it not empty; ENOTEMPTY after that.
 */
#define _GNU_SOURCE /* O_PATH */
#include <dirent.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "../exports.h"
#include "in_root.h"
#include "inroot.h"
#include "../sys.h"

#define EMPTYING_PASSES 2

static int remove_entry(int dir, const char *name);

/* The linux_dirent64 that getdents64 fills in. */
struct entry {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

static bool is_dot_or_dotdot(const char *name)
{
	return name[0] == '.' &&
	       (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'));
}

/* The mount a file is on: statx's mount id, or else its device. */
static int mount_of(int fd, uint64_t *mount)
{
	struct sys_statx stx;
	struct stat st;

	if (sys_statx(fd, "", AT_EMPTY_PATH, SYS_STATX_MNT_ID, &stx) == 0 &&
	    (stx.stx_mask & SYS_STATX_MNT_ID)) {
		*mount = stx.stx_mnt_id;
		return 0;
	}
	if (sys_fstat(fd, &st) != 0)
		return -errno;
	*mount = (uint64_t)st.st_dev;
	return 0;
}

static int same_mount(int a, int b)
{
	uint64_t ma, mb;
	int err = mount_of(a, &ma);

	if (err == 0)
		err = mount_of(b, &mb);
	return err != 0 ? err : ma == mb;
}

/*
 * Every entry of the open directory dir removed, once over. An entry
 * that cannot be removed (a mount point: EBUSY) does not stop the rest,
 * as with `rm -rf`: the first such error is the answer.
 */
static int empty_directory(int dir)
{
	char buf[1024];
	int first_error = 0;
	long n;

	if (lseek(dir, 0, SEEK_SET) < 0)
		return -errno;
	while ((n = sys_getdents64(dir, buf, sizeof buf)) > 0) {
		for (long at = 0; at < n;) {
			struct entry *e = (struct entry *)(buf + at);
			int err = is_dot_or_dotdot(e->name) ?
					  0 :
					  remove_entry(dir, e->name);

			if (err != 0 && err != -ENOENT && first_error == 0)
				first_error = err;
			at += e->reclen;
		}
	}
	return n < 0 ? -errno : first_error;
}

/* name, a directory of dir on the same mount, emptied and removed. */
static int remove_directory(int dir, const char *name)
{
	int sub = sys_openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			     O_CLOEXEC, 0);
	int r;

	if (sub < 0)
		return -errno;
	r = same_mount(dir, sub);
	if (r == 0)
		r = -EBUSY;
	for (int pass = 0; r == 1 && pass < EMPTYING_PASSES; pass++) {
		r = empty_directory(sub);
		if (r == 0)
			r = call_result(unlinkat(dir, name, AT_REMOVEDIR));
		if (r == -ENOTEMPTY)
			r = 1;
	}
	sys_close(sub);
	return r == 1 ? -ENOTEMPTY : r;
}

/*
 * name in dir removed: unlinked, or, where it is a directory, emptied
 * and removed. A name that changes from a directory to another file
 * between the two (ENOTDIR, ELOOP) is unlinked as what it is now.
 */
static int remove_entry(int dir, const char *name)
{
	int r = call_result(unlinkat(dir, name, 0));

	if (r != -EISDIR)
		return r;
	r = remove_directory(dir, name);
	if (r == -ENOTDIR || r == -ELOOP)
		r = call_result(unlinkat(dir, name, 0));
	return r;
}

/* A last ".", ".." or "/" names no entry to remove: rmdir's answers. */
static int not_a_name(enum last_kind kind)
{
	switch (kind) {
	case LAST_IS_DOT:
		return -EINVAL;
	case LAST_IS_DOTDOT:
		return -ENOTEMPTY;
	default:
		return -EBUSY;
	}
}

EXECVEAT_EXPORT int inroot_remove_all(int root, const char *path)
{
	struct held_parent p;
	int r = libexecveat_check_path(path);

	/* "" names nothing, which is not a path that is missing. */
	if (r != 0)
		return answer(r);
	r = libexecveat_hold_parent(root, path, &p);
	if (r != 0)
		return answer(r == -ENOENT ? 0 : r);
	if (p.kind != LAST_IS_NAME)
		r = not_a_name(p.kind);
	else
		r = remove_entry(p.fd, p.name);
	libexecveat_release_parent(&p);
	return answer(r == -ENOENT ? 0 : r);
}
