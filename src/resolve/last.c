/*
 * The last component (the kernel's open_last_lookups and do_open): opened
 * once, from the directory the walk resolved, by the kernel itself, with
 * the caller's flags, so that O_CREAT, O_EXCL, O_TRUNC, O_TMPFILE, the
 * permission checks and fs.protected_regular and protected_fifos are the
 * kernel's own. Where the lookup follows links, O_NOFOLLOW is added (and
 * O_DIRECTORY where a directory is needed): the kernel then refuses a
 * link instead of following it (ELOOP, or ENOTDIR), and link.c walks its
 * text. No name is opened twice, and nothing opened is thrown away but
 * an O_PATH fd of a link, which opens nothing.
 *
 * What the caller sees of that: fcntl(F_GETFL) shows the added
 * O_NOFOLLOW (and O_DIRECTORY after a trailing slash). The kernel's
 * openat2 shows only the caller's flags.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>

#include "../sys.h"
#include "walk.h"

static enum step opened(struct walk *w, int fd, bool cloexec_added)
{
	if (fd < 0)
		return failed(w, -fd);
	w->answer = fd;
	w->answer_cloexec_added = cloexec_added;
	return STEP_OPENED;
}

/*
 * What the last name is, where the open must wait for it: 0 to open it,
 * 1 for a link to follow first (follow: the lookup follows links), or
 * -errno.
 *
 * Under RESOLVE_NO_XDEV the name may not be a mount point (its identity
 * is then the mounted root's): judged by name, before the open. Mounts do
 * not change during a call (the threat model in open.c), and no rename
 * can make a name a mount point, so the open finds what was judged.
 *
 * RESOLVE_CACHED: the kernel answers from its caches, or EAGAIN, which it
 * may always answer. The fallback has no cache to answer from and opens
 * nothing then: it goes on through a link (an escape, NO_SYMLINKS, a loop
 * have answers that do not depend on any cache), gives the errors the
 * lookup meets, and EAGAIN where it would open.
 */
static int look_before_open(struct walk *w, bool follow)
{
	struct level *dir = current_level(w);
	struct level named = { .identified = true };
	bool cached = w->req.resolve & RESOLVE_CACHED;
	int err;

	if (!(w->req.resolve & (RESOLVE_NO_XDEV | RESOLVE_CACHED)))
		return 0;
	err = identify(w, dir->fd, w->comp.name, &named.id);
	if (err == -ENOENT && (w->req.flags & O_CREAT))
		return cached ? -EAGAIN : 0; /* nothing there to cross into */
	if (err < 0)
		return err;
	if (follow && S_ISLNK(named.id.mode))
		return 1;
	err = refuse_crossing(w, dir, &named);
	return err == 0 && cached ? -EAGAIN : err;
}

/* The last name as it is, not followed (O_NOFOLLOW, or O_CREAT|O_EXCL):
 * the kernel's open of it from the resolved directory, exact. */
static enum step open_unfollowed(struct walk *w)
{
	struct level *dir = current_level(w);
	int look = look_before_open(w, false);

	if (look < 0)
		return failed(w, -look);
	AT_MOMENT(BEFORE_LAST_OPEN, dir->fd, w->comp.name);
	make_room(w, NULL, 0);
	return opened(w, open_answer(w, dir->fd, w->comp.name, w->req.flags,
				     w->req.mode),
		      false);
}

/*
 * The last name, followed: opened with O_NOFOLLOW added, and O_DIRECTORY
 * where a trailing slash asks for a directory (then a FIFO or a file put
 * there meanwhile is refused before it is opened, never opened or
 * truncated). A link is refused by the kernel and followed here. O_PATH
 * opens a link itself instead of refusing it: that fd is looked at, and
 * let go if it is a link.
 */
static enum step open_followed(struct walk *w)
{
	struct level *dir = current_level(w);
	bool path_only = w->req.flags & O_PATH;
	int flags = w->req.flags | O_NOFOLLOW | (path_only ? O_CLOEXEC : 0) |
		    (w->must_be_dir ? O_DIRECTORY : 0);
	int look = look_before_open(w, true);
	struct dir_id id;
	int fd;

	if (look != 0)
		return look > 0 ? follow_link(w, true) : failed(w, -look);
	AT_MOMENT(BEFORE_LAST_OPEN, dir->fd, w->comp.name);
	make_room(w, NULL, 0);
	fd = open_answer(w, dir->fd, w->comp.name, flags, w->req.mode);
	if (fd == -ELOOP || (fd == -ENOTDIR && (flags & O_DIRECTORY)))
		return follow_link(w, fd == -ELOOP);
	if (fd < 0 || !path_only)
		return opened(w, fd, false);
	int err = identify(w, fd, "", &id);

	if (err == 0 && !S_ISLNK(id.mode))
		return opened(w, fd, !(w->req.flags & O_CLOEXEC));
	sys_close(fd);
	return err < 0 ? failed(w, -err) : follow_link(w, true);
}

/* The last component with a name: how the kernel opens it decides. */
enum step open_last(struct walk *w)
{
	int flags = w->req.flags;
	int err;

	/* open_last_lookups: creating "name/" is EISDIR, existing or not,
	 * once the directory may be searched. */
	if ((flags & O_CREAT) && w->comp.trailing_slash) {
		err = check_search(w);
		return failed(w, err < 0 ? -err : EISDIR);
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
enum step open_here(struct walk *w)
{
	if (w->req.resolve & RESOLVE_CACHED)
		return failed(w, EAGAIN);
	make_room(w, NULL, 0);
	return opened(w, open_answer(w, current_level(w)->fd, ".",
				     w->req.flags, w->req.mode),
		      false);
}
