#define _GNU_SOURCE
#include "kernel_side.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/*
 * mkdir -p: each prefix made in turn, one that exists taken where it
 * opens as a directory (a symlink to one included). One that does not:
 * ENOTDIR for another file, and mkdir's own EEXIST for a link leading
 * nowhere. The answer is then an O_PATH fd of the whole path.
 */
int kernel_mkdir_all(const char *path, mode_t mode)
{
	char prefix[PATH_MAX + 2];
	size_t n = strlen(path);

	if (n >= sizeof(prefix)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (size_t end = 1; end <= n; end++) {
		int fd;

		if (end < n && path[end] != '/')
			continue;
		if (path[end - 1] == '/')
			continue; /* no name ends here */
		memcpy(prefix, path, end);
		prefix[end] = '\0';
		if (mkdir(prefix, mode) == 0)
			continue;
		if (errno != EEXIST)
			return -1;
		fd = open(prefix, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0) {
			if (errno == ENOENT)
				errno = EEXIST;
			return -1;
		}
		close(fd);
	}
	return open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

/* Whether path's last name is ".", ".." or none ("/"): the kernel's
 * LAST_DOT, LAST_DOTDOT and LAST_ROOT, which rm -rf refuses. */
static bool last_is_dots(const char *path)
{
	size_t end = strlen(path), start;

	while (end > 0 && path[end - 1] == '/')
		end--;
	if (end == 0)
		return path[0] == '/';
	start = end;
	while (start > 0 && path[start - 1] != '/')
		start--;
	return (end - start == 1 && path[start] == '.') ||
	       (end - start == 2 && path[start] == '.' &&
		path[start + 1] == '.');
}

/* Whether the directory fd is another file system's root than that of
 * path's parent. */
static bool mount_point(int fd, const char *path)
{
	char parent[PATH_MAX + 4];
	struct stat st, up;

	snprintf(parent, sizeof(parent), "%s/..", path);
	return fstat(fd, &st) == 0 && stat(parent, &up) == 0 &&
	       st.st_dev != up.st_dev;
}

/* rmdir(2), where ENOENT means that there was nothing to remove. */
static int rmdir_or_none(const char *path)
{
	return rmdir(path) == 0 || errno == ENOENT ? 0 : -1;
}

/* rm -rf's emptying of the directory dirfd (closed here): each entry
 * removed, unfollowed, whatever the others did; a mount point left
 * (EBUSY). The first error met, or 0. */
static int empty_beneath(int dirfd)
{
	DIR *dir = fdopendir(dirfd);
	struct stat up, st;
	struct dirent *d;
	int first = 0;

	if (dir == NULL || fstat(dirfd, &up) < 0) {
		if (dir != NULL)
			closedir(dir);
		else
			close(dirfd);
		return errno;
	}
	while ((d = readdir(dir)) != NULL) {
		int err = 0, fd;

		if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0)
			continue;
		if (fstatat(dirfd, d->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			err = errno;
		else if (!S_ISDIR(st.st_mode))
			err = unlinkat(dirfd, d->d_name, 0) < 0 ? errno : 0;
		else if (st.st_dev != up.st_dev)
			err = EBUSY;
		else if ((fd = openat(dirfd, d->d_name, O_RDONLY | O_DIRECTORY |
				      O_NOFOLLOW | O_CLOEXEC)) < 0)
			err = errno;
		else if ((err = empty_beneath(fd)) == 0)
			err = unlinkat(dirfd, d->d_name, AT_REMOVEDIR) < 0 ?
			      errno : 0;
		if (first == 0 && err != ENOENT)
			first = err;
	}
	closedir(dir);
	return first;
}

/*
 * rm -rf as inroot(3) says it: the last name decides, never followed
 * (unlink's answer: EISDIR for a directory, ENOTDIR for a symlink or
 * file named with a trailing slash), and a directory is emptied, then
 * removed; the first error met is the answer. A path that does not
 * exist is 0, "" ENOENT. ".", ".." and "/" are not entered, nor is a
 * mount point: rmdir's answer for them.
 */
int kernel_remove_all(const char *path)
{
	int fd, err;

	if (path[0] == '\0') {
		errno = ENOENT;
		return -1;
	}
	if (last_is_dots(path))
		return rmdir_or_none(path);
	if (unlink(path) == 0)
		return 0;
	if (errno == ENOENT)
		return 0;
	if (errno != EISDIR)
		return -1;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (mount_point(fd, path)) {
		close(fd);
		return rmdir_or_none(path);
	}
	err = empty_beneath(fd);
	if (err != 0) {
		errno = err;
		return -1;
	}
	return rmdir_or_none(path);
}

/* What every open of inroot.h adds to the caller's flags (close-on-exec
 * and no controlling terminal): the kernel is asked with them too. */
#define INROOT_ADDED_FLAGS (O_CLOEXEC | O_NOCTTY)

/* open(2) with O_CREAT, but for O_TMPFILE, which makes a file without
 * it and refuses it (EINVAL). */
static int kernel_creat(const struct inroot_call *c)
{
	int creat = (c->flags & O_TMPFILE) == O_TMPFILE ? 0 : O_CREAT;

	return open(c->path, c->flags | creat | INROOT_ADDED_FLAGS, c->mode);
}

long kernel_side_call(const struct inroot_call *c)
{
	switch (c->op) {
	case OP_RESOLVE:
		return open(c->path, O_PATH | O_CLOEXEC);
	case OP_RESOLVE_NOFOLLOW:
		return open(c->path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	case OP_OPEN:
		/* Mode 0, as inroot_open makes nothing; given all the same,
		 * since a fortified open(2) aborts where flags that hold
		 * O_CREAT come without one (O_PATH drops it). */
		return open(c->path, c->flags | INROOT_ADDED_FLAGS, 0);
	case OP_CREAT:
		return kernel_creat(c);
	case OP_MKDIR:
		return mkdir(c->path, c->mode);
	case OP_MKDIR_ALL:
		return kernel_mkdir_all(c->path, c->mode);
	case OP_MKNOD:
		return mknod(c->path, c->mode, c->dev);
	case OP_SYMLINK:
		return symlink(c->other, c->path);
	case OP_HARDLINK:
		return link(c->other, c->path);
	case OP_RENAME:
		/* Not renameat2(3): C libraries before glibc 2.28 and
		 * musl have none. */
		return syscall(SYS_renameat2, AT_FDCWD, c->path, AT_FDCWD,
			       c->other, (unsigned int)c->flags);
	case OP_UNLINK:
		return unlink(c->path);
	case OP_RMDIR:
		return rmdir(c->path);
	case OP_REMOVE_ALL:
		return kernel_remove_all(c->path);
	case OP_READLINK:
		return readlink(c->path, c->buf, c->size);
	case OP_REOPEN:
		/* The file the path names, opened with the flags: what a
		 * reopen of the fd resolve found opens again. That file is
		 * no symlink (resolve followed it): O_NOFOLLOW has nothing
		 * to refuse. */
		return open(c->path,
			    (c->flags & ~O_NOFOLLOW) | INROOT_ADDED_FLAGS);
	default: /* 2.1's: metadata_sides.h */
		break;
	}
	errno = EINVAL;
	return -1;
}
