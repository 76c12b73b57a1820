/*
 * inroot_chmod, inroot_fchmod: a file's mode beneath a root, and through
 * an fd, without ever opening the file (the kernel's chmod opens
 * nothing: an open for reading would break another process's write
 * lease, and is seen by inotify, fanotify and a FUSE server; an open of
 * a FIFO or a device has effects of its own). In order:
 *
 * 1. fchmodat2 (Linux 6.6): AT_SYMLINK_NOFOLLOW on the held name, or
 *    AT_EMPTY_PATH on the fd, an O_PATH one too. Only where that call
 *    is refused (ENOSYS, or an EPERM of a policy rather than of the
 *    file; remembered once proven, with fchmodat(3)'s:
 *    chmod/fchmodat2_refusal.h) is the file held O_PATH, the path form
 *    opening the held name O_PATH|O_NOFOLLOW in the held directory, and
 *    then:
 * 2. a symlink: EOPNOTSUPP, fchmodat2's own answer;
 * 3. an fd open to read or write: fchmod;
 * 4. a directory: the old fchmodat of "." in it, which is the directory
 *    itself and never a link (it needs search permission on it);
 * 5. the fd's proven /proc entry, followed by the old fchmodat, which
 *    opens nothing;
 * 6. else EOPNOTSUPP: a regular file, a device, a FIFO or a socket on a
 *    kernel before 6.6 (or with fchmodat2 refused) without a proven
 *    /proc, or a directory its caller may not search.
 */
#define _GNU_SOURCE /* O_PATH */
#include <fcntl.h>
#include <sys/stat.h>

#include "../chmod/fchmodat2_refusal.h"
#include "../exports.h"
#include "held_file.h"
#include "inroot.h"
#include "../proc/proc_fd_dir.h"
#include "../syscalls/fds.h"
#include "../syscalls/files.h"

/* Steps 2 to 6 for the file fd holds: 0 or -errno. */
static int chmod_held(int fd, mode_t mode)
{
	char name[FD_NAME_SIZE];
	struct stat st;
	int flags = sys_fcntl_getfl(fd), dir, r;

	if (flags < 0)
		return flags;
	r = sys_fstat(fd, &st);
	if (r < 0)
		return r;
	if (S_ISLNK(st.st_mode))
		return -EOPNOTSUPP;
	if (!(flags & O_PATH))
		return sys_fchmod(fd, (unsigned int)mode);
	if (S_ISDIR(st.st_mode)) {
		/* chmod itself says EPERM, never EACCES: this is "." refused
		 * for want of search permission. */
		r = sys_fchmodat(fd, ".", (unsigned int)mode);
		if (r != -EACCES)
			return r;
	}
	dir = libexecveat_proc_entry(fd, &st, name);
	if (dir < 0)
		return dir;
	r = sys_fchmodat(dir, name, (unsigned int)mode);
	sys_close(dir);
	return r;
}

/* Steps 2 to 6 for dirfd's name held O_PATH, or for dirfd itself where
 * name is "" (no held name is). */
static int chmod_without_fchmodat2(int dirfd, const char *name, mode_t mode)
{
	int fd, r;

	if (name[0] == '\0')
		return chmod_held(dirfd, mode);
	fd = sys_openat(dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC, 0);
	if (fd < 0)
		return fd;
	r = chmod_held(fd, mode);
	sys_close(fd);
	return r;
}

/*
 * Step 1, then steps 2 to 6 where fchmodat2 is refused. Where its
 * refusal is remembered (chmod/fchmodat2_refusal.h: one memory with
 * fchmodat(3)), steps 2 to 6 first, which open nothing; fchmodat2 is
 * asked only where their answer may differ from its own.
 */
static int chmod_policy(int dirfd, const char *name, mode_t mode, int flags)
{
	int fallback = 0, r;

	if (libexecveat_fchmodat2_refusal_remembered()) {
		fallback = chmod_without_fchmodat2(dirfd, name, mode);
		if (!libexecveat_chmod_fallback_may_differ(fallback))
			return fallback;
	}
	r = sys_fchmodat2(dirfd, name, (unsigned int)mode, flags);
	if (!libexecveat_fchmodat2_refused(r))
		return r;
	return fallback != 0 ? fallback :
	       chmod_without_fchmodat2(dirfd, name, mode);
}

EXECVEAT_EXPORT int inroot_chmod(int root, const char *path, mode_t mode,
				 int flags)
{
	struct held_parent p;
	int r;

	r = libexecveat_hold_file_flags(root, path, flags, &p);
	if (r != 0)
		return answer(r);
	r = chmod_policy(p.fd, p.name, mode, AT_SYMLINK_NOFOLLOW);
	libexecveat_release_parent(&p);
	return answer(r);
}

EXECVEAT_EXPORT int inroot_fchmod(int fd, mode_t mode)
{
	return answer(chmod_policy(fd, "", mode, AT_EMPTY_PATH));
}
