/*
 * The kernel's openat2 as the oracle for openat2's fallback: one question
 * (dirfd, path, struct open_how) asked of both, and their answers, the
 * file each opened or its errno, compared under one rule with one way of
 * saying how they differ. The resolver's tests, its attacks and kernel
 * rules, and the random differential all judge the fallback by it.
 */
#ifndef TESTS_OPENAT2_ORACLE_H
#define TESTS_OPENAT2_ORACLE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "execveat.h"

/* One side's answer: what it opened, or its errno. */
struct openat2_answer {
	int err; /* 0: it opened a file, described by the rest */
	dev_t dev;
	ino_t ino;
	mode_t type; /* st_mode & S_IFMT */
	int flags; /* F_GETFL */
};

struct openat2_answers {
	struct openat2_answer kernel, fallback;
	/* The kernel's EAGAIN is no answer: renames kept its scoped walk
	 * from one for as long as it was asked (openat2_again.h). Nothing
	 * then judges the fallback by the kernel. */
	bool kernel_unanswered;
};

/* A side: as openat2(dirfd, path, how, sizeof *how), an fd or -1 and
 * errno. The fallback is the resolver (openat2_resolver_side) or the
 * library's openat2 where a filter refuses the system call. */
typedef int openat2_side_fn(int dirfd, const char *path,
			    const struct open_how *how);

/*
 * The kernel's side passes a struct open_how this much larger (zeros at
 * the end, which the kernel accepts), so that a seccomp filter can refuse
 * openat2 to the library's fallback and let the kernel's side by: the
 * argument checked is the size (refuse_call.h's unless_equal).
 */
#define OPENAT2_KERNEL_SIZE (sizeof(struct open_how) + sizeof(uint64_t))

/* The kernel's openat2, asked once with OPENAT2_KERNEL_SIZE. */
int openat2_kernel_side(int dirfd, const char *path,
			const struct open_how *how);

/* The resolver as openat2's fallback asks it, with the flags the system
 * call adds (libexecveat_resolve_open_as_openat2, which answers -errno,
 * as the library's functions do inside), as a side. */
int openat2_resolver_side(int dirfd, const char *path,
			  const struct open_how *how);

/* What fd is (fd >= 0), or err: the fd stays open, the caller's. */
struct openat2_answer openat2_answer_of(int fd, int err);

/*
 * The fallback's answer, then the kernel's, each fd closed: first the
 * fallback, so that a test which moves a file while the fallback walks
 * (a hook) hears the kernel in the world the move left. Where either
 * answers EAGAIN (a rename raced a scoped ".."), both are asked again
 * (openat2_again.h): the answers compared answer the same question. Where
 * the kernel's stays EAGAIN all the same, kernel_unanswered says so.
 */
struct openat2_answers openat2_oracle(openat2_side_fn *fallback, int dirfd,
				      const char *path,
				      const struct open_how *how);

enum openat2_verdict {
	OPENAT2_SAME,
	/* The same file, with flags beyond the kernel's that openat2(3)
	 * documents (NOTES): O_NOFOLLOW, O_DIRECTORY on a directory,
	 * O_EMPTYPATH under OPENAT2_REGULAR. */
	OPENAT2_DOCUMENTED_FLAGS,
	OPENAT2_DIFFERENT,
};

/* How the fallback's answer f stands to the kernel's k, for a question
 * whose how.flags were asked. */
enum openat2_verdict openat2_compare(const struct openat2_answer *k,
				     const struct openat2_answer *f,
				     uint64_t asked);

/* Whether the kernel's answer can judge the fallback's: not where renames
 * kept it from any (kernel_unanswered), which it then says on stdout
 * ("not judged: what: ..."), the fallback's answer left to be checked
 * alone. */
bool openat2_kernel_judges(const struct openat2_answers *a, const char *what);

/* True when the answers agree (the same, or the documented flags). */
int openat2_agree(const struct openat2_answers *a, uint64_t asked);

/* "ENOENT", or "dev 0x.. ino N type 0.. flags 0x..": into buf, which it
 * returns. */
const char *openat2_answer_describe(char *buf, size_t size,
				    const struct openat2_answer *a);

/* "kernel ..., fallback ...": into buf, which it returns. */
const char *openat2_answers_describe(char *buf, size_t size,
				     const struct openat2_answers *a);

/* The errno's name; EFTYPE, which C libraries may not know yet, too. */
const char *openat2_errno_name(int err);

#endif /* TESTS_OPENAT2_ORACLE_H */
