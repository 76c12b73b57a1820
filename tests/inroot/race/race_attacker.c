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

static int exchange(int from_dir, const char *from, int to_dir,
		    const char *to)
{
	return (int)syscall(SYS_renameat2, from_dir, from, to_dir, to,
			    RENAME_EXCHANGE) == 0;
}

/* One round of each move asked: round i and i + 1 (i even) make the same
 * exchanges, so that every pair puts the tree back. */
static unsigned int round_of(const struct race_tree *t, unsigned int moves,
			     unsigned long i)
{
	static const char *const links[] = { ".l0", ".l1", ".l2", ".l3" };
	unsigned int made = 0;

	if (moves & MOVE_CHAIN)
		made += exchange(t->a, "b", t->watched[PARK], "b");
	if (moves & MOVE_LINKS)
		made += exchange(t->a, "l", t->a, links[i / 2 % 4]);
	if (moves & MOVE_TREES) {
		int place = t->places[i / 2 % PLACES];

		made += exchange(place, "r/u", place, "r/.su");
	}
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
