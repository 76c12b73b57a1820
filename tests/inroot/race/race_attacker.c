#define _GNU_SOURCE
#include "race_attacker.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

static bool exchange(int from_dir, const char *from, int to_dir,
		     const char *to)
{
	return syscall(SYS_renameat2, from_dir, from, to_dir, to,
		       RENAME_EXCHANGE) == 0;
}

bool attacker_exchange(const struct race_tree *t, enum moves move,
		       unsigned int which)
{
	static const char *const links[] = { ".l0", ".l1", ".l2", ".l3" };
	int place = t->places[which % PLACES];

	switch (move) {
	case MOVE_CHAIN:
		return exchange(t->a, "b", t->watched[PARK], "b");
	case MOVE_LINKS:
		return exchange(t->a, "l", t->a, links[which % 4]);
	default:
		return exchange(place, "r/u", place, "r/.su");
	}
}

/* One round of each move asked: round i and i + 1 (i even) make the same
 * exchanges, so that every pair puts the tree back. */
static unsigned int round_of(const struct race_tree *t, unsigned int moves,
			     unsigned long i)
{
	unsigned int made = 0;

	for (unsigned int m = MOVE_CHAIN; m <= MOVE_TREES; m <<= 1)
		if (moves & m)
			made += attacker_exchange(t, (enum moves)m,
						  (unsigned int)(i / 2));
	return made;
}

_Noreturn static void attack(const struct race_tree *t,
			     struct attacker_share *share)
{
	unsigned int moves = 0;

	for (unsigned long i = 0;; i++) {
		/* A change of moves waits for the pair's second round. */
		if (i % 2 == 0)
			moves = share->moves;
		share->exchanges += round_of(t, moves, i);
	}
}

pid_t attacker_start(const struct race_tree *t, struct attacker_share *share)
{
	pid_t parent = getpid(), pid = fork();

	if (pid != 0)
		return pid;
	/* Dies with the test, also when a timeout kills it. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
		_exit(1);
	attack(t, share);
}

void attacker_stop(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}
