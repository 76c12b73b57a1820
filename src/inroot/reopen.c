/*
 * inroot_reopen: a new open file of the file an fd refers to (an O_PATH
 * fd from inroot_resolve, typically), with new flags. Never by a name
 * that may now lead elsewhere, which is what makes an fd resolved inside
 * a root safe to open for reading or writing later. In order:
 *
 * 1. the file itself, no name at all: openat(fd, "", O_EMPTYPATH), where
 *    the kernel has it (Linux 7.2);
 * 2. a directory through its own ".", which is the directory itself and
 *    never a link. That open needs search permission on the directory,
 *    which the kernel's open of it does not: where "." is refused
 *    (EACCES) and the directory may be searched, the open's own
 *    permission refused it, and EACCES is the answer; where it may not be
 *    searched, step 3;
 * 3. this thread's /proc fd entry for fd, once the fd directory is proven
 *    procfs and this very table and the entry leads to fd's file
 *    (proc_fd_dir.c); the new fd is checked to be that file again;
 * 4. else EOPNOTSUPP: a name looked up again is what this refuses to do;
 *    but EMFILE (or ENFILE) where /proc may be there and too few fds are
 *    free to prove it (it takes three at once).
 *
 * The flags are taken as open(2) takes them, and the new fd is
 * close-on-exec (held_parent.h: libexecveat_inroot_how). The open's answers
 * that need no open are given first, alike in every step: ENOTDIR for
 * O_DIRECTORY on a file, EISDIR for a directory opened to write.
 * O_NOFOLLOW is dropped in step 3: following the fd's entry is the
 * reopening itself. O_CREAT, O_EXCL and O_TMPFILE make files; EINVAL.
 * The opens are the C library's openat, which gives a 32-bit program
 * O_LARGEFILE as open(2) does.
 */
#define _GNU_SOURCE /* O_PATH */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../openat2/empty_path.h"
#include "../exports.h"
#include "held_parent.h"
#include "inroot.h"
#include "../proc/proc_fd_dir.h"
#include "../path/same_file.h"
#include "../syscalls/fds.h"
#include "../syscalls/files.h"

#ifndef O_TMPFILE
#define O_TMPFILE (020000000 | O_DIRECTORY)
#endif

/* The new fd (or the open's -errno), checked to be st's file: else
 * closed, EAGAIN (another thread replaced fd meanwhile). */
static int checked(int fd, const struct stat *st)
{
	struct stat now;

	if (fd < 0)
		return fd;
	if (sys_fstat(fd, &now) == 0 && libexecveat_same_file(&now, st))
		return fd;
	sys_close(fd);
	return -EAGAIN;
}

/* Step 3: the new fd, -errno, or -EOPNOTSUPP with no proven entry
 * (-EMFILE where too few fds are free to prove one). */
static int reopen_through_proc(int fd, int flags, const struct stat *st)
{
	char name[FD_NAME_SIZE];
	int dir = libexecveat_proc_entry(fd, st, name), moved, r;

	if (dir < 0)
		return dir;
	/* The directory moved above the number it took, so that the new fd
	 * takes the lowest free one, as an open's does. */
	moved = sys_fcntl_dupfd_cloexec(dir, dir + 1);
	if (moved >= 0) {
		sys_close(dir);
		dir = moved;
	}
	r = checked(call_result(openat(dir, name, flags & ~O_NOFOLLOW)), st);
	sys_close(dir);
	return r;
}

/*
 * What the open answers before any permission is asked, whichever way it
 * is made (fs/namei.c: do_open, then may_open): ENOTDIR for O_DIRECTORY
 * on a file; EISDIR for a directory opened to write or truncate (O_PATH
 * asks neither). Else 0.
 */
static int open_refusal(int flags, const struct stat *st)
{
	if ((flags & O_DIRECTORY) && !S_ISDIR(st->st_mode))
		return -ENOTDIR;
	if (S_ISDIR(st->st_mode) && !(flags & O_PATH) &&
	    ((flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC)))
		return -EISDIR;
	return 0;
}

/* Step 2: the directory's "." opened; -EOPNOTSUPP where the caller may
 * not search it (step 3 then). */
static int reopen_directory(int fd, int flags, const struct stat *st)
{
	struct stat here;
	int r = checked(call_result(openat(fd, ".", flags)), st);

	if (r != -EACCES || sys_fstatat(fd, ".", &here, 0) == 0)
		return r;
	return -EOPNOTSUPP;
}

static int reopen(int fd, int flags)
{
	struct stat st;
	int r;

	if ((flags & (O_CREAT | O_EXCL)) || (flags & O_TMPFILE) == O_TMPFILE)
		return -EINVAL;
	r = sys_fstat(fd, &st);
	if (r == 0)
		r = open_refusal(flags, &st);
	if (r != 0)
		return r;
	if (libexecveat_kernel_opens_empty_path())
		return call_result(openat(fd, "", flags | O_EMPTYPATH));
	r = S_ISDIR(st.st_mode) ? reopen_directory(fd, flags, &st) :
				  -EOPNOTSUPP;
	return r == -EOPNOTSUPP ? reopen_through_proc(fd, flags, &st) : r;
}

EXECVEAT_EXPORT int inroot_reopen(int fd, int flags)
{
	return answer(reopen(fd, (int)libexecveat_inroot_how(flags, 0).flags));
}
