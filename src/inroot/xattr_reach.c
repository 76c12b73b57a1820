/*
 * An extended-attribute call on the file an O_PATH fd holds, never by a
 * name that could now lead elsewhere, and never by opening the file
 * (the kernel's own calls open nothing: an open for reading would break
 * another process's write lease, and is seen by inotify, fanotify and a
 * FUSE server; an open of a FIFO or a device has effects of its own).
 * In order:
 *
 * 1. the *xattrat call on the fd itself ("" and AT_EMPTY_PATH), for a
 *    kernel that takes an O_PATH fd there (6.18 does not: EBADF);
 * 2. the fd's proven /proc entry, followed by the *xattrat call (Linux
 *    6.13), which opens nothing;
 * 3. an fd of the file this process already holds open for reading;
 * 4. a directory: its own "." opened O_RDONLY|O_DIRECTORY, which is the
 *    directory itself, never a link, never a FIFO or a device, and on
 *    which no lease can be held (the open is seen by inotify);
 * 5. else EOPNOTSUPP: a regular file, link, device, FIFO or socket
 *    before 6.13 (or with the *xattrat calls refused), or without a
 *    proven /proc, where this process holds no fd of it open to read;
 *    EMFILE (or ENFILE) where /proc may be there but too few fds are
 *    free to prove it.
 */
#define _GNU_SOURCE /* O_PATH */
#include <fcntl.h>
#include <sys/stat.h>

#include "../fd_table/fd_held.h"
#include "../proc/proc_fd_dir.h"
#include "../syscalls/files.h"
#include "xattr_call.h"

/* Steps 1 and 2: their answer, or with *none set where neither is there,
 * -EOPNOTSUPP (-EMFILE or the like where too few fds were free to prove
 * /proc). */
static long without_open(const struct xattr_call *c, int fd,
			 const struct stat *st, bool *none)
{
	char entry[FD_NAME_SIZE];
	long r = libexecveat_xattr_at(c, fd, "", AT_EMPTY_PATH);
	int dir;

	if (r == -EBADF) { /* the call is there, but takes no O_PATH fd */
		dir = libexecveat_proc_entry(fd, st, entry);
		if (dir < 0) {
			*none = true;
			return dir;
		}
		r = libexecveat_xattr_at(c, dir, entry, 0);
		sys_close(dir);
	}
	*none = libexecveat_xattrat_refused(r);
	return *none ? -EOPNOTSUPP : r;
}

/* Step 4: the call on the directory's "." opened to read, then closed. */
static long on_directory(const struct xattr_call *c, int fd)
{
	int dir = sys_openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	long r;

	if (dir < 0)
		return dir == -EACCES ? -EOPNOTSUPP : dir;
	r = libexecveat_xattr_fd(c, dir);
	sys_close(dir);
	return r;
}

/* Steps 3 to 5; step 4, which opens, only with may_open. no_way: step
 * 5's answer. */
static long with_old_calls(const struct xattr_call *c, int fd,
			   const struct stat *st, bool may_open, long no_way)
{
	struct fd_holders holders = libexecveat_fd_holders(st);

	if (holders.reading >= 0)
		return libexecveat_xattr_fd(c, holders.reading);
	/* A directory held open by this process is the reading fd above:
	 * the close here drops no record lock of the process's. */
	if (S_ISDIR(st->st_mode) && may_open)
		return on_directory(c, fd);
	return no_way;
}

long libexecveat_xattr_opath(const struct xattr_call *c, int fd,
			     enum xattrat_known known)
{
	struct stat st;
	bool none;
	long r;

	r = sys_fstat(fd, &st);
	if (r < 0)
		return r;
	if (known != XATTRAT_UNASKED)
		return with_old_calls(c, fd, &st, known == XATTRAT_REFUSED,
				      -EOPNOTSUPP);
	r = without_open(c, fd, &st, &none);
	if (!none)
		return r;
	/* Where no other way is found: EOPNOTSUPP, or the fd limit's errno
	 * where too few fds were free to prove /proc. */
	return with_old_calls(c, fd, &st, true, r);
}
