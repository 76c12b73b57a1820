/*
 * Asking openat2 again while the machine renames. A scoped ".."
 * (RESOLVE_BENEATH, RESOLVE_IN_ROOT) answers EAGAIN whenever a rename or
 * a mount anywhere on the machine raced the lookup (the kernel checks the
 * global rename_lock and mount_lock sequence counts at each ".."), and
 * openat2's fallback answers EAGAIN too when a ".." finds its directory
 * moved. Such an EAGAIN says "ask again", not what the path is: a test
 * asks again for as long as a storm of renames may last (seconds, with a
 * short sleep between tries), never a fixed number of times, and never
 * for RESOLVE_CACHED, whose EAGAIN is an answer under test.
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

/* How long one question is asked again, and the pause between tries. */
#define OPENAT2_AGAIN_SECONDS 30
#define OPENAT2_AGAIN_PAUSE_NS 1000000L

/* One question's time budget: start it, then ask openat2_ask_again after
 * each answer. */
struct openat2_again {
	struct timespec started;
	unsigned long tries;
};

void openat2_again_start(struct openat2_again *again);

/* True when answer (an errno; 0 for an fd) is an EAGAIN that may be asked
 * again (resolve holds no RESOLVE_CACHED) and the budget is not spent; it
 * has slept the pause then. When the budget runs out, says so on stderr
 * and returns false: the EAGAIN is the answer. */
bool openat2_ask_again(struct openat2_again *again, uint64_t resolve,
		       int answer);

/* EAGAIN if either of two answers is, so that a comparison asks both
 * sides again and compares answers to the same question; else 0. */
int openat2_either_eagain(int answer, int other);

/* The kernel's openat2 system call, once: an fd, or -1 and errno. */
long kernel_openat2_once(int dirfd, const char *path, const void *how,
			 size_t size);

/* The same, asked again as above; how's resolve field (struct open_how:
 * flags, mode, resolve, each 64 bits) decides whether it may be. */
long kernel_openat2(int dirfd, const char *path, const void *how,
		    size_t size);

#endif /* TESTS_OPENAT2_AGAIN_H */
