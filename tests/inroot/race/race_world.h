/*
 * The worlds the race runs in, each a forked child in a private mount
 * namespace with a tmpfs of its own, chrooted into it (race_tree.h says
 * why), the tree built there:
 *   CONTROL           as the machine is (the naive operations run here)
 *   KERNEL            the kernel's openat2 answers
 *   FALLBACK          openat2 refused with ENOSYS (a seccomp filter)
 *   FALLBACK_EPERM    refused with EPERM (an allow-list policy)
 *   FALLBACK_NO_PROC  refused with ENOSYS, with an empty tmpfs over /proc
 *   OLD_CALLS         every call after Linux 5.1 that 2.1's operations use
 *                     refused (old_calls.h): their ways without them
 */
#ifndef TESTS_INROOT_RACE_WORLD_H
#define TESTS_INROOT_RACE_WORLD_H

#include <stddef.h>

#include "race_tree.h"

enum world {
	CONTROL,
	KERNEL,
	FALLBACK,
	FALLBACK_EPERM,
	FALLBACK_NO_PROC,
	OLD_CALLS,
	WORLDS
};

extern const char *const world_names[WORLDS];

/* What a world runs, in its child: its exit status. */
typedef int world_body(enum world w, struct race_tree *t, void *arg);

/*
 * Runs body in world w, in a child that dies with the caller, and
 * removes the world's scratch directory after. The child's exit status
 * (body's), or 77 where the world cannot be made here (why says why:
 * shared memory, written by the child), or 2 where it failed.
 */
int world_run(enum world w, world_body *body, void *arg, char *why,
	      size_t size);

#endif /* TESTS_INROOT_RACE_WORLD_H */
