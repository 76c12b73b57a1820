/*
 * ".." (the kernel's handle_dots and follow_dotdot). A walk that asks the
 * kernel for ".." escapes its root under a rename race: a directory moved
 * out of the tree has a new parent, and the kernel's ".." is that new
 * parent (open.c). Here ".." goes back to the level the walk came from,
 * which it holds, or fetches again and proves (levels.c); at the bottom,
 * BENEATH refuses and IN_ROOT stays where it is. Only an unscoped walk
 * asks the kernel for the bottom's "..": it has no root to leave.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>

#include "../sys.h"
#include "walk.h"

enum step step_dotdot(struct walk *w)
{
	int err = check_search(w);

	if (err < 0)
		return failed(w, -err);
	w->root_set = true; /* handle_dots: set_root() */
	if (w->levels.depth > 0)
		return on_or_failed(w, pop_level(w));
	if (w->req.resolve & RESOLVE_BENEATH)
		return failed(w, EXDEV);
	if (w->req.resolve & RESOLVE_IN_ROOT)
		return STEP_ON;
	/* Unscoped: the kernel's ".." of the bottom, which stops at the
	 * process root; under NO_XDEV, climbing out of a mount's root
	 * crosses a mount. */
	return move_bottom(w, &w->levels.bottom, w->levels.bottom.fd, "..");
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

	make_room(w, up_fd, 1);
	if ((w->req.flags & O_TMPFILE) == O_TMPFILE)
		return open_answer(w, up->fd, ".", w->req.flags, w->req.mode);
	fd = open_answer(w, w->levels.bottom.fd, "..", w->req.flags,
			 w->req.mode);
	if (fd < 0)
		return fd;
	err = identify(w, fd, "", &id);
	if (err == 0 && !same_file(&id, &up->id))
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
static enum step open_parent_of_bottom(struct walk *w)
{
	struct level *bottom = &w->levels.bottom;
	struct level up = { 0 };
	int fd;

	if (!(w->req.resolve & (RESOLVE_NO_XDEV | RESOLVE_CACHED))) {
		make_room(w, NULL, 0);
		fd = open_answer(w, bottom->fd, "..", w->req.flags,
				 w->req.mode);
	} else if ((up.fd = open_walk_fd(w, bottom->fd, "..",
				       O_PATH | O_DIRECTORY | O_CLOEXEC, 0)) < 0)
		fd = up.fd;
	else {
		fd = refuse_crossing(w, bottom, &up);
		if (fd == 0)
			fd = (w->req.resolve & RESOLVE_CACHED) ?
				     -EAGAIN :
				     open_judged_parent(w, &up);
		sys_close(up.fd);
	}
	if (fd < 0)
		return failed(w, -fd);
	w->answer = fd;
	return STEP_OPENED;
}

/* ".." as the last component: the directory ".." leads to, opened with
 * the caller's flags through "." (the levels the walk holds were searched
 * on the way down). */
enum step open_last_dotdot(struct walk *w)
{
	enum step s;

	AT_MOMENT(BEFORE_LAST_OPEN, current_level(w)->fd, "..");
	if (w->levels.depth == 0 && !(w->req.resolve & SCOPED))
		return open_parent_of_bottom(w);
	s = step_dotdot(w);
	return s == STEP_ON ? open_here(w) : s;
}
