/*
 * The operations under the race, each with the paths it is tried on and
 * what a try needs made inside the root first. Every path ends in the
 * operation's own name (its victim), reached in one of four ways:
 *
 *   a/l/N                    through l, a directory or a link out
 *   a/b/../../../outside/N   up from b: out, to /outside/N, if b is
 *   a/b/c/../../N            up from c: to /outside/park/N
 *   a/b/c/d/../../../../N    up from d: to /outside/N
 *   a/b/c/up/../../N         up by a link, then on: to /outside/N
 *
 * Inside the root (openat2's RESOLVE_IN_ROOT) these are /root/a/l/N,
 * /root/N or /root/outside/N; /root/outside/N; /root/a/N; /root/N;
 * /root/N.
 * Outside, top, /outside and /outside/park hold the sentinels s and r
 * that the removing operations name, and never a name that the creating
 * ones make (m, m1, y, f, q, h, n). 2.1's metadata calls change s (its
 * mode, owner, times, an attribute) or make n, and its mounts bind over
 * s and mask r: outside, a change of s's ctime or a mount on s or r is
 * an escape (race_tree.h).
 */
#ifndef TESTS_INROOT_RACE_OPS_H
#define TESTS_INROOT_RACE_OPS_H

#include <stdbool.h>

#include "naive.h"
#include "race_tree.h"

#define PATTERNS 5
#define RACE_OPS 10

/* One way an operation is tried: its victim in a pattern, the other path
 * fixed (the second argument, or the first where pattern_second). */
struct race_form {
	const char *victim;
	enum { CREATES, REMOVES_FILE, REMOVES_TREE } kind;
	const char *fixed;    /* NULL for one-path operations; for 2.1's,
			       * the call the form makes */
	bool pattern_second;
	const char *fresh;    /* a file made in /root/a before a try */
	const char *cleared;  /* a name removed from /root/a before it */
	bool mounts;          /* what the last try mounted on s and r
			       * inside the root is unmounted first */
	bool unmade;          /* the victim the last try made is removed
			       * first, wherever inside the root */
};

struct race_op {
	const char *name;
	const struct race_form *forms;
	unsigned int form_count;
	unsigned int moves; /* race_attacker.h's */
	bool since_2_1;     /* raced in OLD_CALLS too, whose ways are its */
	/* 0 or -1 with errno, as the library answers. */
	int (*library)(int root, const char *path, const char *other);
	/* The same, done naively (naive.h). */
	int (*naive)(enum naive_kind kind, int root, const char *path,
		     const char *other);
};

extern const struct race_op race_ops[RACE_OPS];

/* Whether op is raced in world w (race_world.h's). */
bool race_op_in_world(const struct race_op *op, int w);

/* op's form and pattern: its paths (into path and other, each of size
 * bytes; other "" where there is none), and what it needs made inside
 * the root, made. */
void race_prepare(const struct race_op *op, const struct race_tree *t,
		  unsigned int form, unsigned int pattern, char *path,
		  char *other, size_t size);

/* race_prepare of try number i of op, which takes every form with every
 * pattern in turn. */
void race_try_prepare(const struct race_op *op, const struct race_tree *t,
		      unsigned long i, char *path, char *other, size_t size);

#endif /* TESTS_INROOT_RACE_OPS_H */
