/*
 * inroot_hardlink and inroot_rename: two paths beneath the same root,
 * each walked to the directory of its last name, and one linkat or
 * renameat2 on the two directories held.
 *
 * As the kernel's calls do, the source is walked (and for linkat looked
 * up) before the other name is even read, search permission on its last
 * directory included; renameat2's flags are judged before both.
 */
#define _GNU_SOURCE /* O_PATH */
#include <stdbool.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../exports.h"
#include "held_parent.h"
#include "inroot.h"
#include "../syscalls/files.h"

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1U << 0)
#endif
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1U << 1)
#endif
#ifndef RENAME_WHITEOUT
#define RENAME_WHITEOUT (1U << 2)
#endif

/*
 * The file linkat takes as its source: the kernel looks the source up
 * whole, not as a parent and a name. A plain last name is looked up in
 * the directory held. A last ".", ".." or a trailing slash is a
 * directory (a trailing slash follows a last symlink): it is opened
 * inside the root and held in place of the parent (p->kind still says
 * which it was), for link_directory; a last "/" is the root, which is
 * held already.
 */
static int link_source(int root, const char *target, struct held_parent *p)
{
	int r = libexecveat_hold_parent(root, target, p);
	struct stat st;
	int dir;

	if (r != 0 || p->kind == LAST_IS_ROOT)
		return r; /* "/": the root held is the source */
	/* linkat looks the source up before it walks the new name: a source
	 * that is not there is ENOENT, whatever the new name is. */
	if (p->kind == LAST_IS_NAME && !p->trailing_slash) {
		r = sys_fstatat(p->fd, p->name, &st, AT_SYMLINK_NOFOLLOW);
		if (r < 0)
			libexecveat_release_parent(p);
		return r;
	}
	dir = libexecveat_inroot_open(root, target, O_PATH | O_CLOEXEC, 0);
	libexecveat_release_parent(p);
	if (dir < 0)
		return dir;
	p->fd = dir;
	p->name = ".";
	return 0;
}

/*
 * Whether linkat takes the O_PATH fd dir as a source named by the fd
 * alone (AT_EMPTY_PATH): Linux 6.10 takes it from the process that
 * opened the fd, or with CAP_DAC_READ_SEARCH, and says ENOENT otherwise.
 * Asked with a new name that cannot be made (no directory fd), which the
 * kernel looks at only once it has taken the source: EBADF then.
 */
static bool links_by_fd(int dir)
{
	return call_result(linkat(dir, "", -1, "x", AT_EMPTY_PATH)) == -EBADF;
}

/*
 * linkat of a directory (from link_source), which the kernel refuses,
 * with the answer the kernel gives for the source as the caller named
 * it. Its lookup of "d/." and "d/.." searched d, as linkat's lookup of
 * "." in the directory held searches it again (d itself, or the
 * directory d was found in). Its lookup of "d/" and "/" searched nothing
 * in the directory they name: that directory is then named by its fd
 * alone, where the kernel takes that; before Linux 6.10, by its ".",
 * which says EACCES where the caller may not search it.
 */
static int link_directory(const struct held_parent *from,
			  const struct held_parent *to)
{
	int r;

	if (from->kind == LAST_IS_DOT || from->kind == LAST_IS_DOTDOT)
		return call_result(linkat(from->fd, ".", to->fd, to->name, 0));
	r = call_result(
		linkat(from->fd, "", to->fd, to->name, AT_EMPTY_PATH));
	if (r == -ENOENT && !links_by_fd(from->fd))
		r = call_result(linkat(from->fd, ".", to->fd, to->name, 0));
	return r;
}

/* The linkat of the two names held. The kernel makes no name "/"
 * (EEXIST), and looks nothing up in the root to say so. */
static int link_held(const struct held_parent *from,
		     const struct held_parent *to)
{
	if (to->kind == LAST_IS_ROOT)
		return -EEXIST;
	if (from->kind == LAST_IS_NAME && !from->trailing_slash)
		return call_result(
			linkat(from->fd, from->name, to->fd, to->name, 0));
	return link_directory(from, to);
}

EXECVEAT_EXPORT int inroot_hardlink(int root, const char *path,
				    const char *target)
{
	struct held_parent from, to;
	int r = link_source(root, target, &from);

	if (r != 0)
		return answer(r);
	r = libexecveat_hold_parent(root, path, &to);
	if (r == 0) {
		r = link_held(&from, &to);
		libexecveat_release_parent(&to);
	}
	libexecveat_release_parent(&from);
	return answer(r);
}

/* renameat2's own checks of its flags, made before any path is read. */
static int check_rename_flags(unsigned int flags)
{
	if (flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE | RENAME_WHITEOUT))
		return -EINVAL;
	if ((flags & (RENAME_NOREPLACE | RENAME_WHITEOUT)) &&
	    (flags & RENAME_EXCHANGE))
		return -EINVAL;
	return 0;
}

/* The renameat2 of the two names held: "." for a last "/" too, which
 * renameat2 says EBUSY to once it has looked the other name up; with no
 * other name ("/" to "/"), EBUSY, and nothing looked up in the root. */
static int rename_held(const struct held_parent *from,
		       const struct held_parent *to, unsigned int flags)
{
	if (from->kind == LAST_IS_ROOT && to->kind == LAST_IS_ROOT)
		return -EBUSY;
	return sys_renameat2(from->fd, from->name, to->fd, to->name, flags);
}

EXECVEAT_EXPORT int inroot_rename(int root, const char *src, const char *dst,
				  unsigned int flags)
{
	struct held_parent from, to;
	int r = check_rename_flags(flags);

	if (r == 0)
		r = libexecveat_hold_parent(root, src, &from);
	if (r != 0)
		return answer(r);
	r = libexecveat_hold_parent(root, dst, &to);
	if (r != 0) {
		int searched = libexecveat_parent_searchable(&from);

		r = searched != 0 ? searched : r;
	} else {
		r = rename_held(&from, &to, flags);
		libexecveat_release_parent(&to);
	}
	libexecveat_release_parent(&from);
	return answer(r);
}
