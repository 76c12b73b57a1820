/*
 * Asking openat2 again while the machine renames. A scoped ".."
 * (RESOLVE_BENEATH, RESOLVE_IN_ROOT) answers EAGAIN whenever a rename or
 * a mount anywhere on the machine raced the lookup (the kernel checks the
 * global rename_lock and mount_lock sequence counts at each ".."), and
 * openat2's fallback answers EAGAIN too when a ".." finds its directory
 * moved. Such an EAGAIN says "ask again", not what the path is: a test
 * asks again for seconds (a burst of renames, a short sleep between
 * tries), never a fixed number of times, and never for RESOLVE_CACHED,
 * whose EAGAIN is an answer under test.
 *
 * Where renames go on without a pause for longer than that (a program
 * elsewhere on the machine renaming in a loop), the kernel's scoped
 * walk cannot be asked at all: its EAGAIN is then no answer to judge by.
 * A comparison with the kernel does not judge such a question, says so
 * on stdout (openat2_say_not_judged), and still judges the other side on
 * its own terms. Once one question of a process has gone unanswered for
 * the whole budget, the renames are taken to go on, and later questions
 * are asked again only briefly, so that a test's time stays bounded
 * however many of its questions the kernel cannot answer.
 *
 * Plain C and system calls only: the portable suite (musl, qemu-user)
 * uses it too.
 */
#ifndef TESTS_OPENAT2_AGAIN_H
#define TESTS_OPENAT2_AGAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* How long one question is asked again; how long once renames went on
 * for all of that in this process; the pause between tries. */
#define OPENAT2_AGAIN_SECONDS 2.0
#define OPENAT2_AGAIN_SECONDS_WHILE_RENAMES_GO_ON 0.05
#define OPENAT2_AGAIN_PAUSE_NS 1000000L

/* One question's time budget: start it, then ask openat2_ask_again after
 * each answer. */
struct openat2_again {
	struct timespec started;
	unsigned long tries;
	bool gave_up; /* the budget ran out on an EAGAIN */
};

void openat2_again_start(struct openat2_again *again);

/* True when answer (an errno; 0 for an fd) is an EAGAIN that may be asked
 * again (resolve holds no RESOLVE_CACHED) and the budget is not spent; it
 * has slept the pause then. When the budget runs out, says so on stderr,
 * marks the question given up, and returns false: the EAGAIN stands. */
bool openat2_ask_again(struct openat2_again *again, uint64_t resolve,
		       int answer);

/* EAGAIN if either of two answers is, so that a comparison asks both
 * sides again and compares answers to the same question; else 0. */
int openat2_either_eagain(int answer, int other);

/* Whether the kernel's answer to a question asked again this way is no
 * answer: an EAGAIN of a scoped lookup (resolve holds RESOLVE_BENEATH or
 * RESOLVE_IN_ROOT) that renames kept up until the budget ran out. Only
 * the kernel's: the fallback's own EAGAIN (its directory moved) is an
 * answer to judge. */
bool openat2_kernel_unanswered(const struct openat2_again *again,
			       uint64_t resolve, int kernel_answer);

/* "not judged: WHAT: ...; CHECKED" on stdout, for a question the kernel
 * could not answer: what the question was, and what was still checked. */
void openat2_say_not_judged(const char *what, const char *checked);

/* The kernel's openat2 system call, once: an fd, or -1 and errno. */
long kernel_openat2_once(int dirfd, const char *path, const void *how,
			 size_t size);

/* The same, asked again as above; how's resolve field (struct open_how:
 * flags, mode, resolve, each 64 bits) decides whether it may be. Where
 * unanswered is not NULL, it says whether the answer is no answer
 * (openat2_kernel_unanswered). */
long kernel_openat2(int dirfd, const char *path, const void *how,
		    size_t size, bool *unanswered);

#endif /* TESTS_OPENAT2_AGAIN_H */
