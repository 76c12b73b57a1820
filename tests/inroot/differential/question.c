#define _GNU_SOURCE
#include "question.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inroot.h"

/* What fills readlink's buffer before the call: bytes no link text of
 * the trees holds. */
#define UNWRITTEN '\x7f'

bool op_returns_fd(enum op op)
{
	return op == OP_RESOLVE || op == OP_RESOLVE_NOFOLLOW ||
	       op == OP_OPEN || op == OP_CREAT || op == OP_MKDIR_ALL;
}

/* rc and errno, and for an fd what it is (the fd then closed). */
static struct answer answer_of(const struct question *q, long rc)
{
	struct answer a = { .rc = rc, .err = rc == -1 ? errno : 0 };
	struct stat st;

	if (rc >= 0 && op_returns_fd(q->op)) {
		int fd = (int)rc;

		a.fd_flags = fcntl(fd, F_GETFL);
		if (fstat(fd, &st) == 0) {
			a.dev = st.st_dev;
			a.ino = st.st_ino;
		}
		close(fd);
	}
	return a;
}

/* readlink's buffer as the header says: at most size bytes of the text
 * copied, nothing past them written. */
static void keep_text(struct answer *a, const char *buf, size_t size)
{
	size_t copied = a->rc < 0 ? 0 : (size_t)a->rc;

	if (copied > size)
		copied = size;
	if (copied >= sizeof(a->text))
		copied = sizeof(a->text) - 1;
	memcpy(a->text, buf, copied);
	a->past_untouched = true;
	for (size_t i = copied; i < size && i < PATH_MAX; i++)
		if (buf[i] != UNWRITTEN)
			a->past_untouched = false;
}

static long library_call(int root, const struct question *q)
{
	switch (q->op) {
	case OP_RESOLVE:
		return inroot_resolve(root, q->a);
	case OP_RESOLVE_NOFOLLOW:
		return inroot_resolve_nofollow(root, q->a);
	case OP_OPEN:
		return inroot_open(root, q->a, q->flags);
	case OP_CREAT:
		return inroot_creat(root, q->a, q->flags, q->mode);
	case OP_MKDIR:
		return inroot_mkdir(root, q->a, q->mode);
	case OP_MKDIR_ALL:
		return inroot_mkdir_all(root, q->a, q->mode);
	case OP_MKNOD:
		return inroot_mknod(root, q->a, q->mode, 0);
	case OP_SYMLINK:
		return inroot_symlink(root, q->a, q->b);
	case OP_HARDLINK:
		return inroot_hardlink(root, q->a, q->b);
	case OP_RENAME:
		return inroot_rename(root, q->a, q->b, (unsigned)q->flags);
	case OP_UNLINK:
		return inroot_unlink(root, q->a);
	case OP_RMDIR:
		return inroot_rmdir(root, q->a);
	case OP_REMOVE_ALL:
		return inroot_remove_all(root, q->a);
	case OP_READLINK:
		break;
	}
	errno = EINVAL;
	return -1;
}

struct answer answer_of_library(int root, const struct question *q)
{
	char buf[PATH_MAX];
	struct answer a;

	if (q->op != OP_READLINK)
		return answer_of(q, library_call(root, q));
	memset(buf, UNWRITTEN, sizeof(buf));
	a = answer_of(q, inroot_readlink(root, q->a, buf, q->size));
	keep_text(&a, buf, q->size);
	return a;
}

/*
 * mkdir -p: each prefix made in turn, one that exists taken where it
 * opens as a directory (a symlink to one included). One that does not:
 * ENOTDIR for another file, and mkdir's own EEXIST for a link leading
 * nowhere. The answer is then an O_PATH fd of the whole path.
 */
static long kernel_mkdir_all(const char *path, mode_t mode)
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
static long rmdir_or_none(const char *path)
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
static long kernel_remove_all(const char *path)
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

static long kernel_call(const struct question *q)
{
	switch (q->op) {
	case OP_RESOLVE:
		return open(q->a, O_PATH | O_CLOEXEC);
	case OP_RESOLVE_NOFOLLOW:
		return open(q->a, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	case OP_OPEN:
		return open(q->a, q->flags);
	case OP_CREAT:
		return open(q->a, q->flags | O_CREAT, q->mode);
	case OP_MKDIR:
		return mkdir(q->a, q->mode);
	case OP_MKDIR_ALL:
		return kernel_mkdir_all(q->a, q->mode);
	case OP_MKNOD:
		return mknod(q->a, q->mode, 0);
	case OP_SYMLINK:
		return symlink(q->b, q->a);
	case OP_HARDLINK:
		return link(q->b, q->a);
	case OP_RENAME:
		return renameat2(AT_FDCWD, q->a, AT_FDCWD, q->b,
				 (unsigned)q->flags);
	case OP_UNLINK:
		return unlink(q->a);
	case OP_RMDIR:
		return rmdir(q->a);
	case OP_REMOVE_ALL:
		return kernel_remove_all(q->a);
	case OP_READLINK:
		break;
	}
	errno = EINVAL;
	return -1;
}

/* readlink(2) truncates silently; the header's answer is the text's
 * whole length, so the kernel's side reads it whole and copies. */
struct answer answer_of_kernel(const struct question *q)
{
	char text[PATH_MAX], buf[PATH_MAX];
	struct answer a;

	if (q->op != OP_READLINK)
		return answer_of(q, kernel_call(q));
	a = answer_of(q, readlink(q->a, text, sizeof(text)));
	memset(buf, UNWRITTEN, sizeof(buf));
	if (a.rc > 0)
		memcpy(buf, text, (size_t)a.rc < q->size ? (size_t)a.rc :
			q->size);
	keep_text(&a, buf, q->size);
	return a;
}

static const char *op_name(enum op op)
{
	static const char *const names[] = {
		[OP_RESOLVE] = "resolve",
		[OP_RESOLVE_NOFOLLOW] = "resolve_nofollow",
		[OP_OPEN] = "open",
		[OP_CREAT] = "creat",
		[OP_MKDIR] = "mkdir",
		[OP_MKDIR_ALL] = "mkdir_all",
		[OP_MKNOD] = "mknod",
		[OP_SYMLINK] = "symlink",
		[OP_HARDLINK] = "hardlink",
		[OP_RENAME] = "rename",
		[OP_UNLINK] = "unlink",
		[OP_RMDIR] = "rmdir",
		[OP_REMOVE_ALL] = "remove_all",
		[OP_READLINK] = "readlink",
	};

	return names[op];
}

/* The open flags by name, or rename's. */
static void flags_describe(char *buf, size_t size, enum op op, int flags)
{
	static const struct { int flag; const char *name; } open_flags[] = {
		{ O_PATH, "O_PATH" }, { O_CREAT, "O_CREAT" },
		{ O_EXCL, "O_EXCL" }, { O_TRUNC, "O_TRUNC" },
		{ O_DIRECTORY, "O_DIRECTORY" }, { O_NOFOLLOW, "O_NOFOLLOW" },
		{ O_NONBLOCK, "O_NONBLOCK" }, { O_CLOEXEC, "O_CLOEXEC" },
	};
	static const char *const modes[] = { "O_RDONLY", "O_WRONLY",
					     "O_RDWR", "O_ACCMODE" };
	size_t n = 0;

	if (op == OP_RENAME) {
		snprintf(buf, size, "%s%s%s", flags == 0 ? "0" : "",
			 flags & RENAME_NOREPLACE ? "RENAME_NOREPLACE" : "",
			 flags & RENAME_EXCHANGE ? "RENAME_EXCHANGE" : "");
		return;
	}
	n += (size_t)snprintf(buf, size, "%s",
			      flags & O_PATH ? "O_PATH" :
			      modes[flags & O_ACCMODE]);
	for (size_t i = 1; i < sizeof(open_flags) / sizeof(open_flags[0]);
	     i++)
		if ((flags & open_flags[i].flag) && n < size)
			n += (size_t)snprintf(buf + n, size - n, "|%s",
					      open_flags[i].name);
}

/* A path for printing: an overlong one by its length and end. */
static const char *short_path(char *buf, size_t size, const char *path)
{
	size_t n = strlen(path);

	if (n < 120)
		snprintf(buf, size, "\"%s\"", path);
	else
		snprintf(buf, size, "<%zu chars ...\"%s\">", n, path + n - 20);
	return buf;
}

const char *question_describe(char *buf, size_t size,
			      const struct question *q)
{
	char flags[160], a[160], b[160];

	short_path(a, sizeof(a), q->a);
	if (q->b != NULL)
		short_path(b, sizeof(b), q->b);
	switch (q->op) {
	case OP_OPEN:
	case OP_CREAT:
	case OP_RENAME:
		flags_describe(flags, sizeof(flags), q->op, q->flags);
		break;
	default:
		flags[0] = '\0';
	}
	switch (q->op) {
	case OP_OPEN:
		snprintf(buf, size, "open(%s, %s)", a, flags);
		break;
	case OP_CREAT:
		snprintf(buf, size, "creat(%s, %s, 0%o)", a, flags, q->mode);
		break;
	case OP_MKDIR:
	case OP_MKDIR_ALL:
		snprintf(buf, size, "%s(%s, 0%o)", op_name(q->op), a, q->mode);
		break;
	case OP_MKNOD:
		snprintf(buf, size, "mknod(%s, %s|0%o)", a,
			 S_ISFIFO(q->mode) ? "S_IFIFO" : "S_IFREG",
			 q->mode & 07777);
		break;
	case OP_SYMLINK:
	case OP_HARDLINK:
		snprintf(buf, size, "%s(%s, %s)", op_name(q->op), a, b);
		break;
	case OP_RENAME:
		snprintf(buf, size, "rename(%s, %s, %s)", a, b, flags);
		break;
	case OP_READLINK:
		snprintf(buf, size, "readlink(%s, size %zu)", a, q->size);
		break;
	default:
		snprintf(buf, size, "%s(%s)", op_name(q->op), a);
	}
	return buf;
}

const char *answer_describe(char *buf, size_t size, const struct question *q,
			    const struct answer *a)
{
	const char *name;

	if (a->rc == -1) {
		name = strerrorname_np(a->err);
		snprintf(buf, size, "-1 %s", name != NULL ? name : "E?");
	} else if (op_returns_fd(q->op)) {
		snprintf(buf, size, "fd of %s %s", a->file,
			 a->fd_flags & O_PATH ? "O_PATH" :
			 (a->fd_flags & O_ACCMODE) == O_RDONLY ? "O_RDONLY" :
			 (a->fd_flags & O_ACCMODE) == O_WRONLY ? "O_WRONLY" :
			 "O_RDWR");
	} else if (q->op == OP_READLINK) {
		snprintf(buf, size, "%ld \"%s\"%s", a->rc, a->text,
			 a->past_untouched ? "" : " (wrote past the text)");
	} else {
		snprintf(buf, size, "%ld", a->rc);
	}
	return buf;
}

bool answers_agree(const struct question *q, const struct answer *a,
		   const struct answer *b)
{
	const int kind = O_ACCMODE | O_PATH;

	if (a->rc == -1 || b->rc == -1)
		return a->rc == b->rc && a->err == b->err;
	if (op_returns_fd(q->op))
		return strcmp(a->file, b->file) == 0 &&
		       (a->fd_flags & kind) == (b->fd_flags & kind);
	if (q->op == OP_READLINK)
		return a->rc == b->rc && strcmp(a->text, b->text) == 0 &&
		       a->past_untouched == b->past_untouched;
	return a->rc == b->rc;
}
