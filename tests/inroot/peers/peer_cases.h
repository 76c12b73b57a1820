/*
 * The cases of the peers' test suites (libpathrs's Rust tests of its
 * root operations, filepath-securejoin's Go tests of its lookups,
 * MkdirAll and SecureJoin), each as a row: the tree it builds, the
 * operation, the path or paths, and what the peer expects. The test asks
 * the library and the kernel (in a chroot to the same tree) each row; the
 * kernel is the judge, and the peer's expectation is reported beside it
 * where the two differ.
 */
#ifndef TESTS_INROOT_PEER_CASES_H
#define TESTS_INROOT_PEER_CASES_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "inroot_call.h"

/* What a peer's test expects: an errno, or success and (where it says)
 * the file: the path in the tree an fd names or a name made names, or
 * the text readlink reads. */
struct peer_expectation {
	int err;
	const char *file;
};

struct peer_case {
	const char *peer; /* "libpathrs", "securejoin" */
	const char *name; /* the case's name in the peer's suite */
	const char *const *tree;
	enum inroot_op op;
	const char *path;
	const char *other; /* rename's new name, a link's target */
	int flags;         /* open's or renameat2's */
	mode_t mode;
	unsigned major, minor; /* mknod's device */
	struct peer_expectation expects;
	/* Where the peer's expectation is not the kernel's answer: what the
	 * peer does, and why ours answers as the kernel does. */
	const char *why;
	/* Answers the library documents where the kernel succeeds (0:
	 * none), with the documentation's words: where openat2 is refused
	 * and its own walk answers, and where /proc is hidden too. */
	int fallback_err, without_proc_err;
	const char *fallback_why, *without_proc_why;
	/* It follows another user's link in a sticky world-writable
	 * directory, which fs.protected_symlinks decides. */
	bool protected_link;
};

extern const struct peer_case libpathrs_cases[];
extern const size_t libpathrs_case_count;
extern const struct peer_case securejoin_cases[];
extern const size_t securejoin_case_count;

#endif /* TESTS_INROOT_PEER_CASES_H */
