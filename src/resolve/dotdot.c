/*
 * ".." (the kernel's handle_dots and follow_dotdot). A walk that asks the
 * kernel for ".." escapes its root under a rename race: a directory moved
 * out of the tree has a new parent, and the kernel's ".." is that new
 * parent (resolve.c). Here ".." goes back to the level the walk came from,
 * which it holds, or fetches again and proves (levels.c); at the bottom,
 * BENEATH refuses and IN_ROOT stays where it is. Only an unscoped walk
 * asks the kernel for the bottom's "..": it has no root to leave. ".."
 * as the last component is last.c's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>

#include "dotdot.h"
#include "levels.h"

/* ".." on the way: STEP_ON or -errno. */
int libexecveat_step_dotdot(struct walk *w)
{
	int err = libexecveat_check_search(w);

	if (err < 0)
		return err;
	w->root_set = true; /* handle_dots: set_root() */
	if (w->levels.ring.depth > 0)
		return libexecveat_pop_level(w);
	if (w->req.resolve & RESOLVE_BENEATH)
		return -EXDEV;
	if (w->req.resolve & RESOLVE_IN_ROOT)
		return STEP_ON;
	/* Unscoped: the kernel's ".." of the bottom, which stops at the
	 * process root; under NO_XDEV, climbing out of a mount's root
	 * crosses a mount. */
	return libexecveat_move_bottom(w, &w->levels.bottom,
				       w->levels.bottom.fd, "..");
}
