/*
 * The /proc of a world a portable suite makes in a forked child, in a
 * mount namespace of its own (proc_mounts.h): the real one, none, a fake
 * one whose every fd names a victim, or another process's fd directory
 * bound over ours. A header alone, as verdicts.h, for the suites built by
 * hand from their own source lists.
 */
#ifndef TESTS_PROC_WORLD_H
#define TESTS_PROC_WORLD_H

#include <errno.h>
#include <sys/types.h>

#include "proc_mounts.h"

enum proc_world { PROC_REAL, PROC_NONE, PROC_FAKE, PROC_BORROWED };

/* proc's /proc: PROC_FAKE's fds from first_fd up name victim;
 * PROC_BORROWED's table is owner's (start_waiting_child), ECHILD where
 * there is none. 0, or an errno. */
static inline int make_proc_world(enum proc_world proc, int first_fd,
				  const char *victim, pid_t owner)
{
	switch (proc) {
	case PROC_REAL:
		return private_mount_namespace();
	case PROC_NONE:
		return hide_proc();
	case PROC_FAKE:
		return fake_proc_from(first_fd, victim);
	case PROC_BORROWED:
		return owner > 0 ? borrow_proc_fd_dir(owner) : ECHILD;
	}
	return EINVAL;
}

#endif /* TESTS_PROC_WORLD_H */
