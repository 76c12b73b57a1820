/*
 * The directories a walk down a tree holds open, in a ring of fds of a
 * fixed size: levels 1 .. depth below a bottom held apart, the deepest
 * `held` of them open, level d in slot d % size. Deeper than the ring, or
 * where fds run out, the oldest level held goes first, and never the one
 * the walk stands in. openat2's walk (src/resolve/levels.c) and
 * inroot_remove_all's (src/inroot/emptying.c) keep their rings so; what
 * each remembers of a level let go, and how it comes back to it, is its
 * own.
 */
#ifndef EXECVEAT_HELD_RING_H
#define EXECVEAT_HELD_RING_H

#include <errno.h>

struct held_ring {
	int depth; /* the level the walk stands in; 0: the bottom */
	int held;  /* open: levels depth - held + 1 .. depth */
};

/* The shallowest level open. */
static inline int ring_oldest(const struct held_ring *r)
{
	return r->depth - r->held + 1;
}

/* The level to let go next: the oldest open, or -EMFILE where the only
 * one open is the one the walk stands in. Once its fd is gone, the
 * caller counts it out (r->held--). */
static inline int ring_next_to_go(const struct held_ring *r)
{
	return r->held < 2 ? -EMFILE : ring_oldest(r);
}

/* One level deeper, into a ring with room, and back up. */
static inline void ring_push(struct held_ring *r)
{
	r->depth++;
	r->held++;
}

static inline void ring_pop(struct held_ring *r)
{
	r->depth--;
	r->held--;
}

#endif /* EXECVEAT_HELD_RING_H */
