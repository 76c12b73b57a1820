/*
 * Changing a file's mode without fchmodat2 and without following a last
 * symlink.
 *
 * The old fchmodat system call has no flags and follows symlinks, and
 * fchmod refuses O_PATH fds. glibc 2.36 opens the file O_PATH|O_NOFOLLOW
 * and chmods "/proc/self/fd/N" by name: without /proc that is EOPNOTSUPP,
 * and under a fake /proc it changes whatever file the fake names.
 *
 * The kernel's chmod opens nothing, so neither may this: an open for
 * reading breaks another process's write lease (F_SETLEASE; Linux 7.2's
 * O_EMPTYPATH reopen too), an open of a FIFO releases a writer blocked in
 * its own open, a device's open has effects of its own, and the close of
 * an fd that is not O_PATH drops every POSIX record lock the process
 * holds on the file. Here:
 *
 * 1. a symlink gets EOPNOTSUPP, the kernel's own answer (Linux 6.6);
 * 2. through this thread's fd directory, proven procfs and this table
 *    (proc_fd_dir.c), its entry for the fd checked to be the file, and
 *    the chmod made relative to that same directory fd;
 * 3. a directory through its own O_PATH fd: the old fchmodat of ".",
 *    which is the directory itself and never a symlink, opens nothing;
 * 4. an fd of the file that this process holds open to read or write,
 *    found in its fd table: fchmod on it, with nothing opened or closed;
 * 5. a directory whose "." its caller may not search, opened again with
 *    O_DIRECTORY: on Linux 7.2 and later through its own O_PATH fd
 *    (O_EMPTYPATH, no name at all); before, by its name in its parent
 *    directory, which is held open (O_PATH) from before the name is
 *    checked, and O_NOFOLLOW. The kernel refuses O_DIRECTORY of anything
 *    but a directory (a FIFO, a device, a symlink swapped in) with
 *    ENOTDIR before it opens it (fs/namei.c: do_open, before may_open
 *    and vfs_open), and no lease can be held on a directory (fs/locks.c:
 *    regular files only); changed by fchmod only if it is still the same
 *    file (st_dev, st_ino), else EAGAIN. The close drops no record lock:
 *    step 4 found no fd of the directory in the process;
 * 6. anything else gets EOPNOTSUPP, as glibc answers without /proc: a
 *    regular file, a device, a FIFO or a socket that the process does not
 *    hold open; but on a read-only mount EROFS, the kernel's answer; and
 *    where /proc is there and only the fds to prove it with are missing,
 *    EMFILE (or ENFILE), the fd limit's answer.
 *
 * Step 5 needs read permission on the directory, which a chmod does not:
 * where the open is refused (EACCES), EOPNOTSUPP.
 */
#define _GNU_SOURCE /* O_LARGEFILE */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/statvfs.h> /* ST_RDONLY, which statfs's f_flags holds too */

#include "chmod_fallback.h"
#include "execveat.h" /* O_EMPTYPATH (Linux 7.2) */
#include "../fd_table/fd_held.h"
#include "../null_check.h"
#include "../path/path_name.h"
#include "../proc/proc_fd_name.h"
#include "../proc/proc_fd_dir.h"
#include "../path/same_file.h"
#include "../syscalls/files.h"

#ifndef O_PATH
#define O_PATH 010000000 /* <asm-generic/fcntl.h>; the same on our ABIs */
#endif
#ifndef AT_SYMLINK_NOFOLLOW
#define AT_SYMLINK_NOFOLLOW 0x100
#endif
/*
 * A 32-bit program's openat does not add O_LARGEFILE on a 64-bit kernel,
 * and without it the open of a file over 2 GiB fails (EOVERFLOW). 0 on
 * the 64-bit ABIs, whose kernels add it themselves.
 */
#ifndef O_LARGEFILE
#define O_LARGEFILE 0
#endif

#define LOOKUP_FLAGS (O_PATH | O_NOFOLLOW | O_CLOEXEC | O_LARGEFILE)
#define REOPEN_DIRECTORY (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

/*
 * Step 2: 1 (no proven directory), or fchmodat's own 0 or -errno. Where
 * the directory is not proven for want of fds, *short_of says why
 * (-EMFILE, -ENFILE): then that, not EOPNOTSUPP, is the answer where no
 * other step can change the mode, as for the fds the other steps open.
 */
static int chmod_through_proc(int fd, const struct stat *st, mode_t mode,
			      int *short_of)
{
	enum proc_fd_dir_verdict verdict;
	char name[FD_NAME_SIZE];
	int dir = libexecveat_proc_fd_dir_open(&verdict);
	int r = 1;

	if (dir < 0) {
		*short_of = verdict == PROC_FD_DIR_NO_FD ? dir : 0;
		return 1;
	}
	if (libexecveat_proc_fd_names(dir, fd, st)) {
		libexecveat_fd_name(name, fd);
		r = sys_fchmodat(dir, name, (unsigned int)mode);
	}
	sys_close(dir);
	return r;
}

/* fchmod of an fd opened for the purpose, then closed. */
static int chmod_opened(int fd, const struct stat *st, mode_t mode)
{
	struct stat now;
	int r;

	if (sys_fstat(fd, &now) != 0 || !libexecveat_same_file(&now, st))
		r = -EAGAIN;
	else
		r = sys_fchmod(fd, (unsigned int)mode);
	sys_close(fd);
	return r;
}

/* The open of step 5 refused (r): what that says about the chmod. */
static int reopen_failed(int r)
{
	/* No directory now (O_DIRECTORY: ENOTDIR; O_NOFOLLOW: ELOOP): the
	 * name has changed. */
	if (r == -ENOTDIR || r == -ELOOP)
		return -EAGAIN;
	if (r == -EACCES) /* no read permission: no way here */
		return -EOPNOTSUPP;
	return r;
}

/*
 * Step 4: fchmod through an fd that this process holds open of the file;
 * 1 where it holds none. Checked again just before: another thread may
 * have closed that fd and opened another file at its number since the
 * scan.
 */
static int chmod_held_open(const struct stat *st, mode_t mode)
{
	struct fd_holders holders = libexecveat_fd_holders(st);
	struct stat now;

	if (holders.open == -1)
		return 1;
	if (sys_fstat(holders.open, &now) != 0 ||
	    !libexecveat_same_file(&now, st))
		return -EAGAIN;
	return sys_fchmod(holders.open, (unsigned int)mode);
}

/* Step 5 on Linux 7.2+: the O_PATH fd's own directory opened, no name
 * looked up; 1 where the kernel has no O_EMPTYPATH. */
static int chmod_reopened_itself(int fd, const struct stat *st, mode_t mode)
{
	int reopened = sys_openat(fd, "", REOPEN_DIRECTORY | O_EMPTYPATH, 0);

	if (reopened < 0)
		return reopened == -ENOENT ? 1 : reopen_failed(reopened);
	return chmod_opened(reopened, st, mode);
}

int libexecveat_chmod_by_reopening(int parent, const char *name,
				   const struct stat *st, mode_t mode)
{
	struct stat now;
	int fd, r = sys_fstatat(parent, name, &now, AT_SYMLINK_NOFOLLOW);

	/* What parent holds under name now, without opening it: anything
	 * but the directory first looked up is never opened. */
	if (r < 0)
		return reopen_failed(r);
	if (!S_ISDIR(st->st_mode) || !S_ISDIR(now.st_mode) ||
	    !libexecveat_same_file(&now, st))
		return -EAGAIN;
	/* Swapped since for anything but a directory: ENOTDIR, unopened. */
	fd = sys_openat(parent, name, REOPEN_DIRECTORY, 0);
	return fd < 0 ? reopen_failed(fd) : chmod_opened(fd, st, mode);
}

/*
 * Step 5 from path: its last component in the directory that the part
 * before it names, that directory held open O_PATH. Trailing slashes
 * belong to no component. A last "." or ".." names no entry of a parent
 * to open again.
 */
static int chmod_by_name(int dirfd, const char *path, const struct stat *st,
			 mode_t mode)
{
	char parent[4096];
	size_t start, end, n;
	int parent_fd, r;

	if (libexecveat_last_name(path, &start, &end) != LAST_IS_NAME ||
	    end - start >= sizeof(parent))
		return -EOPNOTSUPP;
	if (start >= sizeof(parent))
		return -ENAMETOOLONG;
	/* "name": dirfd's "."; "/name": the root; "a/name": "a". */
	if (start == 0) {
		parent[0] = '.';
		n = 1;
	} else {
		n = start == 1 ? 1 : start - 1;
		for (size_t i = 0; i < n; i++)
			parent[i] = path[i];
	}
	parent[n] = '\0';
	parent_fd = sys_openat(dirfd, parent,
			       O_PATH | O_DIRECTORY | O_CLOEXEC | O_LARGEFILE,
			       0);
	if (parent_fd < 0)
		return parent_fd;
	for (n = 0; start + n < end; n++)
		parent[n] = path[start + n];
	parent[n] = '\0';
	r = libexecveat_chmod_by_reopening(parent_fd, parent, st, mode);
	sys_close(parent_fd);
	return r;
}

/*
 * Step 6: EOPNOTSUPP; but on a read-only mount the kernel's chmod says
 * EROFS before it asks anything of the file (fs/open.c: chmod_common,
 * mnt_want_write first), which the mount's flags tell without an open.
 */
static int no_way(int fd)
{
	struct statfs sfs;

	if (sys_fstatfs(fd, &sfs) == 0 && (sfs.f_flags & ST_RDONLY))
		return -EROFS;
	return -EOPNOTSUPP;
}

/* Steps 3 to 6, for the file open (O_PATH) at fd, of status *st, found
 * by path ("": no name to open it again by). */
static int chmod_without_proc(int fd, int dirfd, const char *path,
			      const struct stat *st, mode_t mode,
			      bool may_open)
{
	int r;

	if (S_ISDIR(st->st_mode)) {
		/* The lookup of "." needs search permission, which a mode
		 * such as 0644 takes from the directory's own owner. */
		r = sys_fchmodat(fd, ".", (unsigned int)mode);
		if (r != -EACCES)
			return r;
	}
	r = chmod_held_open(st, mode);
	if (r != 1)
		return r;
	if (!S_ISDIR(st->st_mode))
		return no_way(fd);
	if (!may_open)
		return CHMOD_WOULD_OPEN;
	r = chmod_reopened_itself(fd, st, mode);
	if (r != 1)
		return r;
	if (path[0] == '\0')
		return -EOPNOTSUPP;
	return chmod_by_name(dirfd, path, st, mode);
}

/* Steps 1 to 6 for the file open (O_PATH) at fd, found by path. */
static int chmod_file(int fd, int dirfd, const char *path, mode_t mode,
		      bool may_open)
{
	struct stat st;
	int r = sys_fstat(fd, &st), short_of = 0;

	if (r < 0)
		return r;
	if (S_ISLNK(st.st_mode))
		return -EOPNOTSUPP;
	r = chmod_through_proc(fd, &st, mode, &short_of);
	if (r != 1)
		return r;
	r = chmod_without_proc(fd, dirfd, path, &st, mode, may_open);
	/* No way here, but /proc's, had fds been free. */
	if (r == -EOPNOTSUPP && short_of != 0)
		r = short_of;
	return r;
}

/* A lookup's O_PATH fd (or its -errno) given to chmod_file, then
 * closed. */
static int chmod_looked_up(int fd, int dirfd, const char *path, mode_t mode,
			   bool may_open)
{
	int r;

	if (fd < 0)
		return fd;
	r = chmod_file(fd, dirfd, path, mode, may_open);
	sys_close(fd);
	return r;
}

/*
 * The working directory (AT_FDCWD with ""), which the kernel changes with
 * no lookup at all: through its proven /proc name (/proc/thread-self/cwd),
 * or else as the directory that "." names, whose lookup needs a search
 * permission on it that the kernel's change does not; where that is
 * refused, no way is left (EOPNOTSUPP), not the lookup's EACCES.
 */
static int chmod_cwd(mode_t mode, bool may_open)
{
	struct proc_fd_name name;
	int fd;

	if (libexecveat_proc_cwd_find(&name) == PROC_FD_SAME_FILE)
		return sys_fchmodat(AT_FDCWD, name.path, (unsigned int)mode);
	fd = sys_openat(AT_FDCWD, ".", LOOKUP_FLAGS, 0);
	if (fd == -EACCES)
		fd = -EOPNOTSUPP;
	return chmod_looked_up(fd, AT_FDCWD, "", mode, may_open);
}

/*
 * AT_EMPTY_PATH with "": the file open at fd (AT_FDCWD: the working
 * directory). An fd opened for reading or writing takes fchmod; an O_PATH
 * one (EBADF there) takes the steps above, with no name to be opened
 * again by.
 */
static int chmod_fd_itself(int fd, mode_t mode, bool may_open)
{
	struct stat st;
	int r;

	if (fd == AT_FDCWD)
		return chmod_cwd(mode, may_open);
	r = sys_fstat(fd, &st);
	if (r < 0)
		return r;
	if (!S_ISLNK(st.st_mode)) {
		r = sys_fchmod(fd, (unsigned int)mode);
		if (r != -EBADF)
			return r;
	}
	/* The caller's fd stays open. */
	return chmod_file(fd, fd, "", mode, may_open);
}

/*
 * No byte of path is read here before a system call has read it: an
 * unreadable path is the kernel's EFAULT, as from fchmodat2, never a
 * SIGSEGV in the library.
 */
int libexecveat_chmod_without_fchmodat2(int dirfd, const char *path,
					mode_t mode, int flags, bool may_open)
{
	struct stat st;
	int fd;

	if ((flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH)) != 0)
		return -EINVAL;
	if (pointer_is_null(path))
		return -EFAULT;
	/* AT_EMPTY_PATH alone: following a last symlink, the old call is the
	 * whole answer, unless path is "". */
	if (!(flags & AT_SYMLINK_NOFOLLOW)) {
		int r = sys_fstatat(dirfd, path, &st, AT_EMPTY_PATH);

		if (r < 0)
			return r;
		return path[0] != '\0' ?
			       sys_fchmodat(dirfd, path, (unsigned int)mode) :
			       chmod_fd_itself(dirfd, mode, may_open);
	}
	fd = sys_openat(dirfd, path, LOOKUP_FLAGS, 0);
	/* openat has no empty paths: "" is ENOENT, after the read. */
	if (fd == -ENOENT && (flags & AT_EMPTY_PATH) && path[0] == '\0')
		return chmod_fd_itself(dirfd, mode, may_open);
	return chmod_looked_up(fd, dirfd, path, mode, may_open);
}
