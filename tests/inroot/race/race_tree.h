/*
 * The tree the race runs in, and the watch on what lies outside its root.
 * A world's process chroots into a tmpfs of its own first (top,
 * race_world.h), so that a link to "/" that a walk follows by the
 * process root lands in top, outside the operations' root, where it is
 * seen, and never in the machine's own root:
 *
 *   /proc                   the world's /proc (real, or a hidden tmpfs)
 *   /root                   the root the operations are given
 *   /root/a/b/c/d           the chain, b exchanged with /outside/park/b
 *   /root/a/b/c/up -> ..    a link in it that climbs
 *   /root/a/l               a directory, exchanged with one of
 *   /root/a/.l0 .. .l3        links to "/", "/outside", "../../..",
 *                             "../../outside"
 *   /root/outside           inside: where IN_ROOT's "/outside" leads
 *   /outside/park/b/c/d     the decoy chain, in the root while b is out
 *   /s, /r/keep             sentinels: a file and a directory, in top,
 *   /outside/{s,r/keep}     /outside and /outside/park, which no
 *   /outside/park/{s,r/keep}  operation on the root may touch
 *
 * From the real b, parked, ".." is /outside/park, then /outside, then
 * top: a walk that asks the kernel for ".." there acts outside.
 */
#ifndef TESTS_INROOT_RACE_TREE_H
#define TESTS_INROOT_RACE_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

/* The directories watched outside the root: top, /outside, /outside/park. */
enum watched { TOP, OUTSIDE, PARK, WATCHED };

/* The directories inside the root where the race's paths end, each
 * held by an fd that follows the directory wherever it is moved. */
enum place { IN_ROOT, IN_A, IN_L, IN_ROOT_OUTSIDE, PLACES };

struct sentinel_ids {
	ino_t s, r, keep;
	struct timespec s_ctime; /* a change of s's metadata moves it */
};

struct race_tree {
	int top, root, a, l, root_outside; /* O_PATH | O_DIRECTORY */
	int watched[WATCHED];              /* O_RDONLY | O_DIRECTORY */
	int places[PLACES];                /* root, a, l, root_outside */
	int inotify;                       /* top, /outside and the r's */
	int dir_watch[OUTSIDE + 1];        /* top's and /outside's */
	int r_watch[WATCHED];
	struct sentinel_ids ids[WATCHED];
};

/* In the world's process, chrooted into top already: builds the tree
 * and its watch. 0, or an errno (what failed is printed). */
int race_tree_build(struct race_tree *t);

/* Whether anything outside the root changed since the last call (or the
 * build): a name gained or lost, a sentinel replaced or linked, its
 * metadata changed, a mount made on s or r. Fills what with the first
 * change seen. Cheap enough to ask after each try: an inotify read, one
 * directory listing and a few stats. */
bool race_tree_changed_outside(struct race_tree *t, char *what,
			       size_t size);

/* The whole comparison with the tree as built: the watched directories'
 * names, the sentinels' identities and link counts, r's content. */
bool race_tree_intact(struct race_tree *t, char *what, size_t size);

/* Puts back what changed outside (the control changes it on purpose),
 * so that the next change is seen as new. 0, or an errno. */
int race_tree_repair(struct race_tree *t);

/* name in dirfd and, if a directory, all beneath it, by fds, never
 * following a link. 0, or an errno (ENOENT where name is not there). */
int remove_tree_at(int dirfd, const char *name);

#endif /* TESTS_INROOT_RACE_TREE_H */
