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
 *    file) is the file held O_PATH, the path form opening the held name
 *    O_PATH|O_NOFOLLOW in the held directory, and then:
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

#include "../call_refused.h"
#include "../exports.h"
#include "held_file.h"
#include "inroot.h"
#include "proc_entry.h"
#include "../sys.h"

/* Whether fchmodat2's answer r says the call itself was refused. */
static bool refused(int r)
{
	return r == -ENOSYS || (r == -EPERM && libexecveat_fchmodat2_refused());
}

/* Steps 2 to 6 for the file fd holds: 0 or -errno. */
static int chmod_held(int fd, mode_t mode)
{
	char name[FD_NAME_SIZE];
	struct stat st;
	int flags = sys_fcntl_getfl(fd), dir, r;

	if (flags < 0 || sys_fstat(fd, &st) != 0)
		return -errno;
	if (S_ISLNK(st.st_mode))
		return -EOPNOTSUPP;
	if (!(flags & O_PATH))
		return call_result(sys_fchmod(fd, (unsigned int)mode));
	if (S_ISDIR(st.st_mode)) {
		/* chmod itself says EPERM, never EACCES: this is "." refused
		 * for want of search permission. */
		r = call_result(sys_fchmodat(fd, ".", (unsigned int)mode));
		if (r != -EACCES)
			return r;
	}
	dir = libexecveat_proc_entry(fd, &st, name);
	if (dir < 0)
		return dir;
	r = call_result(sys_fchmodat(dir, name, (unsigned int)mode));
	sys_close(dir);
	return r;
}

/* Step 1 on the held name, then the name held O_PATH for the others. */
static int chmod_at(const struct held_parent *p, mode_t mode)
{
	int r = call_result(sys_fchmodat2(p->fd, p->name, (unsigned int)mode,
					  AT_SYMLINK_NOFOLLOW));
	int fd;

	if (!refused(r))
		return r;
	fd = sys_openat(p->fd, p->name, O_PATH | O_NOFOLLOW | O_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	r = chmod_held(fd, mode);
	sys_close(fd);
	return r;
}

EXECVEAT_EXPORT int inroot_chmod(int root, const char *path, mode_t mode,
				 int flags)
{
	struct held_parent p;
	int r;

	r = libexecveat_hold_file_flags(root, path, flags, &p);
	if (r != 0)
		return answer(r);
	r = chmod_at(&p, mode);
	libexecveat_release_parent(&p);
	return answer(r);
}

EXECVEAT_EXPORT int inroot_fchmod(int fd, mode_t mode)
{
	int r = call_result(sys_fchmodat2(fd, "", (unsigned int)mode,
					  AT_EMPTY_PATH));

	return answer(refused(r) ? chmod_held(fd, mode) : r);
}
