/*
 * inroot_mknod_checked: mknodat(2) beneath a root, then the new node
 * opened O_PATH|O_NOFOLLOW by its name in its held directory and its
 * type and device number checked, before anything uses it: the fd is
 * what the caller then works with (a bind mount's target or source, a
 * chown), so that a name swapped between the two calls (for a link to a
 * procfs file, for another device) is caught here and never acted on.
 *
 * The node is made as inroot_mknod makes it, with its answers and their
 * order, and the directory it was made in is kept held for the check:
 * the path is walked once, so a directory renamed or replaced after the
 * mknod cannot lead the check to another node of the same kind. A swap
 * of the name itself is caught and answered EAGAIN, and leaves the name
 * as the swap left it (the node made may remain wherever the swap moved
 * it).
 */
#define _GNU_SOURCE /* O_PATH */
#include <fcntl.h>
#include <sys/stat.h>

#include "../exports.h"
#include "held_parent.h"
#include "inroot.h"
#include "../resolve/moment.h"
#include "../syscalls/files.h"

/* The O_PATH fd of what p's name holds, if it is the node asked for. */
static int open_checked(const struct held_parent *p, mode_t mode, dev_t dev)
{
	struct stat st;
	int fd = sys_openat(p->fd, p->name,
			    O_PATH | O_NOFOLLOW | O_CLOEXEC, 0);
	mode_t type = (mode & S_IFMT) ? mode & S_IFMT : S_IFREG;

	if (fd < 0)
		return fd == -ENOENT ? -EAGAIN : fd;
	if (sys_fstat(fd, &st) != 0 || (st.st_mode & S_IFMT) != type ||
	    ((S_ISCHR(type) || S_ISBLK(type)) && st.st_rdev != dev)) {
		sys_close(fd);
		return -EAGAIN;
	}
	return fd;
}

EXECVEAT_EXPORT int inroot_mknod_checked(int root, const char *path,
					 mode_t mode, dev_t dev)
{
	struct held_parent p;
	int r;

	r = libexecveat_inroot_mknod(root, path, mode, dev, &p);
	if (r != 0)
		return answer(r);
	AT_MOMENT(AFTER_MKNOD, p.fd, p.name);
	r = open_checked(&p, mode, dev);
	libexecveat_release_parent(&p);
	return answer(r);
}
