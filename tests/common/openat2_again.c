#define _GNU_SOURCE
#include "openat2_again.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "openat2_nr.h"

/* <linux/openat2.h>'s values; musl-gcc sees no kernel headers. */
#define BENEATH 0x08ULL
#define IN_ROOT 0x10ULL
#define CACHED 0x20ULL
#define OPEN_HOW_SIZE_VER0 24
#define OPEN_HOW_RESOLVE_OFFSET 16

/* A question of this process went unanswered for a whole budget: the
 * renames are taken to go on (forked children inherit it). Threads of the
 * tests ask too. */
static atomic_bool renames_go_on;

static double seconds_since(const struct timespec *then)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - then->tv_sec) +
	       (double)(now.tv_nsec - then->tv_nsec) / 1e9;
}

void openat2_again_start(struct openat2_again *again)
{
	clock_gettime(CLOCK_MONOTONIC, &again->started);
	again->tries = 0;
	again->gave_up = false;
}

bool openat2_ask_again(struct openat2_again *again, uint64_t resolve,
		       int answer)
{
	struct timespec pause = { 0, OPENAT2_AGAIN_PAUSE_NS };
	double budget = atomic_load(&renames_go_on) ?
				OPENAT2_AGAIN_SECONDS_WHILE_RENAMES_GO_ON :
				OPENAT2_AGAIN_SECONDS;

	if (answer != EAGAIN || (resolve & CACHED))
		return false;
	again->tries++;
	if (seconds_since(&again->started) >= budget) {
		fprintf(stderr, "openat2: EAGAIN for %.2f s (%lu tries): "
			"something renamed or mounted throughout\n", budget,
			again->tries);
		again->gave_up = true;
		atomic_store(&renames_go_on, true);
		errno = answer;
		return false;
	}
	nanosleep(&pause, NULL);
	return true;
}

int openat2_either_eagain(int answer, int other)
{
	return answer == EAGAIN || other == EAGAIN ? EAGAIN : 0;
}

bool openat2_kernel_unanswered(const struct openat2_again *again,
			       uint64_t resolve, int kernel_answer)
{
	return again->gave_up && kernel_answer == EAGAIN &&
	       (resolve & (BENEATH | IN_ROOT)) != 0;
}

void openat2_say_not_judged(const char *what, const char *checked)
{
	printf("not judged: %s: the kernel's openat2 answered EAGAIN for as "
	       "long as it was asked (renames elsewhere on the machine, "
	       "without a pause); %s\n", what, checked);
	fflush(stdout);
}

long kernel_openat2_once(int dirfd, const char *path, const void *how,
			 size_t size)
{
	return syscall(OPENAT2_NR, (long)dirfd, (long)(uintptr_t)path,
		       (long)(uintptr_t)how, (long)size);
}

/* Where how is too short to hold a resolve field, the kernel refuses the
 * call before any lookup (EFAULT, EINVAL): no EAGAIN to ask about. */
static uint64_t resolve_of(const void *how, size_t size)
{
	uint64_t resolve = 0;

	if (how != NULL && size >= OPEN_HOW_SIZE_VER0)
		memcpy(&resolve, (const char *)how + OPEN_HOW_RESOLVE_OFFSET,
		       sizeof resolve);
	return resolve;
}

long kernel_openat2(int dirfd, const char *path, const void *how,
		    size_t size, bool *unanswered)
{
	struct openat2_again again;
	uint64_t resolve = resolve_of(how, size);
	long fd;

	openat2_again_start(&again);
	do
		fd = kernel_openat2_once(dirfd, path, how, size);
	while (fd < 0 && openat2_ask_again(&again, resolve, errno));
	if (unanswered != NULL)
		*unanswered = fd < 0 &&
			      openat2_kernel_unanswered(&again, resolve, errno);
	return fd;
}
