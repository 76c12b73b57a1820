/*
 * openat2's fallback (the resolver) by path length: RESOLVE_BENEATH opens
 * of a file 1, 4 and 16 components down, through directories or through
 * a symlink at every step, against the kernel's openat2 in the same run.
 *
 *   resolve-cost [ROUNDS]   the cost, as the median of per-round ratios
 *   resolve-cost --once     one open of each kind, between marks that
 *                           count-resolve-syscalls.sh finds in strace's log
 *
 * The tree: d/d/.../d (16 deep) with a file f at depths 0, 3 and 15, and
 * beside each d a symlink s -> d, so "s/s/s/f" walks as many directories
 * as "d/d/d/f" and one link more at each step.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "pin_cpu.h"
#include "resolve.h"
#include "stats.h"

#define OPENS_PER_RUN 50
#define DEFAULT_ROUNDS 200
#define DEPTH 16

static int root = -1;
static const struct open_how how = { O_RDONLY | O_CLOEXEC, 0,
				     RESOLVE_BENEATH };

struct kind {
	const char *name;
	int components;
	char path[3 * DEPTH];
};

static struct kind kinds[] = {
	{ "1 component", 1, "" },	   { "4 components", 4, "" },
	{ "16 components", 16, "" },	   { "1 component, links", 1, "" },
	{ "4 components, links", 4, "" }, { "16 components, links", 16, "" },
};
#define KINDS (sizeof kinds / sizeof *kinds)

static int build(char *dir)
{
	int d;

	if (mkdtemp(dir) == NULL || (root = open(dir, O_PATH | O_DIRECTORY)) < 0)
		return -1;
	d = dup(root);
	for (int depth = 0; depth < DEPTH; depth++) {
		int next;

		if (depth == 0 || depth == 3 || depth == 15)
			close(openat(d, "f", O_CREAT | O_WRONLY, 0644));
		if (mkdirat(d, "d", 0755) < 0 || symlinkat("d", d, "s") < 0 ||
		    (next = openat(d, "d", O_PATH | O_DIRECTORY)) < 0)
			return -1;
		close(d);
		d = next;
	}
	close(d);
	for (size_t k = 0; k < KINDS; k++) {
		const char *step = k < KINDS / 2 ? "d/" : "s/";
		size_t len = 0;

		for (int i = 1; i < kinds[k].components; i++)
			len += (size_t)sprintf(kinds[k].path + len, "%s", step);
		sprintf(kinds[k].path + len, "f");
	}
	return 0;
}

static void remove_tree(const char *dir)
{
	char cmd[128];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "resolve-cost: could not remove %s\n", dir);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int kernel_open(const char *path)
{
	return (int)syscall(SYS_openat2, root, path, &how, sizeof how);
}

static int resolver_open(const char *path)
{
	return libexecveat_resolve_open(root, path, &how);
}

/* ns per open, or -1 if an open failed. */
static double time_opens(int (*open_once)(const char *), const char *path)
{
	double start = now_ns();

	for (int i = 0; i < OPENS_PER_RUN; i++) {
		int fd = open_once(path);

		if (fd < 0)
			return -1;
		close(fd);
	}
	return (now_ns() - start) / OPENS_PER_RUN;
}

/* The marks are writes to fd -1: they fail, and strace shows them. */
static void mark(const char *what)
{
	if (write(-1, what, strlen(what)) != -1)
		abort();
}

static int once(void)
{
	for (size_t k = 0; k < KINDS; k++) {
		char begin[96];
		int fd;

		snprintf(begin, sizeof begin, "resolve-once: %s: %s",
			 kinds[k].name, kinds[k].path);
		mark(begin);
		fd = resolver_open(kinds[k].path);
		mark("resolve-once: returned");
		if (fd < 0) {
			perror(kinds[k].path);
			return 1;
		}
		close(fd);
	}
	return 0;
}

static int cost(unsigned int rounds)
{
	double *ratios = calloc(rounds, sizeof *ratios);
	double *kernel_ns = calloc(rounds, sizeof *kernel_ns);
	double *resolver_ns = calloc(rounds, sizeof *resolver_ns);

	if (kernel_open("f") < 0) {
		printf("SKIP: openat2 is refused here: nothing to compare with\n");
		return 77;
	}
	pin_to_current_cpu();
	printf("openat2's fallback against the kernel's openat2 "
	       "(RESOLVE_BENEATH, O_RDONLY), %u rounds of %d opens:\n",
	       rounds, OPENS_PER_RUN);
	for (size_t k = 0; k < KINDS; k++) {
		const char *path = kinds[k].path;

		time_opens(kernel_open, path);
		time_opens(resolver_open, path);
		for (unsigned int r = 0; r < rounds; r++) {
			/* Alternate which goes first. */
			if (r % 2 == 0) {
				kernel_ns[r] = time_opens(kernel_open, path);
				resolver_ns[r] = time_opens(resolver_open, path);
			} else {
				resolver_ns[r] = time_opens(resolver_open, path);
				kernel_ns[r] = time_opens(kernel_open, path);
			}
			if (kernel_ns[r] < 0 || resolver_ns[r] < 0) {
				perror("resolve-cost: an open failed");
				return 1;
			}
			ratios[r] = resolver_ns[r] / kernel_ns[r];
		}
		printf("  %-22s kernel %6.0f ns, fallback %7.0f ns: ratio %5.1f\n",
		       kinds[k].name, median(kernel_ns, rounds),
		       median(resolver_ns, rounds), median(ratios, rounds));
	}
	return 0;
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/resolve-cost.XXXXXX";
	int rc;

	if (build(dir) < 0) {
		perror("resolve-cost: setup");
		return 2;
	}
	if (argc > 1 && strcmp(argv[1], "--once") == 0)
		rc = once();
	else
		rc = cost(argc > 1 ? (unsigned int)atoi(argv[1]) : DEFAULT_ROUNDS);
	remove_tree(dir);
	return rc;
}
