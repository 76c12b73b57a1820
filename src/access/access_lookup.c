/*
 * faccessat's question through the old faccessat system call
 * (access_lookup.h).
 *
 * AT_SYMLINK_NOFOLLOW: the old call follows a last symlink, so the path
 * is looked at first (fstatat, without following); a symlink's own
 * answer is the kernel's for its mode 0777: 0 for every mode, but W_OK
 * on a read-only mount, EROFS. Anything else is the file the old call
 * follows to: a race that puts a symlink there can only move the answer
 * to the link's target, on a mount the racer can write to, where the
 * link's own is 0.
 *
 * AT_EMPTY_PATH with "": the fd's own file (access_empty_path.c).
 *
 * No byte of the path is read before a system call has read it: a path
 * the process cannot read is the kernel's EFAULT, never a SIGSEGV.
 */
#define _GNU_SOURCE
#include "access_lookup.h"

#include <errno.h>
#include <sys/statvfs.h>

#include "access_empty_path.h"
#include "../path/path_name.h"

/* Whether the symlink at path (dirfd's own file for "") is on a
 * read-only mount, into *readonly: 0, or -errno. */
static int on_readonly_mount(int dirfd, const char *path, bool *readonly)
{
	struct statfs sfs;
	int fd = dirfd, err;

	if (path[0] != '\0') {
		fd = sys_openat(dirfd, path, O_PATH | O_NOFOLLOW | O_CLOEXEC, 0);
		if (fd < 0)
			return fd;
	}
	err = sys_fstatfs(fd, &sfs);
	if (fd != dirfd)
		sys_close(fd);
	*readonly = err == 0 && (sfs.f_flags & ST_RDONLY) != 0;
	return err;
}

void libexecveat_access_look_up(int dirfd, const char *path, int mode,
				int flags, struct access_found *found)
{
	struct stat st;

	*found = (struct access_found){ 0, 0, false };
	found->err = sys_fstatat(dirfd, path, &st, flags & ACCESS_LOOKUP_FLAGS);
	if (found->err < 0)
		return;
	found->type = st.st_mode & S_IFMT;
	/* The kernel has read path: its first byte is readable. */
	if (S_ISLNK(st.st_mode) && (mode & W_OK))
		found->err = on_readonly_mount(dirfd, path, &found->readonly);
}

bool libexecveat_access_view_may_be_narrow(const struct access_found *found)
{
	return found->err == -EACCES || found->err == -EPERM;
}

/* A symlink's own answer: its mode is 0777, so only a read-only mount
 * refuses (W_OK, EROFS). */
static int symlink_answer(const struct access_found *found)
{
	return found->readonly ? -EROFS : 0;
}

int libexecveat_access_ask(int dirfd, const char *path, int mode, int flags,
			   bool may_open)
{
	struct access_found found;

	if (!(flags & ACCESS_LOOKUP_FLAGS))
		return sys_faccessat(dirfd, path, mode);
	libexecveat_access_look_up(dirfd, path, mode, flags, &found);
	if (found.err != 0)
		return found.err;
	if (S_ISLNK(found.type))
		return symlink_answer(&found);
	if (path[0] == '\0')
		return libexecveat_access_empty_path(dirfd, found.type, mode,
						     may_open);
	return sys_faccessat(dirfd, path, mode);
}

/* Whether the kernel follows path's last name whatever the flags: a
 * trailing slash, or a last "." or "..", which are never symlinks. */
static bool last_is_followed(const char *path)
{
	size_t start, end;

	return libexecveat_last_name(path, &start, &end) != LAST_IS_NAME ||
	       path[end] == '/';
}

/*
 * Where path's last name is a symlink not to be followed: the old call's
 * search of every directory up to it, as the kernel's walk to it checks
 * them. The directory part is named with its trailing slash, so that a
 * file there is ENOTDIR, and asked X_OK, which for a directory is the
 * search permission a lookup in it needs; none (a name in dirfd) is ".".
 * path is shorter than PATH_MAX (a lookup has read it), and so its
 * directory part fits in scratch.
 */
static int search_to_last(int dirfd, const char *path, char *scratch)
{
	size_t start, end;

	libexecveat_last_name(path, &start, &end);
	if (start == 0)
		return sys_faccessat(dirfd, ".", X_OK);
	if (start >= ACCESS_SCRATCH_SIZE)
		return -ENAMETOOLONG;
	for (size_t i = 0; i < start; i++)
		scratch[i] = path[i];
	scratch[start] = '\0';
	return sys_faccessat(dirfd, scratch, X_OK);
}

int libexecveat_access_ask_found(int dirfd, const char *path, int mode,
				 int flags, const struct access_found *found,
				 char *scratch)
{
	bool narrow = libexecveat_access_view_may_be_narrow(found);
	int err;

	if (found->err == -EFAULT)
		return -EFAULT;
	/* The lookup has read path. "": no walk, nothing another ID sees
	 * otherwise. */
	if (path[0] == '\0') {
		if (found->err != 0)
			return found->err;
		return S_ISLNK(found->type) ?
			       symlink_answer(found) :
			       libexecveat_access_empty_path(dirfd, found->type,
							     mode, false);
	}
	/* The old call's own walk, where the last name is followed anyway,
	 * is not a symlink, or was not found (an error the old call meets
	 * too, or one it meets before). */
	if (!(flags & AT_SYMLINK_NOFOLLOW) || last_is_followed(path) ||
	    (found->err == 0 && !S_ISLNK(found->type)) ||
	    (found->err != 0 && !narrow))
		return sys_faccessat(dirfd, path, mode);
	/* A symlink, or a lookup refused where the question's may not be. */
	err = search_to_last(dirfd, path, scratch);
	if (err < 0)
		return err;
	return found->err == 0 ? symlink_answer(found) : ACCESS_CANNOT_ASK;
}
