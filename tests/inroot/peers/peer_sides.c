#define _GNU_SOURCE
#include "peer_sides.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "inroot.h"
#include "peer_tree.h"

/* What a call returned (an fd where has_fd): the fd is closed here. */
static void answer_of(struct peer_answer *a, long rc, bool has_fd)
{
	struct stat st;

	memset(a, 0, sizeof *a);
	if (rc < 0) {
		a->err = errno;
		return;
	}
	if (!has_fd) {
		a->value = rc;
		return;
	}
	a->has_file = true;
	if (fstat((int)rc, &st) == 0) {
		a->dev = st.st_dev;
		a->ino = st.st_ino;
		a->type = st.st_mode & S_IFMT;
	}
	a->flags = fcntl((int)rc, F_GETFL);
	close((int)rc);
}

static bool returns_fd(enum peer_op op)
{
	return op == OP_RESOLVE || op == OP_RESOLVE_NOFOLLOW ||
	       op == OP_OPEN || op == OP_CREAT || op == OP_MKDIR_ALL ||
	       op == OP_REOPEN;
}

/* A last name rmdir refuses for its form: ".", "..", or none at all
 * ("/"), trailing slashes aside. */
static bool last_name_unremovable(const char *path)
{
	size_t end = strlen(path), start;

	while (end > 0 && path[end - 1] == '/')
		end--;
	start = end;
	while (start > 0 && path[start - 1] != '/')
		start--;
	return end - start == 0 ||
	       (end - start == 1 && path[start] == '.') ||
	       (end - start == 2 && path[start] == '.' &&
		path[start + 1] == '.');
}

/*
 * mkdir_all as the header says it, by the kernel's calls alone: each
 * prefix of path made with mkdir, then opened as a directory, which is
 * what "a component that exists must lead to a directory" asks; a
 * prefix that exists but opens to nothing is a symlink that leads
 * nowhere, mkdir's EEXIST.
 */
static int kernel_mkdir_all(const char *path, mode_t mode)
{
	char prefix[PATH_MAX];
	size_t len = strlen(path), end = 0;

	while (end < len) {
		while (end < len && path[end] == '/')
			end++;
		if (end == len)
			break;
		while (end < len && path[end] != '/')
			end++;
		memcpy(prefix, path, end);
		prefix[end] = '\0';
		if (mkdir(prefix, mode) != 0 && errno != EEXIST)
			return -1;
		int fd = open(prefix, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0) {
			if (errno == ENOENT)
				errno = EEXIST;
			return -1;
		}
		close(fd);
	}
	return open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

/*
 * remove_all by the kernel's calls: unlink the name; where it is a
 * directory, empty it through an fd (never following a symlink) and
 * rmdir it. A name that does not exist is already removed. A name rmdir
 * refuses for its form (".", "..", the root itself) is not emptied
 * first: the answer is rmdir's, and nothing beneath it is touched.
 */
static int kernel_remove_all(const char *path)
{
	int fd, err;

	if (unlink(path) == 0 || errno == ENOENT)
		return 0;
	if (errno != EISDIR)
		return -1;
	if (last_name_unremovable(path))
		return rmdir(path);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	err = peer_tree_empty(fd);
	if (err != 0) {
		errno = err;
		return -1;
	}
	return rmdir(path);
}

/* The case asked as the kernel's own call, in the chroot. */
static long kernel_call(const struct peer_case *c, char *text, size_t size)
{
	switch (c->op) {
	case OP_RESOLVE:
		return open(c->path, O_PATH | O_CLOEXEC);
	case OP_RESOLVE_NOFOLLOW:
		return open(c->path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	case OP_OPEN:
		return open(c->path, c->flags | O_CLOEXEC);
	case OP_CREAT:
		/* O_TMPFILE makes a file without O_CREAT, which it refuses
		 * (EINVAL). */
		return open(c->path,
			    c->flags | O_CLOEXEC |
				    ((c->flags & O_TMPFILE) == O_TMPFILE ?
					     0 :
					     O_CREAT),
			    c->mode);
	case OP_MKDIR:
		return mkdir(c->path, c->mode);
	case OP_MKDIR_ALL:
		return kernel_mkdir_all(c->path, c->mode);
	case OP_MKNOD:
		return mknod(c->path, c->mode, makedev(c->major, c->minor));
	case OP_SYMLINK:
		return symlink(c->other, c->path);
	case OP_HARDLINK:
		return link(c->other, c->path);
	case OP_RENAME:
		return syscall(SYS_renameat2, AT_FDCWD, c->path, AT_FDCWD,
			       c->other, (unsigned)c->flags);
	case OP_UNLINK:
		return unlink(c->path);
	case OP_RMDIR:
		return rmdir(c->path);
	case OP_REMOVE_ALL:
		return kernel_remove_all(c->path);
	case OP_READLINK:
		return readlink(c->path, text, size);
	case OP_REOPEN:
		/* The file the path names, opened with the flags: what a
		 * reopen of the fd resolve found opens again. That file is
		 * no symlink (resolve followed it): O_NOFOLLOW has nothing
		 * to refuse. */
		return open(c->path, (c->flags & ~O_NOFOLLOW) | O_CLOEXEC);
	}
	errno = EINVAL;
	return -1;
}

/* inroot_reopen of what inroot_resolve found, which is closed. */
static int reopen_resolved(int root, const char *path, int flags)
{
	int fd = inroot_resolve(root, path), r, err;

	if (fd < 0)
		return -1;
	r = inroot_reopen(fd, flags);
	err = errno;
	close(fd);
	errno = err;
	return r;
}

/* The case asked of the library, on root. */
static long library_call(const struct peer_case *c, int root, char *text,
			 size_t size)
{
	switch (c->op) {
	case OP_RESOLVE:
		return inroot_resolve(root, c->path);
	case OP_RESOLVE_NOFOLLOW:
		return inroot_resolve_nofollow(root, c->path);
	case OP_OPEN:
		return inroot_open(root, c->path, c->flags);
	case OP_CREAT:
		return inroot_creat(root, c->path, c->flags, c->mode);
	case OP_MKDIR:
		return inroot_mkdir(root, c->path, c->mode);
	case OP_MKDIR_ALL:
		return inroot_mkdir_all(root, c->path, c->mode);
	case OP_MKNOD:
		return inroot_mknod(root, c->path, c->mode,
				    makedev(c->major, c->minor));
	case OP_SYMLINK:
		return inroot_symlink(root, c->path, c->other);
	case OP_HARDLINK:
		return inroot_hardlink(root, c->path, c->other);
	case OP_RENAME:
		return inroot_rename(root, c->path, c->other,
				     (unsigned)c->flags);
	case OP_UNLINK:
		return inroot_unlink(root, c->path);
	case OP_RMDIR:
		return inroot_rmdir(root, c->path);
	case OP_REMOVE_ALL:
		return inroot_remove_all(root, c->path);
	case OP_READLINK:
		return inroot_readlink(root, c->path, text, size);
	case OP_REOPEN:
		return reopen_resolved(root, c->path, c->flags);
	}
	errno = EINVAL;
	return -1;
}

/*
 * The kernel's answer, in this process: root moves to dir for the one
 * call, then back to where it was, through an fd of the old root (a
 * chroot does not close a way out held open, which is how a process
 * leaves one). Call it only in a child of the test's own, single
 * threaded: for the moment of the call, its root is the tree.
 */
int peer_kernel_side(const struct peer_case *c, const char *dir,
		     struct peer_answer *a)
{
	int old_root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	int old_cwd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	char text[PATH_MAX] = "";
	int err = 0;
	long rc;

	if (old_root < 0 || old_cwd < 0 || chroot(dir) != 0) {
		err = errno;
		goto out;
	}
	if (chdir("/") != 0) {
		err = errno;
	} else {
		rc = kernel_call(c, text, sizeof text - 1);
		answer_of(a, rc, returns_fd(c->op));
		if (c->op == OP_READLINK && rc >= 0)
			memcpy(a->text, text, (size_t)rc);
	}
	/* No way on without the old root: the process would walk the
	 * trees' paths inside the last one. */
	if (fchdir(old_root) != 0 || chroot(".") != 0 || fchdir(old_cwd) != 0)
		abort();
out:
	if (old_root >= 0)
		close(old_root);
	if (old_cwd >= 0)
		close(old_cwd);
	return err;
}

/* The lowest fd free: the one a leaked fd would have taken. */
static int lowest_free_fd(int fd)
{
	int probe = fcntl(fd, F_DUPFD_CLOEXEC, 0);

	if (probe >= 0)
		close(probe);
	return probe;
}

int peer_library_side(const struct peer_case *c, const char *dir,
		      struct peer_answer *a, bool *leaked)
{
	char text[PATH_MAX] = "";
	int root = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC), before;
	long rc;

	if (root < 0)
		return errno;
	before = lowest_free_fd(root);
	rc = library_call(c, root, text, sizeof text - 1);
	answer_of(a, rc, returns_fd(c->op));
	if (c->op == OP_READLINK && rc >= 0)
		memcpy(a->text, text,
		       (size_t)rc < sizeof text - 1 ? (size_t)rc :
						      sizeof text - 1);
	*leaked = lowest_free_fd(root) != before;
	close(root);
	return 0;
}
