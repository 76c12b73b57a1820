/*
 * inroot_utimens, inroot_futimens: a file's timestamps beneath a root,
 * and through an fd.
 *
 * The path form: utimensat of the held name with AT_SYMLINK_NOFOLLOW,
 * which every kernel since 2.6.22 takes. The fd form: utimensat(fd, "",
 * AT_EMPTY_PATH), which takes an O_PATH fd since Linux 5.8. Before 5.8
 * the kernel answers EINVAL to that flag (after its check of the times,
 * which is EINVAL too); which of the two it was is asked of the kernel
 * itself, and only for the flag is another way taken: the fd itself
 * where it is open to read or write (a NULL path), a directory's own
 * ".", or the fd's proven /proc entry, followed; none of them opens
 * anything. Else EOPNOTSUPP.
 */
#define _GNU_SOURCE /* O_PATH */
#include <fcntl.h>
#include <stdbool.h>
#include <sys/stat.h>

#include "../call_refused.h"
#include "../exports.h"
#include "held_file.h"
#include "inroot.h"
#include "../proc/proc_fd_dir.h"
#include "../syscalls/fds.h"
#include "../syscalls/files.h"

EXECVEAT_EXPORT int inroot_utimens(int root, const char *path,
				   const struct timespec *times, int flags)
{
	struct held_parent p;
	int r;

	r = libexecveat_hold_file_flags(root, path, flags, &p);
	if (r != 0)
		return answer(r);
	r = sys_utimensat(p.fd, p.name, times, AT_SYMLINK_NOFOLLOW);
	libexecveat_release_parent(&p);
	return answer(r);
}

/* That AT_EMPTY_PATH is refused, once proven (call_refused.h): a
 * kernel does not gain a flag, and a filter that refuses it is never
 * removed. */
static atomic_int empty_path_refused;

/* Whether this kernel takes AT_EMPTY_PATH in utimensat (Linux 5.8):
 * asked with fd -1, which such a kernel answers EBADF at its lookup, and
 * an older one EINVAL at its check of the flags. */
static bool kernel_takes_empty_path(void)
{
	int r = sys_utimensat(-1, "", NULL, AT_EMPTY_PATH);

	if (r != 0 && r != -EINVAL)
		return true;
	remember_refusal(&empty_path_refused);
	return false;
}

/* The kernel's first check of the times (fs/utimes.c), on every kernel:
 * an nsec that is neither UTIME_NOW, UTIME_OMIT nor in [0, 1e9). */
static bool times_valid(const struct timespec *ts)
{
	for (int i = 0; ts != NULL && i < 2; i++)
		if (ts[i].tv_nsec != UTIME_NOW && ts[i].tv_nsec != UTIME_OMIT &&
		    (ts[i].tv_nsec < 0 || ts[i].tv_nsec > 999999999))
			return false;
	return true;
}

/* Whether fd's directory lets the caller look up "." in it. */
static bool searchable(int fd)
{
	struct stat st;

	return sys_fstatat(fd, ".", &st, 0) == 0;
}

/* A way to fd's file that needs no AT_EMPTY_PATH. */
static int utimens_without_empty_path(int fd, const struct timespec ts[2])
{
	char name[FD_NAME_SIZE];
	struct stat st;
	int flags = sys_fcntl_getfl(fd), dir, r;

	if (flags < 0)
		return flags;
	if (!times_valid(ts))
		return -EINVAL;
	if (!(flags & O_PATH))
		return sys_utimensat(fd, NULL, ts, 0);
	r = sys_fstat(fd, &st);
	if (r < 0)
		return r;
	if (S_ISDIR(st.st_mode)) {
		r = sys_utimensat(fd, ".", ts, 0);
		/* An EACCES of "." itself (no search permission), which
		 * the /proc entry does not need; else the times' own. */
		if (r != -EACCES || searchable(fd))
			return r;
	}
	dir = libexecveat_proc_entry(fd, &st, name);
	if (dir < 0)
		return dir;
	r = sys_utimensat(dir, name, ts, 0);
	sys_close(dir);
	return r;
}

/*
 * Where the refusal of the flag is remembered, the way without it first:
 * its answers are the call's, and it opens nothing; only where it finds
 * none (EOPNOTSUPP, or EMFILE for want of fds to prove /proc) is the
 * call asked, as if nothing were remembered.
 */
EXECVEAT_EXPORT int inroot_futimens(int fd, const struct timespec *times)
{
	int r;

	if (refusal_remembered(&empty_path_refused)) {
		r = utimens_without_empty_path(fd, times);
		if (r != -EOPNOTSUPP && r != -EMFILE && r != -ENFILE)
			return answer(r);
	}
	r = sys_utimensat(fd, "", times, AT_EMPTY_PATH);
	if (r == -EINVAL && !kernel_takes_empty_path())
		r = utimens_without_empty_path(fd, times);
	return answer(r);
}
