/*
 * An extended-attribute call on the file an O_PATH fd holds, never by a
 * name that could now lead elsewhere, and without opening a FIFO or a
 * device (opening them has effects of their own). In order:
 *
 * 1. the fd's proven /proc entry, followed by the *xattrat call (6.13),
 *    which opens nothing;
 * 2. an fd of the file this process already holds open for reading;
 * 3. a directory through its own ".", opened to read: the directory
 *    itself, never a link;
 * 4. a regular file (or a directory whose "." its caller may not
 *    search), opened to read: through its own fd on Linux 7.2
 *    (O_EMPTYPATH), else through the proven /proc entry, else by its name
 *    in the held directory it was found in, checked before and after to
 *    be the same file (st_dev, st_ino), O_NOFOLLOW and O_NONBLOCK; where
 *    the process holds the file open to write (and so may hold record
 *    locks, which the close would drop): EBUSY;
 * 5. else EOPNOTSUPP.
 */
#define _GNU_SOURCE /* O_PATH */
#include <fcntl.h>
#include <sys/stat.h>

#include "../empty_path.h"
#include "execveat.h" /* O_EMPTYPATH */
#include "../fd_held.h"
#include "proc_entry.h"
#include "../same_file.h"
#include "../sys.h"
#include "xattr_call.h"

#ifndef O_LARGEFILE
#define O_LARGEFILE 0
#endif
#define READ_FLAGS (O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | \
		    O_CLOEXEC | O_LARGEFILE)

/* The call on fd, an fd opened for it and checked to be st's file; fd
 * closed after. */
static long on_opened(const struct xattr_call *c, int fd,
		      const struct stat *st)
{
	struct stat now;
	long r;

	if (fd < 0)
		return errno == EACCES ? -EOPNOTSUPP :
		       errno == ELOOP ? -EAGAIN : -errno;
	if (sys_fstat(fd, &now) != 0 || !libexecveat_same_file(&now, st))
		r = -EAGAIN;
	else
		r = libexecveat_xattr_fd(c, fd);
	sys_close(fd);
	return r;
}

/* Step 4 by name: what parent holds under name now, never opened unless
 * it is still st's file, a regular file or directory. */
static int open_by_name(int parent, const char *name, const struct stat *st)
{
	struct stat now;

	if (sys_fstatat(parent, name, &now, AT_SYMLINK_NOFOLLOW) != 0)
		return -1;
	if (!libexecveat_same_file(&now, st) ||
	    (now.st_mode & S_IFMT) != (st->st_mode & S_IFMT)) {
		errno = EAGAIN;
		return -1;
	}
	return sys_openat(parent, name, READ_FLAGS, 0);
}

/* Step 4: a readable fd of st's file, or -1 with errno. */
static int open_to_read(int fd, const struct stat *st, int parent,
			const char *name)
{
	char entry[FD_NAME_SIZE];
	int dir, opened;

	if (libexecveat_kernel_opens_empty_path())
		return sys_openat(fd, "", READ_FLAGS | O_EMPTYPATH, 0);
	dir = libexecveat_proc_entry(fd, st, entry);
	if (dir >= 0) {
		/* Following the entry is the reopening: no O_NOFOLLOW. */
		opened = sys_openat(dir, entry, READ_FLAGS & ~O_NOFOLLOW, 0);
		sys_close(dir);
		return opened;
	}
	if (name != NULL)
		return open_by_name(parent, name, st);
	errno = EOPNOTSUPP;
	return -1;
}

/* Step 1: 1 where there is no such way here. */
static long through_proc_entry(const struct xattr_call *c, int fd,
			       const struct stat *st)
{
	char entry[FD_NAME_SIZE];
	int dir = libexecveat_proc_entry(fd, st, entry);
	long r;

	if (dir < 0)
		return 1;
	r = libexecveat_xattr_at(c, dir, entry, 0);
	sys_close(dir);
	return libexecveat_xattrat_refused(r) ? 1 : r;
}

long libexecveat_xattr_opath(const struct xattr_call *c, int fd,
			     bool at_refused, int parent, const char *name)
{
	struct fd_holders holders;
	struct stat st;
	long r;

	if (sys_fstat(fd, &st) != 0)
		return -errno;
	if (!at_refused && (r = through_proc_entry(c, fd, &st)) != 1)
		return r;
	if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		return -EOPNOTSUPP;
	holders = libexecveat_fd_holders(&st);
	if (holders.reading >= 0)
		return libexecveat_xattr_fd(c, holders.reading);
	if (S_ISDIR(st.st_mode)) {
		r = on_opened(c, sys_openat(fd, ".", READ_FLAGS | O_DIRECTORY,
					    0), &st);
		if (r != -EOPNOTSUPP)
			return r;
	}
	if (holders.writing)
		return -EBUSY;
	return on_opened(c, open_to_read(fd, &st, parent, name), &st);
}
