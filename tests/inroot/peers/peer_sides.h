/*
 * The two sides a peer's case is asked of: the kernel's own calls in a
 * chroot to the tree (the judge), and the library's operation on an fd of
 * the tree. Both are asked in the calling process, which is a child the
 * test forked for them: for the kernel, one whose root may move; for the
 * library, one that has made the world it is asked in (openat2 refused,
 * /proc hidden).
 */
#ifndef TESTS_INROOT_PEER_SIDES_H
#define TESTS_INROOT_PEER_SIDES_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

#include "peer_cases.h"

struct peer_answer {
	int err;    /* 0, or the call's errno */
	long value; /* what a call that returns no fd returned */
	bool has_file; /* it returned an fd, which these describe */
	dev_t dev;
	ino_t ino;
	mode_t type;
	int flags; /* F_GETFL */
	bool cloexec; /* F_GETFD's FD_CLOEXEC */
	char text[PATH_MAX]; /* what readlink read */
};

/* The kernel's answer to c in a chroot to dir, this process's root put
 * back after: 0, or an errno where the question could not be asked. */
int peer_kernel_side(const struct peer_case *c, const char *dir,
		     struct peer_answer *a);

/* The library's answer to c with root an fd of dir: 0, or an errno where
 * it could not be asked. leaked: whether an fd more is open after it (the
 * one it returned closed). */
int peer_library_side(const struct peer_case *c, const char *dir,
		      struct peer_answer *a, bool *leaked);

#endif /* TESTS_INROOT_PEER_SIDES_H */
