/*
 * What one exec through each way costs: vfork + exec + waitpid of
 * exit-at-once, the ways interleaved in many short rounds so that a burst
 * of noise lands on all of them alike. Each comparison is the median of
 * the per-round ratios; the medians in microseconds are for scale only.
 *
 *   exec-cost PROGRAM [ROUNDS]
 *
 * First with execveat allowed (the fast path), then with execveat failing
 * ENOSYS under seccomp, where the library verifies /proc and glibc does
 * not. The library learns ENOSYS once and caches it in its own memory; a
 * vfork child shares that memory, so the first child's store is what every
 * later child of the same process sees. A "first call" therefore needs a
 * process whose cache is still empty: each round of the second part runs
 * in a freshly forked worker (fork copies the parent's empty cache), which
 * makes one first call and then later calls. fork leaves the worker's
 * view of the library's pages unlike a fresh image's; fresh_image.h
 * explains and undoes that before anything is timed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hostile_env.h"
#include "exec_ways.h"
#include "fresh_image.h"
#include "pin_cpu.h"
#include "stats.h"

#define RUNS_PER_ROUND 5
#define DEFAULT_ROUNDS 1000

#define FAST_PATH_TARGET 1.03
#define FALLBACK_TARGET 1.10

static const char *verdict(double ratio, double target)
{
	return ratio <= target ? "met" : "MISSED";
}

/* ---- execveat allowed ---------------------------------------------- */

struct fast_round {
	double us[WAY_COUNT][RUNS_PER_ROUND];
};

static void run_fast_round(struct fast_round *r, unsigned round,
			   const struct exec_target *t)
{
	for (unsigned run = 0; run < RUNS_PER_ROUND; run++)
		for (unsigned i = 0; i < WAY_COUNT; i++) {
			/* Rotate the order so no way always goes first. */
			enum exec_way way = (round + run + i) % WAY_COUNT;

			if (exec_way_available(way))
				r->us[way][run] = time_exec(way, t);
		}
}

static double round_median(const struct fast_round *r, enum exec_way way)
{
	double copy[RUNS_PER_ROUND];

	memcpy(copy, r->us[way], sizeof(copy));
	return median(copy, RUNS_PER_ROUND);
}

/* Median over rounds of (way a / way b), each round's ways by median. */
static double fast_ratio(const struct fast_round *rounds, unsigned n,
			 enum exec_way a, enum exec_way b)
{
	double *ratios = calloc(n, sizeof(*ratios));
	double m;

	for (unsigned i = 0; i < n; i++)
		ratios[i] = round_median(&rounds[i], a) /
			    round_median(&rounds[i], b);
	m = median(ratios, n);
	free(ratios);
	return m;
}

static double fast_median_us(const struct fast_round *rounds, unsigned n,
			     enum exec_way way)
{
	double *all = calloc((size_t)n * RUNS_PER_ROUND, sizeof(*all));
	double m;

	for (unsigned i = 0; i < n; i++)
		memcpy(&all[i * RUNS_PER_ROUND], rounds[i].us[way],
		       sizeof(rounds[i].us[way]));
	m = median(all, (size_t)n * RUNS_PER_ROUND);
	free(all);
	return m;
}

static void report_fast(const struct fast_round *rounds, unsigned n)
{
	double lib_raw = fast_ratio(rounds, n, WAY_LIB, WAY_RAW);

	printf("fast path (execveat allowed), median us:");
	for (unsigned way = 0; way < WAY_COUNT; way++)
		if (exec_way_available(way))
			printf(" %s=%.1f", exec_way_name(way),
			       fast_median_us(rounds, n, way));
	printf("\n");
	printf("fast path: ratio lib/raw=%.3f (target <= %.2f: %s)",
	       lib_raw, FAST_PATH_TARGET, verdict(lib_raw, FAST_PATH_TARGET));
	if (exec_way_available(WAY_GLIBC)) {
		double lib_glibc = fast_ratio(rounds, n, WAY_LIB, WAY_GLIBC);

		printf(" lib/glibc=%.3f (target <= %.2f: %s)", lib_glibc,
		       FAST_PATH_TARGET, verdict(lib_glibc, FAST_PATH_TARGET));
	}
	printf("\n");
	printf("for scale: ratio path/raw=%.3f spawn/raw=%.3f\n",
	       fast_ratio(rounds, n, WAY_PATH, WAY_RAW),
	       fast_ratio(rounds, n, WAY_SPAWN, WAY_RAW));
}

static void run_fast_path(unsigned n, const struct exec_target *t)
{
	struct fast_round *rounds = calloc(n, sizeof(*rounds));

	for (unsigned i = 0; i < n; i++)
		run_fast_round(&rounds[i], i, t);
	report_fast(rounds, n);
	free(rounds);
}

/* ---- execveat refused with ENOSYS ----------------------------------- */

struct fallback_round {
	double lib_first; /* the worker's first library call */
	double lib_later[RUNS_PER_ROUND];
	double glibc[RUNS_PER_ROUND];
	double path[RUNS_PER_ROUND];
};

/* In a worker whose library cache is empty (see the top of the file). */
static void run_fallback_round(struct fallback_round *r, unsigned round,
			       const struct exec_target *t)
{
	static const enum exec_way later_ways[] = { WAY_LIB, WAY_GLIBC,
						    WAY_PATH };
	double *later_us[] = { r->lib_later, r->glibc, r->path };

	/* Undo what fork did to the pages a first call touches (see
	 * fresh_image.h). Then warm up: the worker's first vfork children
	 * fault in its copy-on-write stack, and its first execs through
	 * /proc run slower than the later ones, whichever way makes them.
	 * glibc keeps no state, so running it here changes nothing that is
	 * compared, and the library's first call meets a steady worker. */
	if (make_data_pages_private("libexecveat") == 0) {
		fprintf(stderr, "no writable page of libexecveat found\n");
		_exit(1);
	}
	fault_in_exec_code(t);
	time_exec(WAY_PATH, t);
	time_exec(WAY_PATH, t);
	time_exec(WAY_GLIBC, t);
	time_exec(WAY_GLIBC, t);
	r->lib_first = time_exec(WAY_LIB, t);
	for (unsigned run = 0; run < RUNS_PER_ROUND; run++)
		for (unsigned i = 0; i < 3; i++) {
			unsigned k = (round + run + i) % 3;

			later_us[k][run] = time_exec(later_ways[k], t);
		}
}

static void run_worker(struct fallback_round *r, unsigned round,
		       const struct exec_target *t)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		run_fallback_round(r, round, t);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || status != 0) {
		fprintf(stderr, "fallback round %u failed\n", round);
		exit(1);
	}
}

static double fallback_median_of(const struct fallback_round *rounds,
				 unsigned n, size_t offset, size_t per_round)
{
	double *all = calloc((size_t)n * per_round, sizeof(*all));
	double m;

	for (unsigned i = 0; i < n; i++)
		memcpy(&all[i * per_round], (const char *)&rounds[i] + offset,
		       per_round * sizeof(double));
	m = median(all, (size_t)n * per_round);
	free(all);
	return m;
}

#define FALLBACK_MEDIAN(rounds, n, field)                                  \
	fallback_median_of(rounds, n, offsetof(struct fallback_round, field), \
			   sizeof(((struct fallback_round *)0)->field) /       \
				   sizeof(double))

static double later_ratio(const double *a, const double *b)
{
	double x[RUNS_PER_ROUND], y[RUNS_PER_ROUND];

	memcpy(x, a, sizeof(x));
	memcpy(y, b, sizeof(y));
	return median(x, RUNS_PER_ROUND) / median(y, RUNS_PER_ROUND);
}

static void report_fallback(const struct fallback_round *rounds, unsigned n)
{
	double *first = calloc(n, sizeof(*first));
	double *later = calloc(n, sizeof(*later));
	double *first_later = calloc(n, sizeof(*first_later));
	double r_first, r_later;

	for (unsigned i = 0; i < n; i++) {
		const struct fallback_round *r = &rounds[i];
		double glibc[RUNS_PER_ROUND], lib_later[RUNS_PER_ROUND];

		memcpy(glibc, r->glibc, sizeof(glibc));
		memcpy(lib_later, r->lib_later, sizeof(lib_later));
		first[i] = r->lib_first / median(glibc, RUNS_PER_ROUND);
		later[i] = later_ratio(r->lib_later, r->glibc);
		first_later[i] =
			r->lib_first / median(lib_later, RUNS_PER_ROUND);
	}
	r_first = median(first, n);
	r_later = median(later, n);
	printf("fallback (execveat ENOSYS), median us: lib-first=%.1f "
	       "lib-later=%.1f glibc=%.1f path=%.1f\n",
	       FALLBACK_MEDIAN(rounds, n, lib_first),
	       FALLBACK_MEDIAN(rounds, n, lib_later),
	       FALLBACK_MEDIAN(rounds, n, glibc),
	       FALLBACK_MEDIAN(rounds, n, path));
	printf("fallback first call: ratio lib/glibc=%.3f (target <= %.2f: %s)\n",
	       r_first, FALLBACK_TARGET, verdict(r_first, FALLBACK_TARGET));
	printf("fallback later calls: ratio lib/glibc=%.3f (target <= %.2f: %s)\n",
	       r_later, FALLBACK_TARGET, verdict(r_later, FALLBACK_TARGET));
	printf("for scale: ratio lib-first/lib-later=%.3f\n",
	       median(first_later, n));
	free(first);
	free(later);
	free(first_later);
}

static void run_fallback(unsigned n, const struct exec_target *t)
{
	/* Shared, so the workers' timings outlive them. */
	size_t size = (size_t)n * sizeof(struct fallback_round);
	struct fallback_round *rounds = mmap(NULL, size, PROT_READ | PROT_WRITE,
					     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int err;

	if (rounds == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	if (!exec_way_available(WAY_GLIBC)) {
		printf("fallback: not measured (needs glibc's fexecve)\n");
		return;
	}
	err = block_execveat(ENOSYS);
	if (err != 0) {
		printf("fallback: not measured (seccomp: %s)\n", strerror(err));
		return;
	}
	fflush(stdout);
	for (unsigned i = 0; i < n; i++)
		run_worker(&rounds[i], i, t);
	report_fallback(rounds, n);
	munmap(rounds, size);
}

int main(int argc, char **argv)
{
	char *child_argv[] = { "exit-at-once", NULL };
	char *child_envp[] = { NULL };
	struct exec_target t = { -1, NULL, child_argv, child_envp };
	unsigned rounds = argc > 2 ? (unsigned)atoi(argv[2]) : DEFAULT_ROUNDS;

	if (argc < 2 || rounds == 0) {
		fprintf(stderr, "usage: %s PROGRAM [ROUNDS]\n", argv[0]);
		return 2;
	}
	t.path = argv[1];
	t.fd = open(t.path, O_RDONLY | O_CLOEXEC);
	if (t.fd < 0) {
		perror(t.path);
		return 1;
	}
	printf("exec-cost: vfork + exec + waitpid of %s, %u rounds of %d "
	       "runs per way, interleaved, on CPU %d\n", t.path, rounds,
	       RUNS_PER_ROUND, pin_to_current_cpu());
	run_fast_path(rounds, &t);
	run_fallback(rounds, &t);
	return 0;
}
