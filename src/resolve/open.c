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
 *    last.c), and each link's text is walked here under the same rules
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
 *    that was judged, never by the link's name again (link.c).
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
 * The map: each step of the walk, its function, and the kernel's.
 *
 *   libexecveat_resolve_open  path_openat          here
 *   start_walk                path_init            here
 *   walk_path                 link_path_walk       here
 *   walk_component            walk_component       here
 *   step_name                 lookup_fast/slow,    here
 *                             step_into
 *   push_level, pop_level     nd->path, held by    levels.c
 *                             reference
 *   step_dotdot               handle_dots,         dotdot.c
 *                             follow_dotdot
 *   follow_link               pick_link, get_link  link.c
 *   jump_to_root              nd_jump_root         link.c
 *   (magic links)             nd_jump_link         link.c
 *   open_last, open_here      open_last_lookups,   last.c
 *                             do_open
 *   open_answer               do_open (7.2's       regular.c
 *                             OPENAT2_REGULAR)
 *   refuse_crossing           the LOOKUP_NO_XDEV   identity.c
 *                             checks
 *   next_component            (the name, in        unwalked.c
 *                             place)
 *   finish_walk               terminate_walk       levels.c
 *
 * No allocation, no /proc (but to reopen a magic link's target: link.c),
 * no locks, no stdio: system calls on buffers of this stack frame only
 * (about 45 KiB), so as async-signal-safe as openat.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "../sys.h"
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
static enum step step_name(struct walk *w)
{
	struct level *dir = current_level(w);
	struct level next = { .searched = false };
	int err;

	next.fd = open_walk_fd(w, dir->fd, w->comp.name,
			       O_PATH | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC, 0);
	if (next.fd < 0 && next.fd != -ENOTDIR)
		return failed(w, -next.fd);
	dir->searched = true;
	if (next.fd < 0)
		return follow_link(w, false);
	/* traverse_mounts: entering a mount point crosses a mount. */
	err = refuse_crossing(w, dir, &next);
	if (err < 0) {
		sys_close(next.fd);
		return failed(w, -err);
	}
	return on_or_failed(w, push_level(w, &next));
}

static bool is_dot(const char *name)
{
	return name[0] == '.' && name[1] == '\0';
}

static bool is_dotdot(const char *name)
{
	return name[0] == '.' && name[1] == '.' && name[2] == '\0';
}

/* One component: ".", "..", a name on the way, or the last one. A "."
 * on the way asks nothing: the next lookup checks the same permission. */
static enum step walk_component(struct walk *w)
{
	const char *name = w->comp.name;

	if (is_dot(name))
		return w->comp.last ? open_here(w) : STEP_ON;
	if (is_dotdot(name))
		return w->comp.last ? open_last_dotdot(w) : step_dotdot(w);
	return w->comp.last ? open_last(w) : step_name(w);
}

/* The walk to its end, a component at a time; a component whose name
 * changed under its step is taken again. */
static enum step walk_path(struct walk *w)
{
	for (;;) {
		enum step s;

		if (!next_component(w))
			return open_here(w);
		s = walk_component(w);
		for (int retakes = 0; s == STEP_AGAIN; retakes++)
			s = retakes < RETAKES ? walk_component(w) :
						failed(w, EAGAIN);
		if (s != STEP_ON)
			return s;
	}
}

/*
 * path_init: the bottom, where the walk starts and (scoped) its root. An
 * absolute path starts at the process root (IN_ROOT: at dirfd; BENEATH:
 * EXDEV), a relative one at dirfd. The kernel checks dirfd first; here
 * the first system call on it does, with the same errno.
 */
static enum step start_walk(struct walk *w, int dirfd, const char *path,
			    size_t len)
{
	struct levels *l = &w->levels;

	w->root_set = path[0] == '/' || (w->req.resolve & SCOPED);
	l->bottom = (struct level){ .fd = dirfd };
	/* The kernel resolves in the cwd the call began with (path_init
	 * takes a reference to it); the walk's steps are many calls, and
	 * another thread's chdir between two of them must not move the rest
	 * of the walk: the cwd is held as an fd from the start. Looking "."
	 * up needs search permission on it, as the first lookup in it does. */
	if (dirfd == AT_FDCWD &&
	    (path[0] != '/' || (w->req.resolve & RESOLVE_IN_ROOT))) {
		l->bottom.fd = open_walk_fd(w, AT_FDCWD, ".",
					    O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
		if (l->bottom.fd < 0)
			return failed(w, -l->bottom.fd);
		l->bottom_owned = true;
	}
	if (path[0] == '/' && !(w->req.resolve & RESOLVE_IN_ROOT)) {
		if (w->req.resolve & RESOLVE_BENEATH)
			return failed(w, EXDEV);
		l->bottom.fd = open_walk_fd(w, AT_FDCWD, "/",
					    O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
		if (l->bottom.fd < 0)
			return failed(w, -l->bottom.fd);
		l->bottom_owned = true;
	}
	start_unwalked(w, path, len);
	return STEP_ON;
}

int libexecveat_resolve_open(int dirfd, const char *path,
			     const struct open_how *how)
{
	struct walk w;
	enum step s;
	size_t len;

	if (path == NULL) {
		errno = EFAULT;
		return -1;
	}
	len = strnlen(path, PATH_MAX);
	if ((len == 0 && !(how->flags & O_EMPTYPATH)) || len == PATH_MAX) {
		errno = len == 0 ? ENOENT : ENAMETOOLONG;
		return -1;
	}
	/* Without resolve flags, openat2 is openat; so is the empty name
	 * under O_EMPTYPATH, which opens dirfd's file, whatever the resolve
	 * flags say. OPENAT2_REGULAR, which openat cannot carry, is
	 * regular.c's. */
	if ((how->resolve == 0 || len == 0) &&
	    !(how->flags & OPENAT2_REGULAR))
		return sys_openat(dirfd, path, (int)how->flags,
				  (unsigned int)how->mode);
	w.req = (struct request){
		.flags = (int)how->flags,
		.mode = (unsigned int)how->mode,
		.resolve = (unsigned int)how->resolve,
		.regular_only = (how->flags & OPENAT2_REGULAR) != 0,
	};
	w.levels.bottom_owned = false;
	w.levels.depth = 0;
	w.levels.held = 0;
	w.levels.spares = 0;
	w.levels.close_range_refused = false;
	w.links = 0;
	w.must_be_dir = false;
	w.use_statx = true;
	w.answer_cloexec_added = false;
	if (len == 0) {
		/* O_EMPTYPATH | OPENAT2_REGULAR: dirfd's own file. */
		w.answer = reopen_regular(&w, dirfd, w.req.flags, w.req.mode);
		s = w.answer >= 0 ? STEP_OPENED : failed(&w, -w.answer);
	} else {
		s = start_walk(&w, dirfd, path, len);
		if (s == STEP_ON)
			s = walk_path(&w);
	}
	return finish_walk(&w, s);
}
