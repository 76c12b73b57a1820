/*
 * The walk down a tree being emptied (inroot_remove_all), as `rm -rf`
 * walks it inside a chroot to the root: each entry removed from the
 * directory that holds it, held open; a subdirectory not yet empty
 * entered, by its one name in that directory, with O_NOFOLLOW, never
 * by a path and never by "..", and removed once it is empty.
 *
 * An entry that cannot be removed (a mount point, which is neither
 * entered nor removed: EBUSY; one the caller may not remove) stays, and
 * so do the directories above it; every other entry of the tree is
 * removed all the same, and the answer is the first such error.
 *
 * Entries that keep coming, at any depth: a subdirectory found not empty
 * when it is removed, just after it was gone through, is emptied again,
 * EMPTYING_PASSES times in all, and is then left: ENOTEMPTY. A pass over
 * a directory reads its entries once, in getdents64's order, and never
 * goes back but to find the entry of the subdirectory it was in again:
 * an entry made before that one is met by the next pass, if the
 * directory's own removal makes one.
 *
 * No recursion: the walk's stack is this one structure (a recursion of
 * ~1.2 KiB a level overflows a 128 KiB thread stack at ~100 levels and
 * an 8 MiB one at ~7,000). Each directory's pass remembers where it
 * stands (its place: the subdirectory it is in, by inode number, and the
 * position, lseek(2)'s, where its entry was read); the deepest
 * HELD_LEVELS directories stay open, and deeper, the oldest is let go
 * (or where fds run out: EMFILE where none is left to let go). Coming
 * back up to a directory let go, the walk goes down again from the top,
 * each directory entered again by the entry at its place, and goes on
 * there.
 *
 * Positions are only where to look first: a file system that counts
 * them (tmpfs before Linux 6.6, ramfs: dcache_readdir) moves every entry
 * after one removed to the position before, so where the entry is not
 * found at its position, the pass reads the directory from the start
 * again to it, passing by what is before it (removed already, or left).
 */
#define _GNU_SOURCE /* mremap */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "emptying.h"
#include "../path/held_ring.h"
#include "held_parent.h"
#include "../path/mount_id.h"
#include "../syscalls/files.h"

#define HELD_LEVELS 256
/* Places kept in the walk's own structure; deeper, in memory mapped for
 * them (a tree that deep is rare: no call is paid for below it). */
#define NEAR_PLACES 64
#define FAR_PLACES_FIRST 2048 /* 80 KiB */

/* What a pass looks for where it finds the entry of the subdirectory it
 * was in again: nothing, the subdirectory to remove (gone through), to
 * pass by (something in it could not be removed), or to enter again
 * (coming down from the top to a level let go). */
enum seeking {
	SEEKING_NOTHING,
	SEEKING_TO_REMOVE,
	SEEKING_TO_PASS,
	SEEKING_TO_ENTER
};

/* Where a directory's pass stands. */
struct place {
	int64_t at; /* where the entry of the subdirectory it is in was
		     * read (lseek(2)'s position, as getdents64's d_off) */
	uint64_t sub_ino; /* that subdirectory */
	enum seeking seeking;
	bool failed; /* an entry here or beneath could not be removed */
	uint8_t sub_refills; /* times the subdirectory was found not empty
			      * again just after it was gone through */
};

struct descent {
	int top; /* the directory being emptied: level 0 */
	struct held_ring ring; /* levels below the top, the deepest open */
	int slot[HELD_LEVELS]; /* level d in slot[d % HELD_LEVELS] */
	int known; /* the places of levels 0 .. known are this walk's */
	int first_error;
	struct place near[NEAR_PLACES];
	struct place *far; /* places NEAR_PLACES .. */
	size_t far_count;
	/* getdents64's, aligned for its 64-bit fields */
	_Alignas(uint64_t) char buf[1024];
};

static struct place *place(struct descent *t, int depth)
{
	return depth < NEAR_PLACES ? &t->near[depth] :
				     &t->far[depth - NEAR_PLACES];
}

/* Room for the place of level depth: 0, or -ENOMEM. */
static int make_place(struct descent *t, int depth)
{
	size_t count = t->far_count == 0 ? FAR_PLACES_FIRST : 2 * t->far_count;
	void *far;

	if (depth < NEAR_PLACES ||
	    (size_t)(depth - NEAR_PLACES) < t->far_count)
		return 0;
	far = t->far == NULL ?
		      mmap(NULL, count * sizeof(struct place),
			   PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			   -1, 0) :
		      mremap(t->far, t->far_count * sizeof(struct place),
			     count * sizeof(struct place), MREMAP_MAYMOVE);
	if (far == MAP_FAILED)
		return -ENOMEM;
	t->far = far;
	t->far_count = count;
	return 0;
}

static int current(const struct descent *t)
{
	return t->ring.depth == 0 ? t->top :
				    t->slot[t->ring.depth % HELD_LEVELS];
}

/* An entry of the current directory could not be removed. */
static void fail(struct descent *t, int err)
{
	place(t, t->ring.depth)->failed = true;
	if (t->first_error == 0)
		t->first_error = err;
}

/* The oldest level held let go; never the current one: 0 or -EMFILE. */
static int let_oldest_go(struct descent *t)
{
	int oldest = ring_next_to_go(&t->ring);

	if (oldest < 0)
		return oldest;
	sys_close(t->slot[oldest % HELD_LEVELS]);
	t->ring.held--;
	return 0;
}

/* name, a directory of dir that is not empty, opened to be emptied:
 * never followed, never on another mount (EBUSY). An fd or -errno. */
static int open_subdirectory(struct descent *t, int dir, const char *name)
{
	int sub, r;

	do
		sub = sys_openat(dir, name, O_RDONLY | O_DIRECTORY |
				 O_NOFOLLOW | O_CLOEXEC, 0);
	while ((sub == -EMFILE || sub == -ENFILE) && let_oldest_go(t) == 0);
	if (sub < 0)
		return sub;
	r = libexecveat_not_a_mount_point(dir, sub);
	if (r == 0)
		return sub;
	sys_close(sub);
	return r;
}

int libexecveat_not_a_mount_point(int dir, int sub)
{
	struct mount_id above, below;
	int err = libexecveat_mount_of(dir, &above);

	if (err == 0)
		err = libexecveat_mount_of(sub, &below);
	if (err < 0)
		return err;
	return libexecveat_same_mount(&above, &below) ? 0 : -EBUSY;
}

int libexecveat_unlink_changed(int dir, const char *name)
{
	int r = call_result(unlinkat(dir, name, 0));

	return r == -EISDIR ? -EAGAIN : r;
}

/*
 * A directory of dir not yet empty, opened to be emptied: 1 with *sub
 * open, or -errno. A name that changed from a directory to another file
 * meanwhile (ENOTDIR, ELOOP) is unlinked as what it is now: 0 or -errno.
 */
static int subdirectory(struct descent *t, int dir, const char *name,
			int *sub)
{
	*sub = open_subdirectory(t, dir, name);
	if (*sub == -ENOTDIR || *sub == -ELOOP)
		return libexecveat_unlink_changed(dir, name);
	return *sub < 0 ? *sub : 1;
}

/*
 * name, an entry of dir, removed: a file unlinked, an empty directory
 * removed (rmdir needs no read permission, and says EBUSY for a mount
 * point before it looks inside); 1 with *sub open where it is a
 * directory to empty; 0 or -errno.
 */
static int remove_one(struct descent *t, int dir, const char *name, int *sub)
{
	int r = call_result(unlinkat(dir, name, 0));

	if (r != -EISDIR)
		return r;
	r = call_result(unlinkat(dir, name, AT_REMOVEDIR));
	if (r == -ENOTEMPTY || r == -EEXIST)
		return subdirectory(t, dir, name, sub);
	return r == -ENOTDIR ? libexecveat_unlink_changed(dir, name) : r;
}

/*
 * The subdirectory name of dir, gone through just now, removed: emptied
 * again where it is found not empty (entries made meanwhile), up to
 * EMPTYING_PASSES times, then ENOTEMPTY. As remove_one answers.
 */
static int remove_gone_through(struct descent *t, int dir, const char *name,
			       int *sub)
{
	struct place *p = place(t, t->ring.depth);
	int r = call_result(unlinkat(dir, name, AT_REMOVEDIR));

	if (r == -ENOTEMPTY || r == -EEXIST)
		return ++p->sub_refills >= EMPTYING_PASSES ?
			       -ENOTEMPTY :
			       subdirectory(t, dir, name, sub);
	return r == -ENOTDIR ? libexecveat_unlink_changed(dir, name) : r;
}

/*
 * Into sub, the subdirectory whose entry the current pass read at
 * position at: one level down. Coming down again from the top to a level
 * let go (depth < known), the same subdirectory keeps its place; any
 * other starts a pass of its own. 0, or -errno (sub closed).
 */
static int enter(struct descent *t, int sub, int64_t at, uint64_t ino)
{
	struct place *p;
	bool again;
	int err = make_place(t, t->ring.depth + 1);

	if (err < 0) {
		sys_close(sub);
		return err;
	}
	p = place(t, t->ring.depth);
	again = t->ring.depth < t->known && ino == p->sub_ino;
	if (ino != p->sub_ino) {
		p->sub_ino = ino;
		p->sub_refills = 0;
	}
	p->at = at;
	if (t->ring.held == HELD_LEVELS)
		let_oldest_go(t);
	ring_push(&t->ring);
	t->slot[t->ring.depth % HELD_LEVELS] = sub;
	if (!again) {
		*place(t, t->ring.depth) = (struct place){ .at = 0 };
		t->known = t->ring.depth;
	}
	return 0;
}

/* The pass of level depth finds the entry of its subdirectory again,
 * for what. */
static void seek_subdirectory(struct descent *t, int depth, enum seeking what)
{
	place(t, depth)->seeking = what;
}

/*
 * The current directory gone through: back up to the one above, whose
 * pass finds the directory's entry again to remove it, or, where
 * something beneath could not be removed, to go on past it. Where the
 * directory above was let go, the walk goes down again from the top,
 * each pass above it finding the entry of its subdirectory again to
 * enter it.
 */
static void leave(struct descent *t)
{
	bool failed = place(t, t->ring.depth)->failed;

	sys_close(current(t));
	ring_pop(&t->ring);
	t->known = t->ring.depth;
	if (failed)
		place(t, t->ring.depth)->failed = true;
	seek_subdirectory(t, t->ring.depth,
			  failed ? SEEKING_TO_PASS : SEEKING_TO_REMOVE);
	if (t->ring.held > 0 || t->ring.depth == 0)
		return;
	for (int depth = 0; depth < t->ring.depth; depth++)
		seek_subdirectory(t, depth, SEEKING_TO_ENTER);
	t->ring.depth = 0;
}

/* The entry e of the current directory dir, read at position here, as
 * its pass takes it: 1 where a subdirectory was entered, else 0, what
 * could not be removed noted (fail). */
static int take_entry(struct descent *t, int dir, const struct dirent64_head *e,
		      int64_t here)
{
	struct place *p = place(t, t->ring.depth);
	enum seeking seeking = p->seeking;
	int sub = -1, r;

	p->seeking = SEEKING_NOTHING;
	if (seeking == SEEKING_TO_PASS)
		return 0;
	if (seeking == SEEKING_TO_ENTER)
		r = subdirectory(t, dir, e->name, &sub);
	else if (seeking == SEEKING_TO_REMOVE)
		r = remove_gone_through(t, dir, e->name, &sub);
	else
		r = remove_one(t, dir, e->name, &sub);
	if (r == 1) {
		r = enter(t, sub, here, e->ino);
		if (r == 0)
			return 1;
	}
	if (r < 0 && r != -ENOENT)
		fail(t, r);
	return 0;
}

/* What a pass read from a position answered: a subdirectory entered, the
 * end, or the entry sought not where it was looked for first. */
enum pass_end { PASS_ENTERED = 1, PASS_DONE = 0, PASS_FROM_START = 2 };

/*
 * The current directory's pass, from position on: where it seeks its
 * subdirectory's entry, every other entry before it is passed by; where
 * position is a guess (guessed), any other entry read first there, or
 * none, sends the pass to the start. Seeking in vain to the end, the
 * subdirectory is gone (renamed or removed by another): the places below
 * are no longer this walk's, and what came after it waits for the
 * directory's next pass.
 */
static enum pass_end pass_from(struct descent *t, int64_t position,
			       bool guessed)
{
	int dir = current(t);
	bool first = guessed;
	long n;

	/* The C library's: a 64-bit position, which x32's syscall() could
	 * not pass. */
	if (lseek(dir, position, SEEK_SET) < 0) {
		fail(t, -errno);
		return PASS_DONE;
	}
	while ((n = sys_getdents64(dir, t->buf, sizeof t->buf)) > 0) {
		for (long at = 0; at < n;) {
			const struct dirent64_head *e =
				(const void *)(t->buf + at);
			const struct place *p = place(t, t->ring.depth);
			int64_t here = position;

			at += e->reclen;
			position = e->off;
			if (libexecveat_name_kind(e->name, strlen(e->name)) !=
			    LAST_IS_NAME)
				continue;
			if (p->seeking != SEEKING_NOTHING &&
			    e->ino != p->sub_ino) {
				if (first)
					return PASS_FROM_START;
				continue;
			}
			first = false;
			if (take_entry(t, dir, e, here) == 1)
				return PASS_ENTERED;
		}
	}
	if (n < 0)
		fail(t, (int)n);
	if (place(t, t->ring.depth)->seeking != SEEKING_NOTHING && first)
		return PASS_FROM_START;
	if (place(t, t->ring.depth)->seeking != SEEKING_NOTHING) {
		place(t, t->ring.depth)->seeking = SEEKING_NOTHING;
		t->known = t->ring.depth;
	}
	return PASS_DONE;
}

/* The current directory's pass, from where it stands: 1 where it entered
 * a subdirectory, 0 where it came to the end. */
static int scan(struct descent *t)
{
	const struct place *p = place(t, t->ring.depth);
	bool seeking = p->seeking != SEEKING_NOTHING;
	enum pass_end end = pass_from(t, seeking ? p->at : 0, seeking);

	if (end == PASS_FROM_START)
		end = pass_from(t, 0, false);
	return end == PASS_ENTERED;
}

int libexecveat_empty_tree(int top)
{
	struct descent t = { .top = top };

	for (;;) {
		if (scan(&t) == 1)
			continue;
		if (t.ring.depth == 0)
			break;
		leave(&t);
	}
	if (t.far != NULL)
		munmap(t.far, t.far_count * sizeof(struct place));
	return t.first_error;
}
