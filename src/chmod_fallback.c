/*
 * Changing a file's mode without fchmodat2 and without following a last
 * symlink.
 *
 * The old fchmodat system call has no flags and follows symlinks, and
 * fchmod refuses O_PATH fds. glibc 2.36 opens the file O_PATH|O_NOFOLLOW
 * and chmods "/proc/self/fd/N" by name: without /proc that is EOPNOTSUPP,
 * and under a fake /proc it changes whatever file the fake names. Here:
 *
 * 1. a symlink gets EOPNOTSUPP, the kernel's own answer (Linux 6.6);
 * 2. through this thread's fd directory, proven procfs and this table
 *    (proc_fd_dir.c), its entry for the fd checked to be the file, and
 *    the chmod made relative to that same directory fd;
 * 3. without one, a regular file or a directory is opened again, never
 *    through a last symlink, and changed by fchmod only if it is still
 *    the same file (st_dev, st_ino): a directory through its own O_PATH
 *    fd (".", which no rename can change), a regular file through its
 *    parent directory, by its name;
 * 4. anything else (a device, a FIFO, a socket: opening them has effects)
 *    gets EOPNOTSUPP, as glibc answers without /proc.
 *
 * Step 3 opens the file for reading, so it needs read permission, which a
 * chmod does not: where the open is refused (EACCES), EOPNOTSUPP.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include "chmod_fallback.h"
#include "null_check.h"
#include "proc_fd_dir.h"
#include "sys.h"

#ifndef O_PATH
#define O_PATH 010000000 /* <asm-generic/fcntl.h>; the same on our ABIs */
#endif
#ifndef AT_SYMLINK_NOFOLLOW
#define AT_SYMLINK_NOFOLLOW 0x100
#endif

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Step 2: 1 (no proven directory), or fchmodat's own 0 or -1. */
static int chmod_through_proc(int fd, const struct stat *st, mode_t mode)
{
	enum proc_fd_dir_verdict verdict;
	char name[FD_NAME_SIZE];
	int dir = libexecveat_proc_fd_dir_open(&verdict);
	int rc = 1;

	if (dir < 0)
		return 1;
	if (libexecveat_proc_fd_names(dir, fd, st)) {
		libexecveat_fd_name(name, fd);
		rc = sys_fchmodat(dir, name, (unsigned int)mode);
	}
	sys_close(dir);
	return rc;
}

/* fchmod of an fd opened for the purpose, then closed; errno kept. */
static int chmod_opened(int fd, const struct stat *st, mode_t mode)
{
	struct stat now;
	int rc, err;

	if (sys_fstat(fd, &now) != 0 || !same_file(&now, st)) {
		err = EAGAIN;
		rc = -1;
	} else {
		rc = sys_fchmod(fd, (unsigned int)mode);
		err = errno;
	}
	sys_close(fd);
	errno = err;
	return rc;
}

/* The open of step 3 refused: what that says about the chmod. */
static int reopen_failed(void)
{
	if (errno == ELOOP)       /* a symlink now: the name has changed */
		errno = EAGAIN;
	else if (errno == EACCES) /* no read permission: no way here */
		errno = EOPNOTSUPP;
	return -1;
}

#define REOPEN_FLAGS (O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)

int libexecveat_chmod_by_reopening(int parent, const char *name,
				   const struct stat *st, mode_t mode)
{
	int fd = sys_openat(parent, name, REOPEN_FLAGS, 0);

	return fd < 0 ? reopen_failed() : chmod_opened(fd, st, mode);
}

/* A directory, through its own O_PATH fd: "." is the directory itself. */
static int chmod_directory(int fd, const struct stat *st, mode_t mode)
{
	int opened = sys_openat(fd, ".", REOPEN_FLAGS | O_DIRECTORY, 0);

	return opened < 0 ? reopen_failed() : chmod_opened(opened, st, mode);
}

/*
 * A regular file, through its parent: path's last component (no trailing
 * slash: a regular file with one is ENOTDIR before this) in the
 * directory that the part before it names, looked up as the kernel does.
 */
static int chmod_regular(int dirfd, const char *path, const struct stat *st,
			 mode_t mode)
{
	char parent[4096];
	size_t slash = (size_t)-1, n;
	int parent_fd, rc;

	for (n = 0; path[n] != '\0'; n++)
		if (path[n] == '/')
			slash = n;
	if (slash == (size_t)-1)
		return libexecveat_chmod_by_reopening(dirfd, path, st, mode);
	if (slash >= sizeof(parent)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	/* "/name": the parent is the root, "/". */
	for (n = 0; n < (slash == 0 ? 1 : slash); n++)
		parent[n] = path[n];
	parent[n] = '\0';
	parent_fd = sys_openat(dirfd, parent,
			       O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
	if (parent_fd < 0)
		return -1;
	rc = libexecveat_chmod_by_reopening(parent_fd, path + slash + 1, st,
					    mode);
	sys_close(parent_fd);
	return rc;
}

/* Steps 1 to 4 for the file open (O_PATH) at fd, found by path. */
static int chmod_file(int fd, int dirfd, const char *path, mode_t mode)
{
	struct stat st;
	int rc;

	if (sys_fstat(fd, &st) != 0)
		return -1;
	if (S_ISLNK(st.st_mode)) {
		errno = EOPNOTSUPP;
		return -1;
	}
	rc = chmod_through_proc(fd, &st, mode);
	if (rc != 1)
		return rc;
	if (S_ISDIR(st.st_mode))
		return chmod_directory(fd, &st, mode);
	if (S_ISREG(st.st_mode) && path[0] != '\0')
		return chmod_regular(dirfd, path, &st, mode);
	errno = EOPNOTSUPP;
	return -1;
}

/*
 * AT_EMPTY_PATH with "": the file open at fd. An fd opened for reading or
 * writing takes fchmod; an O_PATH one (EBADF there) takes the steps
 * above, but has no name to be opened again by.
 */
static int chmod_fd_itself(int fd, mode_t mode)
{
	struct stat st;

	if (sys_fstat(fd, &st) != 0)
		return -1;
	if (!S_ISLNK(st.st_mode)) {
		int rc = sys_fchmod(fd, (unsigned int)mode);

		if (rc == 0 || errno != EBADF)
			return rc;
	}
	return chmod_file(fd, fd, "", mode);
}

int libexecveat_chmod_without_fchmodat2(int dirfd, const char *path,
					mode_t mode, int flags)
{
	int fd, rc, err;

	if ((flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH)) != 0) {
		errno = EINVAL;
		return -1;
	}
	if (pointer_is_null(path)) {
		errno = EFAULT;
		return -1;
	}
	/* Following a last symlink, the old call is the whole answer. */
	if (!(flags & AT_SYMLINK_NOFOLLOW) &&
	    !(path[0] == '\0' && (flags & AT_EMPTY_PATH)))
		return sys_fchmodat(dirfd, path, (unsigned int)mode);

	if (path[0] == '\0' && !(flags & AT_EMPTY_PATH)) {
		errno = ENOENT;
		return -1;
	}
	if (path[0] == '\0' && dirfd != AT_FDCWD)
		return chmod_fd_itself(dirfd, mode);
	fd = sys_openat(dirfd, path[0] != '\0' ? path : ".",
			O_PATH | O_CLOEXEC |
			((flags & AT_SYMLINK_NOFOLLOW) ? O_NOFOLLOW : 0), 0);
	if (fd < 0)
		return -1;
	rc = chmod_file(fd, dirfd, path, mode);
	err = errno;
	sys_close(fd);
	errno = err;
	return rc;
}
