/*
 * The directories the walk holds (levels.c): one level deeper, back up,
 * a new bottom, the jump to the root, the walk's own opens, and the end
 * of the walk, where every fd of the walk's is closed.
 */
#ifndef EXECVEAT_RESOLVE_LEVELS_H
#define EXECVEAT_RESOLVE_LEVELS_H

#include <stdbool.h>

#include "walk.h"

static inline struct level *level_at(struct levels *l, int depth)
{
	return depth == 0 ? &l->bottom : &l->slot[depth % HELD_MAX];
}

/* The directory the walk stands in. */
static inline struct level *current_level(struct walk *w)
{
	return level_at(&w->levels, w->levels.ring.depth);
}

/* openat for the walk, which frees an fd of its own and tries again where
 * the process is out of them: an fd, or -errno. */
int libexecveat_open_walk_fd(struct walk *w, int dirfd, const char *name,
			     int flags, unsigned int mode);

/* Where the process is out of fds: whether the walk could free one. */
bool libexecveat_free_a_walk_fd(struct walk *w);

/* Steps into next (its fd the walk's own): 0 or -errno. */
int libexecveat_push_level(struct walk *w, const struct level *next);

/* ".." above the bottom, back to the level the walk came from: 0 or
 * -errno (EAGAIN where a level let go is no longer where it was). */
int libexecveat_pop_level(struct walk *w);

/* An unscoped walk's new bottom, name in dirfd, reached from the level
 * `from` (NULL: from nowhere): 0 or -errno. */
int libexecveat_move_bottom(struct walk *w, struct level *from, int dirfd,
			    const char *name);

/* An absolute path or link (nd_jump_root), read in the level `from`
 * (NULL: the start of an absolute path): 0 or -errno. */
int libexecveat_jump_to_root(struct walk *w, struct level *from);

/* The search permission on the directory the walk stands in: 0 or
 * -errno. */
int libexecveat_check_search(struct walk *w);

/* Before an answer is opened: the lowest number the walk holds (the n
 * fds of extra among them) moved away, so that the open takes the number
 * the kernel's openat2 would give. */
void libexecveat_make_room(struct walk *w, int *const extra[], int n);

/* Every fd of the walk's closed: the answer (outcome STEP_OPENED), or
 * outcome as it is. */
int libexecveat_finish_walk(struct walk *w, int outcome);

#endif /* EXECVEAT_RESOLVE_LEVELS_H */
