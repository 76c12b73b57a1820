/*
 * What closefrom costs where close_range is refused, against the system
 * call and against the loop programs write for themselves (a close() per
 * number up to the soft RLIMIT_NOFILE), with 10, 29, 61, 1000, 1021 and
 * 65536 fds open
 * (dups of one file, from fd 3 up; the limit set just above them, or
 * where the hard limit cannot be raised that far (no CAP_SYS_RESOURCE,
 * as in some containers), as many as it allows).
 *
 *   closefrom-cost [ROUNDS]
 *
 * Each closefrom runs in a forked child that opens the fds, makes its
 * world (close_range refused with ENOSYS by a seccomp filter; /proc real
 * or hidden by a tmpfs) and times the one call; the parent takes the
 * median of ROUNDS children per way and prints each way's ratio to
 * close_range's in the same run. Needs root (/proc is hidden in a mount
 * namespace).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "execveat.h"
#include "kernel_env.h"
#include "pin_cpu.h"
#include "stats.h"

#define DEFAULT_ROUNDS 7

enum way { SYSCALL, LISTING, SCAN, NAIVE_LOOP, WAYS };

static const char *const way_names[WAYS] = {
	"close_range system call",
	"library, close_range refused, /proc listed",
	"library, close_range refused, no /proc (scan)",
	"close() per number below the limit",
};

static double *shared_ns;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* fds that can be opened here, at most wanted, leaving 64 to spare:
 * the hard limit is raised where that is allowed, never lowered. */
static int openable(int wanted)
{
	struct rlimit limit;

	if (getrlimit(RLIMIT_NOFILE, &limit) != 0)
		return wanted;
	if (limit.rlim_max >= (rlim_t)wanted + 64)
		return wanted;
	limit.rlim_max = (rlim_t)wanted + 64;
	if (setrlimit(RLIMIT_NOFILE, &limit) == 0)
		return wanted;
	getrlimit(RLIMIT_NOFILE, &limit);
	return (int)limit.rlim_max - 64;
}

static int open_fds(int count)
{
	struct rlimit limit = { (rlim_t)count + 64, (rlim_t)count + 64 };
	int file;

	if (setrlimit(RLIMIT_NOFILE, &limit) != 0)
		return -1;
	for (int fd = 3; fd < count + 64; fd++)
		close(fd);
	if ((file = open("/dev/null", O_RDONLY)) != 3)
		return -1;
	for (int fd = 4; fd < 3 + count; fd++)
		if (dup2(file, fd) != fd)
			return -1;
	return 0;
}

static int make_world(enum way way)
{
	if (way == SCAN && hide_proc() != 0)
		return -1;
	if ((way == LISTING || way == SCAN) && block_close_range(ENOSYS) != 0)
		return -1;
	return 0;
}

static void close_every_number_below_limit(void)
{
	struct rlimit limit;

	getrlimit(RLIMIT_NOFILE, &limit);
	for (rlim_t fd = 3; fd < limit.rlim_cur; fd++)
		close((int)fd);
}

/* ns for one call in a fresh child, or -1. */
static double time_once(enum way way, int count)
{
	int status;
	pid_t pid;

	*shared_ns = -1;
	pid = fork();
	if (pid == 0) {
		double start;

		if (open_fds(count) != 0 || make_world(way) != 0)
			_exit(1);
		start = now_ns();
		if (way == SYSCALL)
			raw_close_range(3, ~0u, 0);
		else if (way == NAIVE_LOOP)
			close_every_number_below_limit();
		else
			closefrom(3);
		*shared_ns = now_ns() - start;
		/* Nothing may be left open. */
		for (int fd = 3; fd < count + 3; fd++)
			if (fcntl(fd, F_GETFD) != -1)
				_exit(2);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return -1;
	return *shared_ns;
}

int main(int argc, char **argv)
{
	/* 29, 61 and 1021: fds 0 to 31, 63 and 1023 all open (0, 1 and 2
	 * are), where no closed number below 32 is left to prove the
	 * table's edge with. */
	static const int counts[] = { 10, 29, 61, 1000, 1021, 65536 };
	unsigned rounds = argc > 1 ? (unsigned)atoi(argv[1]) : DEFAULT_ROUNDS;
	double ns[WAYS][64];

	if (getuid() != 0) {
		printf("SKIP: needs root (a limit above the hard one, and a "
		       "mount namespace)\n");
		return 77;
	}
	if (close_range_refusal() != 0) {
		printf("SKIP: close_range is refused here: no system call to "
		       "compare with\n");
		return 77;
	}
	if (rounds == 0 || rounds > 64)
		rounds = DEFAULT_ROUNDS;
	shared_ns = mmap(NULL, sizeof(double), PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared_ns == MAP_FAILED)
		return 2;
	pin_to_current_cpu();
	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		int count = openable(counts[c]);
		double medians[WAYS];

		/* Interleaved: each round times every way once. */
		for (unsigned r = 0; r < rounds; r++)
			for (int w = 0; w < WAYS; w++)
				if ((ns[w][r] = time_once(w, count)) < 0) {
					printf("closefrom-cost: %s with %d fds "
					       "failed or left an fd open\n",
					       way_names[w], count);
					return 1;
				}
		printf("%d fds open%s, median of %u rounds:\n", count,
		       count < counts[c] ? " (the hard limit allows no more)" :
		       "", rounds);
		for (int w = 0; w < WAYS; w++) {
			medians[w] = median(ns[w], rounds);
			printf("  %-48s %12.0f ns  %9.1f x the system call\n",
			       way_names[w], medians[w],
			       medians[w] / medians[SYSCALL]);
		}
	}
	return 0;
}
