/*
 * The directories the walk holds: its own chain of fds, so that ".." goes
 * back to a directory it came through and never to the kernel's idea of
 * a parent (resolve.c says why that matters). The kernel's walk holds its
 * chain by reference and pays nothing for it; here each level is an fd:
 * one openat per directory, nothing more, until something needs a
 * level's identity.
 *
 * Bounds. HELD_MAX levels stay open (fewer where openat answers EMFILE or
 * ENFILE: the oldest levels go first). A level that goes is identified
 * first (statx) and remembered by a 64-bit digest of its device, mount,
 * inode and birth time (identity.c's digest_of); a ".." that comes back to
 * it asks the kernel for the parent and accepts it only if the parent's
 * digest is that one, else EAGAIN, the kernel's own answer to a scoped
 * lookup that raced a rename.
 *
 * Why a digest and not the fields: 8 bytes a level instead of 24, 32 KiB
 * of stack at MAX_DEPTH instead of 96, in a function that runs on other
 * people's thread stacks. What a collision would mean: another directory
 * taken for the level let go, a way out of the root if it lies outside.
 * Why no one can aim for one: the fields are the kernel's to give (an
 * inode number and birth time in nanoseconds when a directory is made;
 * the device and mount, which do not change during a call), so an
 * attacker can only make directories and hope that one's digest meets
 * the one let go: about one chance in 2^64 for each directory made.
 *
 * Closing. The fds a ".." lets go wait in `spare` and everything is
 * closed at the end with close_range over runs of consecutive numbers
 * (one close each where close_range is refused).
 *
 * The answer's number. The kernel's openat2 gives the lowest free number
 * (POSIX's; programs rely on it, as in close(1) followed by an open for
 * stdout), and the answer may not be moved there after it is opened:
 * closing any fd of a file that is not O_PATH drops every POSIX record
 * lock the process holds on it (locks_remove_posix), and the process may
 * hold some on the very file. So room is made before it is opened
 * (make_room): the walk's fds are all O_PATH, each taken at the lowest
 * free number of its moment, so the number the kernel would give is the
 * lowest free one now or the walk's lowest fd; that one is moved above
 * itself (or closed, if let go), and the open then takes the right
 * number.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>

#include "../syscalls/fds.h"
#include "../syscalls/files.h"
#include "identity.h"
#include "levels.h"
#include "moment.h"

static void sort_fds(int *fds, int n)
{
	for (int i = 1; i < n; i++) {
		int fd = fds[i], j = i;

		for (; j > 0 && fds[j - 1] > fd; j--)
			fds[j] = fds[j - 1];
		fds[j] = fd;
	}
}

/* Closes fds (reordered): one close_range per run of consecutive
 * numbers, one close each where close_range (Linux 5.9) is refused. */
static void close_fds(struct levels *l, int *fds, int n)
{
	sort_fds(fds, n);
	for (int first = 0, last; first < n; first = last + 1) {
		last = first;
		while (last + 1 < n && fds[last + 1] == fds[last] + 1)
			last++;
		if (last > first && !l->close_range_refused &&
		    sys_close_range((unsigned int)fds[first],
				    (unsigned int)fds[last], 0) == 0)
			continue;
		l->close_range_refused |= last > first;
		for (int i = first; i <= last; i++)
			sys_close(fds[i]);
	}
}

static void close_spares(struct levels *l)
{
	close_fds(l, l->spare, l->spares);
	l->spares = 0;
}

/* An fd the walk no longer needs: closed with the others later. */
static void let_go(struct levels *l, int fd)
{
	if (l->spares == SPARE_MAX)
		close_spares(l);
	l->spare[l->spares++] = fd;
}

/*
 * The oldest level in the ring goes, known from now on by its digest.
 * The level the walk stands in stays: 0, or -errno where it is the only
 * one held, or cannot be identified.
 */
static int let_oldest_go(struct walk *w)
{
	struct levels *l = &w->levels;
	int oldest = ring_next_to_go(&l->ring);
	struct level *level;
	int err;

	if (oldest < 0)
		return oldest;
	level = level_at(l, oldest);
	err = libexecveat_identify_level(w, level);
	if (err < 0)
		return err;
	l->digest[oldest] = libexecveat_digest_of(&level->id);
	let_go(l, level->fd);
	level->fd = -1;
	l->ring.held--;
	return 0;
}

/*
 * Where the process is out of fds (EMFILE, ENFILE): the walk closes what
 * it let go, or lets its oldest level go. Whether an fd was freed.
 */
bool libexecveat_free_a_walk_fd(struct walk *w)
{
	struct levels *l = &w->levels;

	if (l->spares == 0 && let_oldest_go(w) < 0)
		return false;
	close_spares(l);
	return true;
}

/*
 * openat for the walk: where the process is out of fds, the walk frees
 * one and tries again. dirfd is never one it frees: it is the level the
 * walk stands in or the bottom. An fd, or -errno.
 */
int libexecveat_open_walk_fd(struct walk *w, int dirfd, const char *name,
			     int flags, unsigned int mode)
{
	for (;;) {
		int fd = sys_openat(dirfd, name, flags, mode);

		if ((fd != -EMFILE && fd != -ENFILE) ||
		    !libexecveat_free_a_walk_fd(w))
			return fd;
	}
}

/* Steps into next (its fd the walk's own, its id set or not): one level
 * deeper. */
int libexecveat_push_level(struct walk *w, const struct level *next)
{
	struct levels *l = &w->levels;
	int err;

	if (l->ring.depth == MAX_DEPTH) {
		sys_close(next->fd);
		return -ENAMETOOLONG;
	}
	if (l->ring.held == HELD_MAX && (err = let_oldest_go(w)) < 0) {
		sys_close(next->fd);
		return err;
	}
	ring_push(&l->ring);
	*level_at(l, l->ring.depth) = *next;
	return 0;
}

/*
 * The level below, let go earlier: the kernel's ".." of the current
 * directory, accepted only if it is the very directory the walk came
 * through (its digest), which makes it as good as the fd the walk held.
 */
static int fetch_level_below(struct walk *w)
{
	struct levels *l = &w->levels;
	int below = l->ring.depth - 1;
	struct level fetched = { .searched = true, .identified = true };
	int err;

	AT_MOMENT(BEFORE_REFETCH, current_level(w)->fd, "..");
	fetched.fd = libexecveat_open_walk_fd(
		w, current_level(w)->fd, "..",
		O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0);
	if (fetched.fd < 0)
		return fetched.fd;
	err = libexecveat_identify_fd(w, fetched.fd, &fetched.id);
	if (err == 0 && libexecveat_digest_of(&fetched.id) != l->digest[below])
		err = -EAGAIN; /* moved by a rename since */
	if (err < 0) {
		sys_close(fetched.fd);
		return err;
	}
	*level_at(l, below) = fetched;
	l->ring.held++;
	return 0;
}

/* ".." above the bottom: back to the level the walk came from. */
int libexecveat_pop_level(struct walk *w)
{
	struct levels *l = &w->levels;
	int err;

	if (l->ring.depth > 1 && l->ring.held < 2 &&
	    (err = fetch_level_below(w)) < 0)
		return err;
	let_go(l, current_level(w)->fd);
	ring_pop(&l->ring);
	return 0;
}

/* IN_ROOT's jump to the root: the bottom, where the walk started. */
static void let_go_to_bottom(struct walk *w)
{
	struct levels *l = &w->levels;

	for (int depth = ring_oldest(&l->ring); depth <= l->ring.depth; depth++)
		let_go(l, level_at(l, depth)->fd);
	l->ring = (struct held_ring){ 0, 0 };
}

/*
 * An unscoped walk moves to a new bottom, the directory name in dirfd
 * (the process root, the kernel's ".." of the old bottom, a magic link's
 * target, which the kernel follows), reached from the level `from`
 * (NULL: from nowhere, at the start of an absolute path, where no mount
 * is crossed): nothing below it is known. Under NO_XDEV the step is
 * judged before the new bottom must be a directory, as the kernel judges
 * a jump first. 0 or -errno.
 */
int libexecveat_move_bottom(struct walk *w, struct level *from, int dirfd,
			    const char *name)
{
	struct levels *l = &w->levels;
	bool judge = from != NULL && (w->req.resolve & RESOLVE_NO_XDEV);
	struct level bottom = { 0 };
	int err = 0;

	bottom.fd = libexecveat_open_walk_fd(
		w, dirfd, name, O_PATH | O_CLOEXEC | (judge ? 0 : O_DIRECTORY),
		0);
	if (bottom.fd < 0)
		return bottom.fd;
	if (judge) {
		err = libexecveat_refuse_crossing(w, from, &bottom);
		if (err == 0 && !S_ISDIR(bottom.id.mode))
			err = -ENOTDIR;
	}
	if (err < 0) {
		sys_close(bottom.fd);
		return err;
	}
	let_go_to_bottom(w);
	if (l->bottom_owned)
		let_go(l, l->bottom.fd);
	l->bottom = bottom;
	l->bottom_owned = true;
	return 0;
}

/*
 * An absolute path or link: back to the root (nd_jump_root), from the
 * level the link was read in (NULL: the start of an unscoped absolute
 * path, where dirfd is not looked at). BENEATH refuses;
 * IN_ROOT's root is the bottom (dirfd); otherwise the process root, which
 * becomes the bottom. 0 or -errno.
 */
int libexecveat_jump_to_root(struct walk *w, struct level *from)
{
	struct levels *l = &w->levels;
	int err;

	if (w->req.resolve & RESOLVE_BENEATH)
		return -EXDEV;
	/* nd_jump_root compares with a root the lookup may not have set yet
	 * (an unscoped relative lookup sets it at its first ".."): then any
	 * jump under NO_XDEV is EXDEV. */
	if ((w->req.resolve & RESOLVE_NO_XDEV) && !w->root_set)
		return -EXDEV;
	w->root_set = true;
	if (!(w->req.resolve & RESOLVE_IN_ROOT))
		return libexecveat_move_bottom(w, from, AT_FDCWD, "/");
	/* From the bottom itself no mount is crossed: no statx to prove it. */
	if (from != NULL && from != &l->bottom) {
		err = libexecveat_refuse_crossing(w, from, &l->bottom);
		if (err < 0)
			return err;
	}
	let_go_to_bottom(w);
	return 0;
}

/*
 * The kernel checks search permission on a directory before each lookup
 * in it, ".." included. A walk that has looked a name up in it knows;
 * otherwise a lookup of "." asks the kernel, and leaves no fd.
 */
int libexecveat_check_search(struct walk *w)
{
	struct level *level = current_level(w);
	struct stat st;
	int err;

	if (level->searched)
		return 0;
	err = sys_fstatat(level->fd, ".", &st, AT_SYMLINK_NOFOLLOW);
	level->searched = err == 0;
	return err;
}

/* Room for every fd of the walk's (walk_fds), and one more. */
#define WALK_FDS_MAX (HELD_MAX + SPARE_MAX + 2)

/* Every fd the walk still has: n of them into fds. */
static int walk_fds(struct levels *l, int fds[WALK_FDS_MAX])
{
	int n = 0;

	for (int depth = ring_oldest(&l->ring); depth <= l->ring.depth; depth++)
		if (depth > 0)
			fds[n++] = level_at(l, depth)->fd;
	for (int i = 0; i < l->spares; i++)
		fds[n++] = l->spare[i];
	if (l->bottom_owned)
		fds[n++] = l->bottom.fd;
	return n;
}

/* Where the walk keeps the fd it holds with the lowest number: a held
 * level's, the owned bottom's, a spare's, or one of the n fds of the
 * step's own in extra; NULL where it holds none. */
static int *lowest_walk_fd(struct levels *l, int *const extra[], int n)
{
	int *lowest = NULL;

	for (int i = 0; i < n; i++)
		if (*extra[i] >= 0 && (lowest == NULL || *extra[i] < *lowest))
			lowest = extra[i];
	for (int depth = ring_oldest(&l->ring); depth <= l->ring.depth;
	     depth++) {
		int *fd = &level_at(l, depth)->fd;

		if (depth > 0 && (lowest == NULL || *fd < *lowest))
			lowest = fd;
	}
	if (l->bottom_owned && (lowest == NULL || l->bottom.fd < *lowest))
		lowest = &l->bottom.fd;
	for (int i = 0; i < l->spares; i++)
		if (lowest == NULL || l->spare[i] < *lowest)
			lowest = &l->spare[i];
	return lowest;
}

/*
 * Before an answer is opened (levels.c's first comment says why): the
 * walk's lowest fd, the n O_PATH fds of the step's own in extra among
 * them, moved above itself (a spare is closed), so that the open takes
 * the number the kernel's openat2 would give. Where no number is free to
 * move it to, the answer is opened all the same, at the lowest free then.
 */
void libexecveat_make_room(struct walk *w, int *const extra[], int n)
{
	struct levels *l = &w->levels;
	int *lowest = lowest_walk_fd(l, extra, n);
	int moved;

	if (lowest == NULL)
		return;
	if (lowest >= l->spare && lowest < l->spare + l->spares) {
		sys_close(*lowest);
		*lowest = l->spare[--l->spares];
		return;
	}
	moved = sys_fcntl_dupfd_cloexec(*lowest, *lowest + 1);
	if (moved < 0)
		return;
	sys_close(*lowest);
	*lowest = moved;
}

/*
 * The end of the walk (the kernel's terminate_walk): every fd of the
 * walk's closed; the answer (outcome STEP_OPENED) is where make_room let
 * it be opened. The answer, or outcome as it is.
 */
int libexecveat_finish_walk(struct walk *w, int outcome)
{
	int fds[WALK_FDS_MAX];
	int n = walk_fds(&w->levels, fds);
	int answer = outcome, err;

	if (outcome == STEP_OPENED) {
		answer = w->answer;
		/* Opened close-on-exec for the walk's sake (an O_PATH
		 * answer, or a magic link's target until it was proven):
		 * clearing the flag, unlike a move, drops nothing. */
		err = w->answer_cloexec_added && !(w->req.flags & O_CLOEXEC) ?
			      sys_fcntl_setfd(answer, 0) :
			      0;
		if (err < 0) {
			fds[n++] = answer;
			answer = err;
		}
	}
	close_fds(&w->levels, fds, n);
	return answer;
}
