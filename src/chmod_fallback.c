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
 *    fd (".", which no rename can change; where "." may not be searched,
 *    by its name in its parent), a regular file by its name in its
 *    parent directory. The parent is opened once, first, and the name is
 *    looked up in that fd both times: a parent swapped for a symlink
 *    meanwhile changes nothing, so nothing the caller did not name is
 *    opened. What is left: the name itself swapped, in that directory,
 *    for a FIFO or a device between the look and the reopen; O_NONBLOCK
 *    keeps that open from waiting, and the file is then not changed
 *    (EAGAIN) (fchmodat(3), BUGS);
 * 4. anything else (a device, a FIFO, a socket: opening them has effects)
 *    gets EOPNOTSUPP, as glibc answers without /proc.
 *
 * Step 3 opens the file for reading, so it needs read permission, which a
 * chmod does not: where the open is refused (EACCES), EOPNOTSUPP.
 */
#define _GNU_SOURCE /* O_LARGEFILE */
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

/* O_LARGEFILE: a chmod has nothing to do with a file's size, and a
 * 32-bit process's open without it refuses a file over 2 GiB
 * (EOVERFLOW); it is 0 where off_t is 64-bit by itself. */
#define REOPEN_FLAGS                                                     \
	(O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC |      \
	 O_LARGEFILE)

int libexecveat_chmod_by_reopening(int parent, const char *name,
				   const struct stat *st, mode_t mode)
{
	int fd = sys_openat(parent, name, REOPEN_FLAGS, 0);

	return fd < 0 ? reopen_failed() : chmod_opened(fd, st, mode);
}

/* A directory, through its own O_PATH fd: "." is the directory itself.
 * Looking "." up needs search permission on it, which its owner may have
 * taken away (mode 0644): then by its name in its parent (parent -1 and
 * name NULL where it has none here). */
static int chmod_directory(int fd, int parent, const char *name,
			   const struct stat *st, mode_t mode)
{
	int opened = sys_openat(fd, ".", REOPEN_FLAGS | O_DIRECTORY, 0);

	if (opened < 0 && errno == EACCES && name != NULL)
		opened = sys_openat(parent, name, REOPEN_FLAGS | O_DIRECTORY, 0);
	return opened < 0 ? reopen_failed() : chmod_opened(opened, st, mode);
}

/*
 * Steps 1 to 4 for the file open (O_PATH) at fd, which is name in the
 * directory open at parent, or (name NULL) has no name here to be
 * opened again by.
 */
static int chmod_file(int fd, int parent, const char *name, mode_t mode)
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
		return chmod_directory(fd, parent, name, &st, mode);
	if (S_ISREG(st.st_mode) && name != NULL)
		return libexecveat_chmod_by_reopening(parent, name, &st, mode);
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
	return chmod_file(fd, -1, NULL, mode);
}

/*
 * Where path's last component starts: after its last slash, or 0; -1
 * where it ends in a slash, ".", or "..", which name a directory the
 * walk reaches through itself (no name to open it again by).
 */
static long last_name_at(const char *path)
{
	size_t n, start = 0;

	for (n = 0; path[n] != '\0'; n++)
		if (path[n] == '/')
			start = n + 1;
	if (path[start] == '\0' ||
	    (path[start] == '.' && (path[start + 1] == '\0' ||
				    (path[start + 1] == '.' &&
				     path[start + 2] == '\0'))))
		return -1;
	return (long)start;
}

/*
 * The parent of path's last name, opened O_PATH as the kernel's lookup
 * reaches it (following symlinks on the way): dirfd itself where path has
 * no slash (whatever it is: the lookup in it answers for it). An fd, or
 * -1 with errno.
 */
static int open_parent(int dirfd, const char *path, size_t name_at)
{
	char parent[4096];
	size_t n;

	if (name_at == 0)
		return dirfd;
	if (name_at > sizeof(parent)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	/* "/name": the parent is "/"; "a//name": "a/". */
	for (n = 0; n < name_at - 1; n++)
		parent[n] = path[n];
	if (n == 0)
		parent[n++] = '/';
	parent[n] = '\0';
	return sys_openat(dirfd, parent, O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
}

/*
 * The kernel copies the path in before it does anything else with it,
 * and answers EFAULT where it cannot read it: the library reads none of
 * it before the kernel has. fstatat with dirfd -1 copies a relative path
 * in and then fails on the dirfd (EBADF) without a lookup; an absolute
 * one is looked up, which changes nothing.
 */
static bool kernel_cannot_read(const char *path)
{
	struct stat st;
	int saved_errno = errno;
	bool unreadable = sys_fstatat(-1, path, &st, AT_SYMLINK_NOFOLLOW) < 0 &&
			  errno == EFAULT;

	errno = saved_errno;
	return unreadable;
}

/* AT_SYMLINK_NOFOLLOW, a path with a name: the parent opened once, the
 * name looked up in it without following a symlink, and every step after
 * relative to those fds. */
static int chmod_named(int dirfd, const char *path, mode_t mode)
{
	long name_at = last_name_at(path);
	int parent, fd, rc = -1, err;

	if (name_at < 0) {
		fd = sys_openat(dirfd, path, O_PATH | O_NOFOLLOW | O_CLOEXEC, 0);
		if (fd < 0)
			return -1;
		rc = chmod_file(fd, -1, NULL, mode);
		err = errno;
		sys_close(fd);
		errno = err;
		return rc;
	}
	parent = open_parent(dirfd, path, (size_t)name_at);
	if (name_at > 0 && parent < 0)
		return -1;
	fd = sys_openat(parent, path + name_at, O_PATH | O_NOFOLLOW | O_CLOEXEC,
			0);
	if (fd >= 0) {
		rc = chmod_file(fd, parent, path + name_at, mode);
		err = errno;
		sys_close(fd);
		errno = err;
	}
	if (parent != dirfd) {
		err = errno;
		sys_close(parent);
		errno = err;
	}
	return rc;
}

int libexecveat_chmod_without_fchmodat2(int dirfd, const char *path,
					mode_t mode, int flags)
{
	if ((flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH)) != 0) {
		errno = EINVAL;
		return -1;
	}
	if (pointer_is_null(path) || kernel_cannot_read(path)) {
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
	return chmod_named(dirfd, path[0] != '\0' ? path : ".", mode);
}
