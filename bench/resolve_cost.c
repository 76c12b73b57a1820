/*
 * openat2's fallback, per call, against the kernel's openat2 and against
 * a naive walk (naive_walk.h), on the path shapes of resolve_shapes.h,
 * O_RDONLY, in the same run.
 *
 *   resolve-cost [ROUNDS]   the cost: per shape, the medians of the
 *                           per-round ratios fallback/kernel and
 *                           fallback/naive
 *   resolve-cost --once     one open of each shape by the fallback, then
 *                           by the naive walk, between marks that
 *                           count-resolve-syscalls.sh finds in strace's
 *                           log; each mark after a call names the fd
 *                           returned and the lowest free fd before it
 *
 * The fallback is the library's public openat2 in a process whose seccomp
 * filter refuses openat2 (refused_openat2.h): what a caller pays for each
 * call where the fallback runs. The first call meets the refusal and the
 * probe that confirms it, and the library remembers it, so every later
 * call, the one measured, is the walk alone.
 * The kernel's side passes through the same filter, and so does every
 * call of the naive walk, which is asked the same way: the refused system
 * call first.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../tests/common/openat2_again.h"
#include "execveat.h"
#include "naive_walk.h"
#include "pin_cpu.h"
#include "refused_openat2.h"
#include "resolve_shapes.h"
#include "stats.h"

#define OPENS_PER_RUN 20
#define DEFAULT_ROUNDS 200

static int root = -1;

typedef int open_fn(const struct resolve_shape *);

static struct open_how how_for(const struct resolve_shape *shape)
{
	return (struct open_how){ O_RDONLY | O_CLOEXEC, 0, shape->resolve };
}

static int kernel_open(const struct resolve_shape *shape)
{
	struct open_how how = how_for(shape);

	return kernel_side_openat2(root, shape->path, &how, NULL);
}

static int fallback_open(const struct resolve_shape *shape)
{
	struct open_how how = how_for(shape);

	return openat2(root, shape->path, &how, sizeof how);
}

/* As an emulation would be called: the system call first, refused here
 * like the fallback's, then the walk. */
static int naive_open(const struct resolve_shape *shape)
{
	struct open_how how = how_for(shape);

	if (syscall(SYS_openat2, root, shape->path, &how, sizeof how) >= 0 ||
	    errno != ENOSYS)
		return -1;
	return naive_walk_open(root, shape->path, &how);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* ns per open, or -1 if an open failed. */
static double time_opens(open_fn *open_once, const struct resolve_shape *shape)
{
	double start = now_ns();

	for (int i = 0; i < OPENS_PER_RUN; i++) {
		int fd = open_once(shape);

		if (fd < 0)
			return -1;
		close(fd);
	}
	return (now_ns() - start) / OPENS_PER_RUN;
}

/* Whether open_once opens the file the kernel's openat2 opens; where
 * renames elsewhere kept the kernel from any answer, whether it opens. */
static bool opens_the_kernels_file(open_fn *open_once,
				   const struct resolve_shape *shape)
{
	struct open_how how = how_for(shape);
	bool unanswered;
	int fd = open_once(shape),
	    kfd = kernel_side_openat2(root, shape->path, &how, &unanswered);
	struct stat st, kst;
	bool same = fd >= 0 && kfd >= 0 && fstat(fd, &st) == 0 &&
		    fstat(kfd, &kst) == 0 && st.st_dev == kst.st_dev &&
		    st.st_ino == kst.st_ino;

	if (unanswered) {
		openat2_say_not_judged(shape->name, "the open checked alone");
		same = fd >= 0;
	}

	if (fd >= 0)
		close(fd);
	if (kfd >= 0)
		close(kfd);
	return same;
}

/* The marks are writes to fd -1: they fail, and strace shows them. */
static void mark(const char *what)
{
	if (write(-1, what, strlen(what)) != -1)
		abort();
}

/* One traced open of each shape; 0, or 1 if one failed or opened a file
 * the kernel's openat2 does not. */
static int once_each(const char *side, open_fn *open_once, bool kernel_there)
{
	int rc = 0;

	for (int k = 0; k < RESOLVE_SHAPES; k++) {
		const struct resolve_shape *shape = &resolve_shapes[k];
		/* What the kernel would return: the lowest free fd. */
		int lowest = fcntl(root, F_DUPFD_CLOEXEC, 0);
		char begin[256], end[96];
		int fd, err;

		close(lowest);
		snprintf(begin, sizeof begin, "%s-once: %s: %s", side,
			 shape->name, shape->path);
		mark(begin);
		fd = open_once(shape);
		err = errno;
		snprintf(end, sizeof end, "%s-once: returned fd %d, lowest free %d",
			 side, fd, lowest);
		mark(end);
		if (fd < 0) {
			fprintf(stderr, "%s: %s: %s\n", side, shape->name,
				strerror(err));
			rc = 1;
			continue;
		}
		close(fd);
		if (kernel_there && !opens_the_kernels_file(open_once, shape)) {
			fprintf(stderr, "%s: %s: not the kernel's file\n", side,
				shape->name);
			rc = 1;
		}
	}
	return rc;
}

static int once(bool kernel_there)
{
	struct open_how how = { O_RDONLY | O_CLOEXEC, 0, RESOLVE_BENEATH };
	int fd, rc;

	/* The first call meets the refusal itself, and its probe; every
	 * later one goes to the walk. Measured: the later ones. */
	fd = openat2(root, "f", &how, sizeof how);
	if (fd < 0) {
		perror("resolve-cost: the first openat2");
		return 1;
	}
	close(fd);
	rc = once_each("resolve", fallback_open, kernel_there);
	return once_each("naive", naive_open, kernel_there) | rc;
}

struct timings {
	double *kernel, *fallback, *naive, *by_kernel, *by_naive;
};

/* One round: each side OPENS_PER_RUN times, in an order that alternates
 * with r, so that no side always pays for a cache line another warmed. */
static bool round_of(const struct resolve_shape *shape, unsigned int r,
		     struct timings *t)
{
	if (r % 2 == 0) {
		t->kernel[r] = time_opens(kernel_open, shape);
		t->fallback[r] = time_opens(fallback_open, shape);
		t->naive[r] = time_opens(naive_open, shape);
	} else {
		t->naive[r] = time_opens(naive_open, shape);
		t->fallback[r] = time_opens(fallback_open, shape);
		t->kernel[r] = time_opens(kernel_open, shape);
	}
	if (t->kernel[r] < 0 || t->fallback[r] < 0 || t->naive[r] < 0)
		return false;
	t->by_kernel[r] = t->fallback[r] / t->kernel[r];
	t->by_naive[r] = t->fallback[r] / t->naive[r];
	return true;
}

static int cost(unsigned int rounds)
{
	struct timings t = {
		calloc(rounds, sizeof(double)), calloc(rounds, sizeof(double)),
		calloc(rounds, sizeof(double)), calloc(rounds, sizeof(double)),
		calloc(rounds, sizeof(double)),
	};
	int cpu;

	for (int k = 0; k < RESOLVE_SHAPES; k++) {
		if (!opens_the_kernels_file(fallback_open, &resolve_shapes[k]) ||
		    !opens_the_kernels_file(naive_open, &resolve_shapes[k])) {
			printf("resolve-cost: %s: a side opens another file than "
			       "the kernel's openat2\n", resolve_shapes[k].name);
			return 1;
		}
	}
	cpu = pin_to_current_cpu();
	printf("openat2's fallback (the library's openat2, openat2 refused by "
	       "seccomp) against\nthe kernel's openat2 and a naive walk: "
	       "O_RDONLY, RESOLVE_BENEATH unless named,\n%u rounds of %d opens "
	       "each, on CPU %d; medians (ns per open, per-round ratios):\n",
	       rounds, OPENS_PER_RUN, cpu);
	printf("  %-33s %8s %9s %8s %8s %8s\n", "shape", "kernel",
	       "fallback", "naive", "f/kernel", "f/naive");
	for (int k = 0; k < RESOLVE_SHAPES; k++) {
		const struct resolve_shape *shape = &resolve_shapes[k];

		time_opens(kernel_open, shape);
		time_opens(fallback_open, shape);
		time_opens(naive_open, shape);
		for (unsigned int r = 0; r < rounds; r++) {
			if (!round_of(shape, r, &t)) {
				perror("resolve-cost: an open failed");
				return 1;
			}
		}
		printf("  %-33s %8.0f %9.0f %8.0f %8.2f %8.2f\n", shape->name,
		       median(t.kernel, rounds), median(t.fallback, rounds),
		       median(t.naive, rounds), median(t.by_kernel, rounds),
		       median(t.by_naive, rounds));
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

int main(int argc, char **argv)
{
	char dir[] = "/tmp/resolve-cost.XXXXXX";
	bool only_once = argc > 1 && strcmp(argv[1], "--once") == 0;
	unsigned int rounds = argc > 1 && !only_once ?
				      (unsigned int)atoi(argv[1]) :
				      DEFAULT_ROUNDS;
	bool kernel_there;
	int parent, rc, err, fd;

	if (rounds == 0 || mkdtemp(dir) == NULL ||
	    (parent = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0 ||
	    (root = resolve_shapes_build(parent, "shapes")) < 0) {
		perror("resolve-cost: setup");
		return 2;
	}
	close(parent);
	err = refuse_openat2_but_to_the_kernel_side();
	if (err != 0) {
		printf("SKIP: cannot refuse openat2 with seccomp: %s\n",
		       strerror(err));
		remove_tree(dir);
		return 77;
	}
	fd = kernel_open(&resolve_shapes[0]);
	kernel_there = fd >= 0;
	if (kernel_there)
		close(fd);
	if (only_once) {
		rc = once(kernel_there);
	} else if (!kernel_there) {
		printf("SKIP: the kernel's openat2 is refused here: nothing to "
		       "compare with\n");
		rc = 77;
	} else {
		rc = cost(rounds);
	}
	remove_tree(dir);
	return rc;
}
