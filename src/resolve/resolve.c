/*
 * openat2's path resolution in userspace, for where the system call is
 * refused: one component at a time, as the kernel's fs/namei.c walks,
 * each step a system call relative to a directory fd the walk holds.
 *
 * Threat model. The caller trusts its dirfd, its cwd and its process
 * root, and the threads of its own process leave the walk's fds alone.
 * Anyone else may, at any moment, rename, exchange (RENAME_EXCHANGE),
 * create or remove any entry inside the tree being walked and any
 * directory outside it they can write, plant or retarget symlinks, and
 * change what a procfs magic link of theirs names (dup2). Mounts are
 * changed by no one during a call. Under RESOLVE_BENEATH and
 * RESOLVE_IN_ROOT the walk then guarantees, each in the file that keeps
 * it:
 *
 *  - every name is looked up in a directory the walk holds, with
 *    O_NOFOLLOW: the kernel follows no link for it (step_name here,
 *    last.c), and each link's text is walked under the same rules
 *    (link.c);
 *  - ".." never asks the kernel where to go: it returns to the level the
 *    walk came from, held open or fetched again and proven to be that
 *    directory, else EAGAIN (dotdot.c, levels.c). A walk that hands ".."
 *    to the kernel escapes: a directory moved out of the tree has a new
 *    parent;
 *  - the last name is opened once, by the kernel, with the caller's
 *    flags; a name that must be a directory is opened O_DIRECTORY, so
 *    nothing put in its place is opened (last.c);
 *  - a magic link's target is judged once and opened through the fd
 *    that was judged, never by the link's name again (last.c).
 *
 * One thing the kernel refuses and the walk does not: a directory the
 * walk holds may be moved out of the tree while the walk is inside it;
 * the walk then goes on below it, among what was below it in the tree
 * (what the mover could have put in the tree anyway), never up into its
 * new surroundings. The kernel answers such a lookup EAGAIN (a rename
 * anywhere raced a "..") or EXDEV (its last check, path_is_under, finds
 * the result no longer under the root). That check would cost the walk
 * a ".." and a statx per level, walked again from the result to the
 * root, and would still race the next rename: it is not made.
 *
 * The shape. The loop here takes a component, asks the step for it, and
 * takes the step's answer (a link to follow, a name to take again, an
 * answer opened): no step calls another (a ".." as the last name, two
 * steps, is the loop's: take_last_dotdot). Each step answers an enum
 * step, or -errno, which becomes errno only at the public entries. Each
 * part owns one thing, has a header of its own, and calls only the parts
 * above it in this list; each, its functions (here without the
 * libexecveat_ that every name shared between parts carries), and the
 * kernel's (fs/namei.c) that they follow:
 *
 *   components.c  the path's text     next_component, splice_link_text
 *   identity.c    what a file is      identify_fd/_name, refuse_crossing
 *                                     (the LOOKUP_NO_XDEV checks)
 *   levels.c      the directories     push_level, pop_level (nd->path,
 *                 held                held by reference), move_bottom,
 *                                     jump_to_root (nd_jump_root),
 *                                     make_room, finish_walk
 *                                     (terminate_walk)
 *   open_answer.c the answer's open   open_answer (do_open; 7.2's
 *                                     OPENAT2_REGULAR)
 *   dotdot.c      ".." on the way     step_dotdot (handle_dots,
 *                                     follow_dotdot)
 *   link.c        links               follow_link (pick_link, get_link)
 *   last.c        the last component  open_last, open_here,
 *                                     open_magic_last (open_last_lookups,
 *                                     do_open, nd_jump_link)
 *   here          the walk            start_walk (path_init), walk_path
 *                                     (link_path_walk), take_component
 *                                     (walk_component), step_name
 *                                     (lookup_fast/slow, step_into)
 *
 * Their shared state, the struct walk, is walk.h's.
 *
 * No allocation, no /proc (but to reopen a magic link's target: last.c),
 * no locks, no stdio: system calls on buffers of this stack frame only
 * (about 45 KiB), so as async-signal-safe as openat.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>

#include "../path/path_name.h"
#include "../syscalls/files.h"
#include "components.h"
#include "dotdot.h"
#include "identity.h"
#include "last.h"
#include "levels.h"
#include "link.h"
#include "moment.h"
#include "open_answer.h"
#include "resolve.h"
#include "walk.h"

/* How many times one name may change under its step before the walk
 * gives up with the kernel's "try again". */
#define RETAKES 8

/*
 * A name on the way (walk_component): a directory is entered, anything
 * else is a link to follow or not a directory, which link.c tells apart.
 * O_NOFOLLOW: the kernel follows no link for the walk; O_DIRECTORY: one
 * call tells a directory. Nothing else is asked of a plain directory.
 */
static int step_name(struct walk *w)
{
	struct level *dir = current_level(w);
	struct level next = { .searched = false };
	int err;

	next.fd = libexecveat_open_walk_fd(
		w, dir->fd, w->comp.name,
		O_PATH | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC, 0);
	if (next.fd < 0 && next.fd != -ENOTDIR)
		return next.fd;
	dir->searched = true;
	if (next.fd < 0)
		return STEP_LINK_OR_FILE;
	/* traverse_mounts: entering a mount point crosses a mount. */
	err = libexecveat_refuse_crossing(w, dir, &next);
	if (err < 0) {
		sys_close(next.fd);
		return err;
	}
	return libexecveat_push_level(w, &next);
}

/* ".." as the last component: the directory ".." leads to, opened with
 * the caller's flags through "." (the levels the walk holds were searched
 * on the way down); unscoped at the bottom, the kernel's ".." of it. */
static int take_last_dotdot(struct walk *w)
{
	int s;

	AT_MOMENT(BEFORE_LAST_OPEN, current_level(w)->fd, "..");
	if (w->levels.ring.depth == 0 && !(w->req.resolve & SCOPED))
		return libexecveat_open_parent_of_bottom(w);
	s = libexecveat_step_dotdot(w);
	return s == STEP_ON ? libexecveat_open_here(w) : s;
}

/* One component: ".", "..", a name on the way, or the last one. A "."
 * on the way asks nothing: the next lookup checks the same permission. */
static int take_component(struct walk *w)
{
	int s;

	if (w->comp.kind == LAST_IS_DOT)
		return w->comp.last ? libexecveat_open_here(w) : STEP_ON;
	if (w->comp.kind == LAST_IS_DOTDOT)
		return w->comp.last ? take_last_dotdot(w) :
				      libexecveat_step_dotdot(w);
	s = w->comp.last ? libexecveat_open_last(w) : step_name(w);
	if (s == STEP_LINK || s == STEP_LINK_OR_FILE)
		s = libexecveat_follow_link(w, (enum step)s);
	return s == STEP_MAGIC_LAST ? libexecveat_open_magic_last(w) : s;
}

/* The walk to its end, a component at a time; a component whose name
 * changed under its step is taken again. */
static int walk_path(struct walk *w)
{
	for (;;) {
		int s;

		if (!libexecveat_next_component(w))
			return libexecveat_open_here(w);
		s = take_component(w);
		for (int retakes = 0; s == STEP_AGAIN; retakes++)
			s = retakes < RETAKES ? take_component(w) : -EAGAIN;
		if (s != STEP_ON)
			return s;
	}
}

/* A walk that holds nothing yet, with dirfd as its bottom: finish_walk
 * finds nothing to close. The levels are set field by field: their
 * digests are 32 KiB that nothing reads before it is written. */
static void init_walk(struct walk *w, int dirfd, const struct request *req)
{
	struct levels *l = &w->levels;

	w->req = *req;
	l->bottom = (struct level){ .fd = dirfd };
	l->bottom_owned = false;
	l->ring = (struct held_ring){ 0, 0 };
	l->spares = 0;
	l->close_range_refused = false;
	w->links = 0;
	w->must_be_dir = false;
	w->root_set = false;
	w->use_statx = true;
	w->answer_cloexec_added = false;
}

/*
 * path_init: the bottom, where the walk starts and (scoped) its root. An
 * absolute path starts at the process root (IN_ROOT: at dirfd; BENEATH:
 * EXDEV), a relative one at dirfd. The kernel checks dirfd first; here
 * the first system call on it does, with the same errno. 0 or -errno.
 */
static int start_walk(struct walk *w, const char *path, size_t len)
{
	struct levels *l = &w->levels;
	unsigned int resolve = w->req.resolve;

	w->root_set = path[0] == '/' || (resolve & SCOPED);
	libexecveat_start_unwalked(w, path, len);
	/* The kernel resolves in the cwd the call began with (path_init
	 * takes a reference to it); the walk's steps are many calls, and
	 * another thread's chdir between two of them must not move the rest
	 * of the walk: the cwd is held as an fd from the start. Looking "."
	 * up needs search permission on it, as the first lookup in it does. */
	if (l->bottom.fd == AT_FDCWD &&
	    (path[0] != '/' || (resolve & RESOLVE_IN_ROOT))) {
		l->bottom.fd = libexecveat_open_walk_fd(
			w, AT_FDCWD, ".", O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
		if (l->bottom.fd < 0)
			return l->bottom.fd;
		l->bottom_owned = true;
	}
	/* IN_ROOT's root is the bottom already: nothing to jump to. */
	if (path[0] == '/' && !(resolve & RESOLVE_IN_ROOT))
		return libexecveat_jump_to_root(w, NULL /* nothing walked */);
	return 0;
}

int libexecveat_resolve_open(int dirfd, const char *path,
			     const struct open_how *how)
{
	const struct request req = {
		.flags = (int)how->flags,
		.mode = (unsigned int)how->mode,
		.resolve = (unsigned int)how->resolve,
		.regular_only = (how->flags & OPENAT2_REGULAR) != 0,
	};
	struct walk w;
	size_t len;
	int s;

	s = libexecveat_path_length(path, &len);
	if (s == 0 && len == 0 && !(how->flags & O_EMPTYPATH))
		s = -ENOENT;
	if (s < 0)
		return s;
	/* Without resolve flags, openat2 is openat; so is the empty name
	 * under O_EMPTYPATH, which opens dirfd's file, whatever the resolve
	 * flags say. OPENAT2_REGULAR, which openat cannot carry, is
	 * open_answer.c's. */
	if ((how->resolve == 0 || len == 0) && !req.regular_only)
		return sys_openat(dirfd, path, req.flags, req.mode);
	init_walk(&w, dirfd, &req);
	if (len == 0) { /* O_EMPTYPATH | OPENAT2_REGULAR: dirfd's own file. */
		s = opened(&w,
			   libexecveat_reopen_regular(&w, dirfd, req.flags,
						      req.mode),
			   CLOEXEC_AS_ASKED);
	} else {
		s = start_walk(&w, path, len);
		if (s == 0)
			s = walk_path(&w);
	}
	return libexecveat_finish_walk(&w, s);
}
