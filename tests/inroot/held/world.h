/*
 * The worlds 2.1's operations are run in, each a forked child in a
 * private mount namespace with a tmpfs of its own at the scratch
 * directory:
 *   KERNEL          every call there (this kernel as it is)
 *   OPENAT2_ENOSYS  openat2 refused with ENOSYS (the library's own walk)
 *   OPENAT2_EPERM   refused with EPERM
 *   NO_PROC         every call there, an empty tmpfs over /proc
 *   OLD_CALLS       openat2, fchmodat2, the *xattrat calls and the new
 *                   mount API refused with ENOSYS, utimensat's
 *                   AT_EMPTY_PATH with EINVAL: a 5.1 kernel's calls
 *   OLD_NO_PROC     the same, /proc hidden
 *   OLD_FAKE_PROC   the same, a tmpfs over /proc whose fd entries all
 *                   name top/outside/victim
 */
#ifndef TESTS_INROOT_HELD_WORLD_H
#define TESTS_INROOT_HELD_WORLD_H

#include <stdbool.h>
#include <stddef.h>

enum world {
	KERNEL,
	OPENAT2_ENOSYS,
	OPENAT2_EPERM,
	NO_PROC,
	OLD_CALLS,
	OLD_NO_PROC,
	OLD_FAKE_PROC,
	WORLDS
};

extern const char *const world_names[WORLDS];

/* Whether the world has a real /proc. */
bool world_proc(enum world w);

/* The calls after 5.1 whose presence decides a way 2.1 takes. */
enum later_call {
	OPEN_TREE,          /* and move_mount, fsopen...: Linux 5.2 */
	MOUNT_SETATTR,      /* 5.12 */
	FCHMODAT2,          /* 6.6 */
	XATTRAT,            /* getxattrat and the rest: 6.13 */
	XATTRAT_OPATH,      /* the same, taking an O_PATH fd with "" */
	UTIMENSAT_EMPTY,    /* utimensat's AT_EMPTY_PATH: 5.8 */
};

/* Whether call answers here, as this world's process is now (its filter
 * loaded): asked of the kernel with arguments no file can answer. */
bool world_has(enum later_call call);

/* Whether path's file system takes user.* attributes (tmpfs: Linux
 * 6.6), asked by setting and removing one. */
bool user_xattrs_at(const char *path);

/* What a world runs, in its child, with top the world's tmpfs: its
 * exit status. */
typedef int world_body(enum world w, const char *top);

/* body run in world w: its exit status, or 77 with why (shared memory,
 * written by the child) where the world cannot be made here. */
int world_run(enum world w, world_body *body, char *why, size_t size);

/* top's path p, in a buffer of its own that the next call reuses. */
const char *in_top(const char *top, const char *p);

/*
 * A test's main: body run in each of worlds[0..n) (every world where n
 * is 0), a skipped world said so. 77 where the process is not root (why
 * says what for) or no world could be made; 1 where a body failed; 0.
 */
int world_run_each(world_body *body, const enum world *worlds, size_t n,
		   const char *why_root);

#endif /* TESTS_INROOT_HELD_WORLD_H */
