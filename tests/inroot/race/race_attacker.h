/*
 * The attacker: a process that, as fast as it can, moves the real b out
 * of the root and back (exchanged with /outside/park/b, so that ".." from
 * it climbs out), flips /root/a/l between the directory and each of its
 * links in turn, and, inside the trees a removal walks, flips r/u between
 * a directory and a link to /outside/r. Each exchange is made twice, so
 * that the tree comes back; between the two the attacked state holds.
 */
#ifndef TESTS_INROOT_RACE_ATTACKER_H
#define TESTS_INROOT_RACE_ATTACKER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "race_tree.h"

enum moves {
	MOVE_CHAIN = 1, /* /root/a/b <-> /outside/park/b */
	MOVE_LINKS = 2, /* /root/a/l <-> /root/a/.lN */
	MOVE_TREES = 4, /* PLACE/r/u <-> PLACE/r/.su, in each place */
};

/* Shared with the attacker (MAP_SHARED): the moves it makes, which the
 * test changes between two cases, and the exchanges it made. */
struct attacker_share {
	volatile unsigned int moves;
	volatile uint64_t exchanges;
};

/* One exchange of move, made now (MOVE_LINKS: with the link .lWHICH;
 * MOVE_TREES: in place WHICH): true if made. Made twice, it is undone. */
bool attacker_exchange(const struct race_tree *t, enum moves move,
		       unsigned int which);

/* Forks the attacker, which dies with its parent. Its pid, or -1. */
pid_t attacker_start(const struct race_tree *t, struct attacker_share *share);

/* Kills and reaps it. */
void attacker_stop(pid_t pid);

#endif /* TESTS_INROOT_RACE_ATTACKER_H */
