/*
 * One question of the differential, an operation of inroot.h with its
 * arguments, and the two ways of answering it: the library's call
 * beneath a root fd, and the kernel's own call (or, for mkdir_all and
 * remove_all, the kernel's calls as `mkdir -p` and `rm -rf` make them)
 * in a process chrooted to a copy of the same tree (both sides are
 * tests/inroot/common's; what is kept of an answer, and how two are
 * compared, is the differential's own).
 */
#ifndef INROOT_DIFFERENTIAL_QUESTION_H
#define INROOT_DIFFERENTIAL_QUESTION_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "inroot_call.h"

struct question {
	enum inroot_op op;
	/* The arguments in the header's order: path (rename's src), then
	 * symlink's target text, hardlink's existing name, rename's dst. */
	const char *a, *b;
	int flags; /* open's and creat's, or rename's */
	mode_t mode;
	size_t size; /* readlink's buffer */
	unsigned tree; /* which tree it is asked in */
};

/* readlink's text is kept up to this much (the trees' are shorter). */
#define ANSWER_TEXT_MAX 256

struct answer {
	long rc;
	int err; /* where rc is -1 */
	/* A returned fd: its file, its F_GETFL flags, whether it is
	 * close-on-exec. */
	dev_t dev;
	ino_t ino;
	int fd_flags;
	bool cloexec;
	/* The file's path in the tree afterwards (answer_name_file). */
	char file[256];
	/* readlink: what the buffer holds, and whether the bytes past what
	 * was copied were left as they were; statx's fields; an attribute's
	 * value or list. */
	char text[ANSWER_TEXT_MAX];
	bool past_untouched;
};

/* The library's answer, beneath root. */
struct answer answer_of_library(int root, const struct question *q);

/* The kernel's answer, in a process whose root and cwd are the tree's. */
struct answer answer_of_kernel(const struct question *q);

/* "open("d/", O_RDONLY|O_NONBLOCK)" into buf, which it returns. */
const char *question_describe(char *buf, size_t size,
			      const struct question *q);

/* "fd of /d/e O_RDONLY", "-1 ENOENT", "0", "3 "d/e"": into buf. */
const char *answer_describe(char *buf, size_t size, const struct question *q,
			    const struct answer *a);

/* Whether an answer to op names a file, by its dev/ino (an fd's, or
 * statx's). */
bool answer_names_file(enum inroot_op op);

/* Whether two answers to q say the same (a's and b's file already
 * named): a the kernel's, b the library's, whose fd may carry the flags
 * inroot_same_fd_flags allows beyond the kernel's. */
bool answers_agree(const struct question *q, const struct answer *a,
		   const struct answer *b);

#endif /* INROOT_DIFFERENTIAL_QUESTION_H */
