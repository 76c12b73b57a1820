/*
 * The moments between two system calls of a step where an attacker would
 * act. Test builds (EXECVEAT_RESOLVE_TEST_HOOKS) call out at each, so
 * that the attack can be made at exactly that moment
 * (tests/openat2/test_resolve_attacks.c, and through the operations
 * beneath a root tests/inroot/race/test_inroot_race_moments.c); other
 * builds make no call.
 */
#ifndef EXECVEAT_RESOLVE_MOMENT_H
#define EXECVEAT_RESOLVE_MOMENT_H

enum resolve_moment {
	BEFORE_READLINK, /* a step's open said "not a directory" */
	BEFORE_LAST_OPEN, /* the last component (a name, "..") is next */
	BEFORE_MAGIC_REOPEN, /* a magic link's target was judged */
	BEFORE_REFETCH, /* ".." must fetch a level it let go */
	AFTER_MKNOD, /* inroot_mknod_checked: the node made, not yet checked */
	BEFORE_ACT, /* 2.1: the file held (directory and name), not yet acted on */
	AFTER_MOUNT, /* 2.1: a mount made, not yet proven to have landed */
};
#ifdef EXECVEAT_RESOLVE_TEST_HOOKS
void libexecveat_resolve_test_hook(enum resolve_moment moment, int dirfd,
				   const char *name);
#define AT_MOMENT(moment, dirfd, name) \
	libexecveat_resolve_test_hook(moment, dirfd, name)
#else
#define AT_MOMENT(moment, dirfd, name) ((void)0)
#endif

#endif /* EXECVEAT_RESOLVE_MOMENT_H */
