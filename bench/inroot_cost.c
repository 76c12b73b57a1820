/*
 * The 2.0 operations (inroot.h) against a naive "resolve, then act"
 * (naive_inroot.h), in one run: mkdir_all of a 16-deep chain, remove_all
 * of a tree of 1,000 entries, open of a file 16 directories deep
 * (inroot_trees.h), each by the library where the kernel's openat2
 * answers, by the library where a seccomp filter refuses openat2 with
 * ENOSYS (its own walk), and naively.
 *
 *   inroot-cost [--syscalls FILE]
 *           the table: per operation and way, the median CPU time per
 *           operation and the median of the per-round ratios to the
 *           naive way; with FILE (lines "OPERATION|WAY|CALLS", which
 *           count-inroot-syscalls.sh --counts writes), the system calls
 *           per operation beside them
 *   inroot-cost --once
 *           each operation once per way, between marks that
 *           count-inroot-syscalls.sh finds in strace's log
 *
 * A seccomp filter cannot be taken off again, so each library way runs in
 * a child of its own: the allowed way in one without a filter, the
 * refused way in one with it. Each child times the naive way too, in
 * rounds alternating with its library way, and each ratio is against the
 * naive way timed in the same process: a filtered process pays for its
 * filter on every system call, the naive way's included.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "execveat.h"
#include "inroot.h"
#include "inroot_trees.h"
#include "naive_inroot.h"
#include "pin_cpu.h"
#include "refuse_call.h"
#include "stats.h"

enum way { ALLOWED, REFUSED, NAIVE, WAYS };

static const char *const way_key[WAYS] = { "allowed", "refused", "naive" };
static const char *const way_label[WAYS] = {
	"library, openat2 allowed", "library, openat2 refused", "naive way",
};

static int root = -1;

struct operation {
	const char *key, *label, *naive_label;
	/* Operations timed together, each on its own tree. */
	int per_run;
	unsigned int rounds;
	int (*act)(enum way way, int i);
	/* Untimed, before and after the run's operations; may be NULL. */
	int (*prepare)(int i);
	int (*tidy)(int i);
	/* Whether the way does what the operation says: asked once. */
	bool (*does_it)(enum way way);
};

/* Per operation and library way, from the child that timed it. */
struct result {
	double library_ns, naive_ns, ratio;
};

static int close_answer(int fd)
{
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int mkdir_chain(enum way way, int i)
{
	char path[256];

	mkdir_chain_path(i, path, sizeof path);
	if (way == NAIVE)
		return naive_mkdir_all(path, 0755);
	return close_answer(inroot_mkdir_all(root, path, 0755));
}

static bool makes_the_chain(enum way way)
{
	char path[256];
	struct stat st;
	bool made;

	mkdir_chain_path(0, path, sizeof path);
	made = mkdir_chain(way, 0) == 0 && stat(path, &st) == 0 &&
	       S_ISDIR(st.st_mode);
	return remove_mkdir_chain(0) == 0 && made;
}

#define REMOVAL_TOP "r"

static int build_tree(int i)
{
	(void)i;
	return build_removal_tree(REMOVAL_TOP);
}

static int remove_tree(enum way way, int i)
{
	(void)i;
	if (way == NAIVE)
		return naive_remove_all(REMOVAL_TOP);
	return inroot_remove_all(root, REMOVAL_TOP);
}

static bool removes_the_tree(enum way way)
{
	struct stat st;

	return build_tree(0) == 0 && remove_tree(way, 0) == 0 &&
	       lstat(REMOVAL_TOP, &st) != 0 && errno == ENOENT;
}

static int open_file(enum way way)
{
	if (way == NAIVE)
		return naive_open(deep_file_path, O_RDONLY | O_CLOEXEC);
	return inroot_open(root, deep_file_path, O_RDONLY | O_CLOEXEC);
}

static int open_deep(enum way way, int i)
{
	(void)i;
	return close_answer(open_file(way));
}

static bool opens_the_file(enum way way)
{
	int fd = open_file(way);
	struct stat st, want;
	bool same = fd >= 0 && fstat(fd, &st) == 0 &&
		    stat(deep_file_path, &want) == 0 &&
		    st.st_dev == want.st_dev && st.st_ino == want.st_ino;

	if (fd >= 0)
		close(fd);
	return same;
}

static int tidy_chain(int i)
{
	return remove_mkdir_chain(i);
}

static const struct operation operations[] = {
	{ "mkdir_all", "mkdir_all, 16 directories", "naive: mkdir per prefix",
	  4, 100, mkdir_chain,
	  NULL, tidy_chain, makes_the_chain },
	{ "remove_all", "remove_all, 1,000 entries",
	  "naive: nftw, unlinkat by name", 1, 40, remove_tree,
	  build_tree, NULL, removes_the_tree },
	{ "open", "open, 16 directories deep", "naive: open by name", 20, 200,
	  open_deep, NULL, NULL, opens_the_file },
};
#define OPERATIONS (sizeof operations / sizeof operations[0])

/*
 * The process's CPU time, not the wall clock's: on a machine shared with
 * other work, an operation of a millisecond or more is often preempted
 * for tens of them (mkdir_all with openat2 refused, 1.5 ms, took 15 to
 * 35 ms in most calls at a load of 18 on two CPUs), and the longer way
 * would pay for it more often than the shorter. All the ways do is the
 * process's own work in the kernel and out of it, on a tmpfs that never
 * waits for a disk: its CPU time counts it whole.
 */
static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* ns per operation over one run, or -1 if a step failed. */
static double time_run(const struct operation *op, enum way way)
{
	double start, elapsed;

	for (int i = 0; op->prepare != NULL && i < op->per_run; i++)
		if (op->prepare(i) != 0)
			return -1;
	start = now_ns();
	for (int i = 0; i < op->per_run; i++)
		if (op->act(way, i) != 0)
			return -1;
	elapsed = now_ns() - start;
	for (int i = 0; op->tidy != NULL && i < op->per_run; i++)
		if (op->tidy(i) != 0)
			return -1;
	return elapsed / op->per_run;
}

/* The library way against the naive way, in rounds whose order
 * alternates, so that neither always runs on what the other warmed. */
static bool measure(const struct operation *op, enum way way,
		    struct result *out)
{
	unsigned int n = op->rounds;
	double *library = calloc(n, sizeof(double));
	double *naive = calloc(n, sizeof(double));
	double *ratio = calloc(n, sizeof(double));
	bool ok = library != NULL && naive != NULL && ratio != NULL &&
		  time_run(op, way) >= 0 && time_run(op, NAIVE) >= 0;

	for (unsigned int r = 0; ok && r < n; r++) {
		if (r % 2 == 0) {
			library[r] = time_run(op, way);
			naive[r] = time_run(op, NAIVE);
		} else {
			naive[r] = time_run(op, NAIVE);
			library[r] = time_run(op, way);
		}
		ok = library[r] > 0 && naive[r] > 0;
		if (ok)
			ratio[r] = library[r] / naive[r];
	}
	if (ok)
		*out = (struct result){ median(library, n), median(naive, n),
					median(ratio, n) };
	free(library);
	free(naive);
	free(ratio);
	return ok;
}

/* The marks are writes to fd -1: they fail, and strace shows them. */
static void mark(const char *what)
{
	if (write(-1, what, strlen(what)) != -1)
		abort();
}

/* One traced operation: prepared and tidied outside its marks. */
static bool once(const struct operation *op, enum way way)
{
	char begin[96];
	int rc;

	if (op->prepare != NULL && op->prepare(0) != 0)
		return false;
	snprintf(begin, sizeof begin, "inroot-once: %s: %s", op->key,
		 way_key[way]);
	mark(begin);
	rc = op->act(way, 0);
	mark("inroot-once: end");
	return rc == 0 && (op->tidy == NULL || op->tidy(0) == 0);
}

/* A child's work for one library way: 0, 1 (a way failed) or 77. */
static int side(enum way way, bool only_once, struct result *results)
{
	int err = way == REFUSED ? refuse_call(SYS_openat2, ENOSYS) : 0;

	if (err != 0) {
		printf("SKIP: cannot refuse openat2 with seccomp: %s\n",
		       strerror(err));
		return 77;
	}
	for (size_t k = 0; k < OPERATIONS; k++) {
		const struct operation *op = &operations[k];

		if (!op->does_it(way) || !op->does_it(NAIVE)) {
			printf("inroot-cost: %s: the %s or the naive way does "
			       "not do it (%s)\n", op->key, way_label[way],
			       strerror(errno));
			return 1;
		}
	}
	for (size_t k = 0; k < OPERATIONS; k++) {
		const struct operation *op = &operations[k];
		bool ok = only_once ?
				  once(op, way) &&
					  (way != ALLOWED || once(op, NAIVE)) :
				  measure(op, way, &results[k]);

		if (!ok) {
			printf("inroot-cost: %s, %s: %s\n", op->key,
			       way_label[way], strerror(errno));
			return 1;
		}
	}
	return 0;
}

static int in_child(enum way way, bool only_once, struct result *results)
{
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		int rc = side(way, only_once, results);

		fflush(stdout);
		_exit(rc);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 1;
	return WEXITSTATUS(status);
}

/* The count for OPERATION|WAY in the file count-inroot-syscalls.sh
 * --counts wrote, or -1. */
static long syscalls_of(const char *file, const char *op, const char *way)
{
	char line[128], want[64];
	long n = -1;
	FILE *in;

	if (file == NULL || (in = fopen(file, "r")) == NULL)
		return -1;
	snprintf(want, sizeof want, "%s|%s|", op, way);
	while (n < 0 && fgets(line, sizeof line, in) != NULL)
		if (strncmp(line, want, strlen(want)) == 0)
			n = strtol(line + strlen(want), NULL, 10);
	fclose(in);
	return n;
}

static void row(const char *op_label, const char *way_text, double ns,
		double ratio, long calls)
{
	char count[24] = "-";

	if (calls >= 0)
		snprintf(count, sizeof count, "%ld", calls);
	printf("| %s | %s | %.1f µs | %.2f | %s |\n", op_label, way_text,
	       ns / 1e3, ratio, count);
}

static void table(struct result results[][2], const char *syscalls)
{
	printf("| operation | way | median per operation | ratio to naive | "
	       "system calls per operation |\n|---|---|---|---|---|\n");
	for (size_t k = 0; k < OPERATIONS; k++) {
		const struct operation *op = &operations[k];
		const struct result *allowed = &results[k][ALLOWED];
		const struct result *refused = &results[k][REFUSED];

		row(op->label, way_label[ALLOWED], allowed->library_ns,
		    allowed->ratio,
		    syscalls_of(syscalls, op->key, way_key[ALLOWED]));
		row("", way_label[REFUSED], refused->library_ns,
		    refused->ratio,
		    syscalls_of(syscalls, op->key, way_key[REFUSED]));
		row("", op->naive_label, allowed->naive_ns, 1.0,
		    syscalls_of(syscalls, op->key, way_key[NAIVE]));
	}
	printf("\nThe naive way timed beside the refused way (its ratio's "
	       "baseline, in a filtered\nprocess):");
	for (size_t k = 0; k < OPERATIONS; k++)
		printf("%s %s %.1f µs", k == 0 ? "" : ",", operations[k].key,
		       results[k][REFUSED].naive_ns / 1e3);
	printf(".\n");
}

/* Each child's results, copied out of the shared page after it exits. */
static int measure_in_child(enum way way, struct result *shared,
			    struct result mine[][2])
{
	int rc = in_child(way, false, shared);

	for (size_t k = 0; k < OPERATIONS; k++)
		mine[k][way] = shared[k];
	return rc;
}

static int measure_both(const char *where, const char *syscalls)
{
	struct result *shared = mmap(NULL, OPERATIONS * sizeof *shared,
				     PROT_READ | PROT_WRITE,
				     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct result mine[OPERATIONS][2];
	int cpu = pin_to_current_cpu(), rc;

	if (shared == MAP_FAILED)
		return 1;
	printf("inroot-cost: CPU time per operation, in %s, on CPU %d;\n"
	       "medians of %u, %u and %u rounds of %d, %d and %d operations "
	       "per way\n\n", where, cpu, operations[0].rounds,
	       operations[1].rounds, operations[2].rounds,
	       operations[0].per_run, operations[1].per_run,
	       operations[2].per_run);
	rc = measure_in_child(ALLOWED, shared, mine);
	if (rc == 0)
		rc = measure_in_child(REFUSED, shared, mine);
	munmap(shared, OPERATIONS * sizeof *shared);
	if (rc == 0)
		table(mine, syscalls);
	return rc;
}

static bool kernel_has_openat2(void)
{
	struct open_how how = { O_PATH | O_CLOEXEC, 0, RESOLVE_IN_ROOT };
	int fd = (int)syscall(SYS_openat2, AT_FDCWD, ".", &how, sizeof how);

	return close_answer(fd) == 0;
}

/*
 * A tmpfs where there is one: on a disk's file system a mkdir or an
 * unlink waits for the journal, at a price that varies with whatever
 * else writes to the disk, and drowns what the ways differ in.
 */
static const char *scratch_parent(void)
{
	struct statfs fs;

	if (statfs("/dev/shm", &fs) == 0 && fs.f_type == TMPFS_MAGIC &&
	    access("/dev/shm", W_OK) == 0)
		return "/dev/shm";
	return "/tmp";
}

static void remove_dir(const char *dir)
{
	char cmd[128];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "inroot-cost: could not remove %s\n", dir);
}

int main(int argc, char **argv)
{
	char dir[64];
	bool only_once = argc > 1 && strcmp(argv[1], "--once") == 0;
	const char *syscalls = argc > 2 && strcmp(argv[1], "--syscalls") == 0 ?
				       argv[2] :
				       NULL;
	int rc;

	if (argc > 1 && !only_once && syscalls == NULL) {
		fprintf(stderr, "usage: inroot-cost [--once | --syscalls FILE]\n");
		return 2;
	}
	/* An fd inherited from the caller would split the runs of fds the
	 * library's walk holds, each run closed with one close_range, and
	 * change the count: the process starts with 0, 1 and 2 alone. */
	closefrom(3);
	snprintf(dir, sizeof dir, "%s/inroot-cost.XXXXXX", scratch_parent());
	if (mkdtemp(dir) == NULL || chdir(dir) != 0 || mkdir("root", 0755) != 0 ||
	    chdir("root") != 0 ||
	    (root = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0 ||
	    build_deep_file() != 0) {
		perror("inroot-cost: setup");
		return 2;
	}
	if (!kernel_has_openat2()) {
		printf("SKIP: the kernel's openat2 is refused here: the library "
		       "would walk in both ways\n");
		rc = 77;
	} else if (only_once) {
		rc = in_child(ALLOWED, true, NULL);
		if (rc == 0)
			rc = in_child(REFUSED, true, NULL);
	} else {
		rc = measure_both(dir, syscalls);
	}
	if (chdir("/") != 0)
		perror("inroot-cost: chdir /");
	remove_dir(dir);
	return rc;
}
