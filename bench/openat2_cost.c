/*
 * What the library's openat2 costs over the raw system call on its fast
 * path (openat2 allowed): RESOLVE_BENEATH opens of one file, each closed
 * again, timed in short interleaved rounds; the report is the median of
 * the per-round ratios, against a target of 1.02.
 *
 *   openat2-cost [ROUNDS]
 *
 * The fallback's cost (openat2 refused) is measured beside it, by path
 * length, in the resolver's own benchmark.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "execveat.h"
#include "pin_cpu.h"
#include "stats.h"

#define OPENS_PER_RUN 200
#define DEFAULT_ROUNDS 2000
#define FAST_PATH_TARGET 1.02

static int dirfd_under_test;
static const struct open_how how = { O_RDONLY | O_CLOEXEC, 0, RESOLVE_BENEATH };

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int raw_open(void)
{
	return (int)syscall(SYS_openat2, dirfd_under_test, "file", &how,
			    sizeof(how));
}

static int library_open(void)
{
	return openat2(dirfd_under_test, "file", &how, sizeof(how));
}

/* ns per open, or -1 if an open failed. */
static double time_opens(int (*open_once)(void))
{
	double start = now_ns();

	for (int i = 0; i < OPENS_PER_RUN; i++) {
		int fd = open_once();

		if (fd < 0)
			return -1;
		close(fd);
	}
	return (now_ns() - start) / OPENS_PER_RUN;
}

int main(int argc, char **argv)
{
	unsigned rounds = argc > 1 ? (unsigned)atoi(argv[1]) : DEFAULT_ROUNDS;
	char dir[] = "/tmp/openat2-cost.XXXXXX";
	double *ratios, *raw_ns, *lib_ns, ratio;
	int fd;

	if (rounds == 0 || mkdtemp(dir) == NULL ||
	    (dirfd_under_test = open(dir, O_DIRECTORY | O_RDONLY)) < 0 ||
	    (fd = openat(dirfd_under_test, "file", O_CREAT | O_WRONLY, 0644)) < 0) {
		perror("openat2-cost: setup");
		return 2;
	}
	close(fd);
	if (raw_open() < 0) {
		printf("SKIP: openat2 is refused here: no fast path to time\n");
		return 77;
	}
	pin_to_current_cpu();
	ratios = calloc(rounds, sizeof(*ratios));
	raw_ns = calloc(rounds, sizeof(*raw_ns));
	lib_ns = calloc(rounds, sizeof(*lib_ns));
	/* Warm both paths (and the dentry cache) before timing. */
	time_opens(raw_open);
	time_opens(library_open);
	for (unsigned r = 0; r < rounds; r++) {
		/* Alternate which goes first, so neither always pays for a
		 * cold cache line the other warmed. */
		if (r % 2 == 0) {
			raw_ns[r] = time_opens(raw_open);
			lib_ns[r] = time_opens(library_open);
		} else {
			lib_ns[r] = time_opens(library_open);
			raw_ns[r] = time_opens(raw_open);
		}
		if (raw_ns[r] < 0 || lib_ns[r] < 0) {
			perror("openat2-cost: an open failed");
			return 1;
		}
		ratios[r] = lib_ns[r] / raw_ns[r];
	}
	ratio = median(ratios, rounds);
	printf("openat2 fast path (RESOLVE_BENEATH, one component), %u rounds "
	       "of %d opens:\n", rounds, OPENS_PER_RUN);
	printf("  raw syscall %.0f ns, library %.0f ns (medians)\n",
	       median(raw_ns, rounds), median(lib_ns, rounds));
	printf("  library / raw openat2 syscall: %.3f (target <= %.2f: %s)\n",
	       ratio, FAST_PATH_TARGET,
	       ratio <= FAST_PATH_TARGET ? "met" : "MISSED");
	unlinkat(dirfd_under_test, "file", 0);
	rmdir(dir);
	return 0;
}
