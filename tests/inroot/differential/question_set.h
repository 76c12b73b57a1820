/*
 * What the differential asks: hand-made trees, each asked every
 * operation with every path of a fixed list (one tree with every kind of
 * file and link, one where /etc is there, one with a procfs), then trees
 * and paths made by a seeded pseudo-random generator, each path asked a
 * few operations the generator picks.
 */
#ifndef INROOT_DIFFERENTIAL_QUESTION_SET_H
#define INROOT_DIFFERENTIAL_QUESTION_SET_H

#include <stddef.h>
#include <stdint.h>

#include "question.h"
#include "tree.h"

struct question_set {
	struct tree *trees;
	size_t tree_count;
	struct question *questions;
	size_t count;
	/* The paths made for the questions, which they point into. */
	char **paths;
	size_t path_count;
};

/* The hand-made trees and random_trees more from seed, each random one
 * asked random_paths paths with ops_per_path operations each. 0, or -1
 * (out of memory). */
int question_set_make(struct question_set *set, uint64_t seed,
		      unsigned random_trees, unsigned random_paths,
		      unsigned ops_per_path);

void question_set_free(struct question_set *set);

#endif /* INROOT_DIFFERENTIAL_QUESTION_SET_H */
