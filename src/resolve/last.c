/*
 * The last component (the kernel's open_last_lookups and do_open): opened
 * once, from the directory the walk resolved, by the kernel itself, with
 * the caller's flags, so that O_CREAT, O_EXCL, O_TRUNC, O_TMPFILE, the
 * permission checks and fs.protected_regular and protected_fifos are the
 * kernel's own. Where the lookup follows links, O_NOFOLLOW is added (and
 * O_DIRECTORY where a directory is needed): the kernel then refuses a
 * link instead of following it (ELOOP, or ENOTDIR), and link.c walks its
 * text. No name is opened twice, and nothing opened is thrown away but
 * an O_PATH fd of a link, which opens nothing. The last component in each
 * of its forms: a name, ".", "..", a magic link's target.
 *
 * What the caller sees of that: fcntl(F_GETFL) shows the added
 * O_NOFOLLOW (and O_DIRECTORY after a trailing slash). The kernel's
 * openat2 shows only the caller's flags.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>

#include "../proc/proc_fd_dir.h"
#include "../syscalls/files.h"
#include "identity.h"
#include "last.h"
#include "levels.h"
#include "moment.h"
#include "open_answer.h"

/* What the lookup does with a link as the last name. */
enum last_link { LINK_KEPT, LINK_FOLLOWED };

/*
 * What the last name is, where the open must wait for it: STEP_ON to open
 * it, STEP_LINK for a link to follow first (LINK_FOLLOWED: the lookup
 * follows links), or -errno.
 *
 * Under RESOLVE_NO_XDEV the name may not be a mount point (its identity
 * is then the mounted root's): judged by name, before the open. Mounts do
 * not change during a call (the threat model in resolve.c), and no rename
 * can make a name a mount point, so the open finds what was judged.
 *
 * RESOLVE_CACHED: the kernel answers from its caches, or EAGAIN, which it
 * may always answer. The fallback has no cache to answer from and opens
 * nothing then: it goes on through a link (an escape, NO_SYMLINKS, a loop
 * have answers that do not depend on any cache), gives the errors the
 * lookup meets, and EAGAIN where it would open.
 */
static int look_before_open(struct walk *w, enum last_link link)
{
	struct level *dir = current_level(w);
	struct level named = { .identified = true };
	bool cached = w->req.resolve & RESOLVE_CACHED;
	int err;

	if (!(w->req.resolve & (RESOLVE_NO_XDEV | RESOLVE_CACHED)))
		return STEP_ON;
	err = libexecveat_identify_name(w, dir->fd, w->comp.name, &named.id);
	if (err == -ENOENT && (w->req.flags & O_CREAT))
		/* nothing there to cross into */
		return cached ? -EAGAIN : STEP_ON;
	if (err < 0)
		return err;
	if (link == LINK_FOLLOWED && S_ISLNK(named.id.mode))
		return STEP_LINK;
	err = libexecveat_refuse_crossing(w, dir, &named);
	if (err < 0)
		return err;
	return cached ? -EAGAIN : STEP_ON;
}

/* The last name as it is, not followed (O_NOFOLLOW, or O_CREAT|O_EXCL):
 * the kernel's open of it from the resolved directory, exact. */
static int open_unfollowed(struct walk *w)
{
	struct level *dir = current_level(w);
	int look = look_before_open(w, LINK_KEPT);
	int fd;

	if (look < 0)
		return look;
	AT_MOMENT(BEFORE_LAST_OPEN, dir->fd, w->comp.name);
	libexecveat_make_room(w, NULL, 0);
	fd = libexecveat_open_answer(w, dir->fd, w->comp.name, w->req.flags,
				     w->req.mode);
	return opened(w, fd, CLOEXEC_AS_ASKED);
}

/*
 * The last name, followed: opened with O_NOFOLLOW added, and O_DIRECTORY
 * where a trailing slash asks for a directory (then a FIFO or a file put
 * there meanwhile is refused before it is opened, never opened or
 * truncated). A link is refused by the kernel and followed here. O_PATH
 * opens a link itself instead of refusing it: that fd is looked at, and
 * let go if it is a link.
 */
static int open_followed(struct walk *w)
{
	struct level *dir = current_level(w);
	bool path_only = w->req.flags & O_PATH;
	int flags = w->req.flags | O_NOFOLLOW | (path_only ? O_CLOEXEC : 0) |
		    (w->must_be_dir ? O_DIRECTORY : 0);
	int look = look_before_open(w, LINK_FOLLOWED);
	struct dir_id id;
	int fd, err;

	if (look != STEP_ON)
		return look;
	AT_MOMENT(BEFORE_LAST_OPEN, dir->fd, w->comp.name);
	libexecveat_make_room(w, NULL, 0);
	fd = libexecveat_open_answer(w, dir->fd, w->comp.name, flags,
				     w->req.mode);
	if (fd == -ELOOP)
		return STEP_LINK;
	if (fd == -ENOTDIR && (flags & O_DIRECTORY))
		return STEP_LINK_OR_FILE;
	if (fd < 0 || !path_only)
		return opened(w, fd, CLOEXEC_AS_ASKED);
	err = libexecveat_identify_fd(w, fd, &id);
	if (err == 0 && !S_ISLNK(id.mode))
		return opened(w, fd, (w->req.flags & O_CLOEXEC) ?
					     CLOEXEC_AS_ASKED :
					     CLOEXEC_ADDED);
	sys_close(fd);
	return err < 0 ? err : STEP_LINK;
}

/* The last component with a name: how the kernel opens it decides.
 * STEP_OPENED, STEP_LINK, STEP_LINK_OR_FILE or -errno. */
int libexecveat_open_last(struct walk *w)
{
	int flags = w->req.flags;
	int err;

	/* open_last_lookups: creating "name/" is EISDIR, existing or not,
	 * once the directory may be searched. */
	if ((flags & O_CREAT) && w->comp.trailing_slash) {
		err = libexecveat_check_search(w);
		return err < 0 ? err : -EISDIR;
	}
	/* A trailing slash sets LOOKUP_FOLLOW | LOOKUP_DIRECTORY for the rest
	 * of the lookup: for the text of a link it names too. */
	w->must_be_dir |= w->comp.trailing_slash;
	if (!w->must_be_dir &&
	    ((flags & O_NOFOLLOW) || (flags & (O_CREAT | O_EXCL)) ==
					      (O_CREAT | O_EXCL)))
		return open_unfollowed(w);
	return open_followed(w);
}

/*
 * The directory the walk stands in, with the caller's flags: a path that
 * ends in ".", "..", "/" or a link to one of them. Through "." from it,
 * so that the new fd's flags are exactly the caller's.
 */
int libexecveat_open_here(struct walk *w)
{
	int fd;

	if (w->req.resolve & RESOLVE_CACHED)
		return -EAGAIN;
	libexecveat_make_room(w, NULL, 0);
	fd = libexecveat_open_answer(w, current_level(w)->fd, ".", w->req.flags,
				     w->req.mode);
	return opened(w, fd, CLOEXEC_AS_ASKED);
}

/*
 * The bottom's parent, judged (up, an O_PATH fd of it), opened with the
 * caller's flags: the kernel's ".." of the bottom again, which must be
 * the directory judged; or, for O_TMPFILE, "." from it (a file made there
 * is no directory to prove, and making it needs search permission there
 * anyway). An fd, or -errno.
 */
static int open_judged_parent(struct walk *w, struct level *up)
{
	int *const up_fd[] = { &up->fd };
	struct dir_id id;
	int fd, err;

	libexecveat_make_room(w, up_fd, 1);
	if ((w->req.flags & O_TMPFILE) == O_TMPFILE)
		return libexecveat_open_answer(w, up->fd, ".", w->req.flags,
					       w->req.mode);
	fd = libexecveat_open_answer(w, w->levels.bottom.fd, "..", w->req.flags,
				     w->req.mode);
	if (fd < 0)
		return fd;
	err = libexecveat_identify_fd(w, fd, &id);
	if (err == 0 && !libexecveat_same_identity(&id, &up->id))
		err = -EAGAIN; /* moved by a rename since */
	if (err < 0)
		sys_close(fd);
	return err < 0 ? err : fd;
}

/*
 * Unscoped, at the bottom, ".." as the last component: the kernel's ".."
 * of the bottom is the answer, opened by the kernel with the caller's
 * flags (which needs no search permission on the directory it opens,
 * where "." from it would). Under NO_XDEV its mount is judged first on an
 * O_PATH open; under RESOLVE_CACHED nothing is opened.
 */
int libexecveat_open_parent_of_bottom(struct walk *w)
{
	struct level *bottom = &w->levels.bottom;
	struct level up = { 0 };
	int fd, err;

	if (!(w->req.resolve & (RESOLVE_NO_XDEV | RESOLVE_CACHED))) {
		libexecveat_make_room(w, NULL, 0);
		fd = libexecveat_open_answer(w, bottom->fd, "..", w->req.flags,
					     w->req.mode);
		return opened(w, fd, CLOEXEC_AS_ASKED);
	}
	up.fd = libexecveat_open_walk_fd(w, bottom->fd, "..",
					 O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
	if (up.fd < 0)
		return up.fd;
	err = libexecveat_refuse_crossing(w, bottom, &up);
	if (err == 0 && (w->req.resolve & RESOLVE_CACHED))
		err = -EAGAIN;
	fd = err < 0 ? err : open_judged_parent(w, &up);
	sys_close(up.fd);
	return opened(w, fd, CLOEXEC_AS_ASKED);
}

/*
 * The file of the O_PATH fd target, opened again with the caller's flags:
 * through this thread's fd directory, proven to be procfs and this
 * thread's own table (src/proc/proc_fd_dir.c), and then proven to be target's
 * file once open; under OPENAT2_REGULAR by O_EMPTYPATH, which the kernel
 * then has, with no /proc.
 * Nothing is looked up by the magic link's name again: what another
 * thread or process does to the link meanwhile changes nothing.
 */
static int reopen(struct walk *w, struct level *target)
{
	enum proc_fd_dir_verdict verdict;
	char name[FD_NAME_SIZE];
	struct dir_id id;
	int dir, fd, err;

	if (w->req.regular_only) {
		int *const target_fd[] = { &target->fd };

		libexecveat_make_room(w, target_fd, 1);
		return libexecveat_reopen_regular(
			w, target->fd, w->req.flags | O_CLOEXEC, w->req.mode);
	}
	/* The proof takes three fds at once (proc_fd_dir.h): where they are
	 * not free, the walk frees its own, and at the fd limit the answer
	 * is the limit's, as for any open of the walk. */
	while ((dir = libexecveat_proc_fd_dir_open(&verdict)) < 0 &&
	       verdict == PROC_FD_DIR_NO_FD)
		if (!libexecveat_free_a_walk_fd(w))
			return dir;
	int *const step_fds[] = { &target->fd, &dir };

	if (dir < 0)
		return -EXDEV; /* nothing proves what the name would open */
	libexecveat_make_room(w, step_fds, 2);
	libexecveat_fd_name(name, target->fd);
	AT_MOMENT(BEFORE_MAGIC_REOPEN, dir, name);
	/* Close-on-exec until it is proven the answer. */
	fd = sys_openat(dir, name, w->req.flags | O_CLOEXEC, w->req.mode);
	err = fd < 0 ? fd : 0;
	sys_close(dir);
	if (err == 0)
		err = libexecveat_identify_fd(w, fd, &id);
	if (err == 0 && !libexecveat_same_identity(&id, &target->id))
		err = -EAGAIN;
	if (err < 0 && fd >= 0)
		sys_close(fd);
	return err < 0 ? err : fd;
}

/* O_PATH|O_DIRECTORY met a target that is no directory. The kernel
 * refuses a crossing first, as it follows the link (EXDEV), and only then
 * the type (ENOTDIR): a second look decides which, and opens nothing. */
static int refusal_of_no_directory(struct walk *w, struct level *dir)
{
	struct level target = { 0 };
	int err;

	target.fd = libexecveat_open_walk_fd(w, dir->fd, w->comp.name,
					     O_PATH | O_CLOEXEC, 0);
	if (target.fd < 0)
		return target.fd;
	err = libexecveat_refuse_crossing(w, dir, &target);
	sys_close(target.fd);
	return err < 0 ? err : -ENOTDIR;
}

/* A magic link as the last component, with RESOLVE_NO_XDEV: its target
 * judged, then opened through the fd that was judged. */
static int open_magic_target(struct walk *w, struct level *dir)
{
	bool path_only = w->req.flags & O_PATH;
	struct level target = { 0 };
	int err, fd;

	if (path_only) /* the judged fd is the answer */
		libexecveat_make_room(w, NULL, 0);
	target.fd = libexecveat_open_walk_fd(
		w, dir->fd, w->comp.name,
		path_only ? w->req.flags | O_CLOEXEC : O_PATH | O_CLOEXEC, 0);
	if (target.fd == -ENOTDIR && path_only)
		return refusal_of_no_directory(w, dir);
	if (target.fd < 0)
		return target.fd;
	err = libexecveat_refuse_crossing(w, dir, &target);
	if (err == 0 && (w->req.resolve & RESOLVE_CACHED))
		err = -EAGAIN;
	if (err == 0 && path_only)
		return opened(w, target.fd, CLOEXEC_ADDED);
	fd = err < 0 ? err : reopen(w, &target);
	sys_close(target.fd);
	return opened(w, fd, CLOEXEC_ADDED);
}

/*
 * A magic link as the last component (link.c judged that it may be
 * followed): the kernel opens its target. Under NO_XDEV the target is
 * judged first; otherwise there is nothing to judge, and the kernel's own
 * walk opens it, as it is. RESOLVE_CACHED opens nothing.
 */
int libexecveat_open_magic_last(struct walk *w)
{
	struct level *dir = current_level(w);
	int fd;

	if (w->req.resolve & RESOLVE_NO_XDEV)
		return open_magic_target(w, dir);
	if (w->req.resolve & RESOLVE_CACHED)
		return -EAGAIN;
	AT_MOMENT(BEFORE_LAST_OPEN, dir->fd, w->comp.name);
	libexecveat_make_room(w, NULL, 0);
	fd = libexecveat_open_answer(w, dir->fd, w->comp.name, w->req.flags,
				     w->req.mode);
	return opened(w, fd, CLOEXEC_AS_ASKED);
}
