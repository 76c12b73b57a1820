/*
 * The operations beneath a root under a race: while an attacker process
 * moves a directory of the root out of it and back (so that ".." from it
 * climbs out) and flips a component between a directory and a link to
 * "/", to "/outside" or to "../../..", the operations (race_ops.h) are
 * tried again and again on paths through that directory and that
 * component. Nothing outside the root may ever be created, removed,
 * renamed or linked: the sentinels outside are watched after every try
 * (race_tree.h). A try that fails (ENOENT, EXDEV, EAGAIN, ELOOP...) is
 * fine; only an effect outside counts, as an escape.
 *
 *   test-inroot-race [SECONDS]   each case this long (default 1, or
 *                                INROOT_RACE_SECONDS)
 *
 * Worlds, each a forked child in a private mount namespace, chrooted
 * into the scratch directory (race_tree.h says why):
 *   - control: the naive operations (naive.h) under the same storm. Each
 *     must escape at least once in its time, or the storm proves
 *     nothing and the test fails;
 *   - openat2: the library as it is, the kernel's openat2 answering;
 *   - ENOSYS: openat2 refused by a seccomp filter: the library's walk;
 *   - ENOSYS, no /proc: the same, with a tmpfs over /proc.
 * Every case runs for a fixed time, never a count of tries, and says how
 * many tries it made, per second. Exits 1 on any escape of the library,
 * a control that never escaped, or an attacker that moved nothing; 77
 * (skipped) where this machine cannot make the worlds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hostile_env.h"
#include "openat2_nr.h"
#include "race_attacker.h"
#include "race_ops.h"
#include "race_tree.h"
#include "scratch_dir.h"

#define MAX_OPS 8
#define ERRNOS 134

enum world { CONTROL, KERNEL, FALLBACK, FALLBACK_NO_PROC, WORLDS };

static const char *const world_names[WORLDS] = {
	"control", "openat2", "ENOSYS", "ENOSYS-noproc"
};

struct case_result {
	uint64_t tries, escapes, exchanges;
	uint64_t by_kind[NAIVE_KINDS]; /* the control's escapes */
	uint64_t errors[ERRNOS];       /* [0]: an errno beyond the table */
	double seconds;
	char first[400];
};

/* Shared with the worlds' children. */
struct results {
	struct case_result cases[WORLDS][MAX_OPS];
	char not_here[WORLDS][200]; /* a world this machine cannot make */
};

static struct results *results;
static double seconds;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- a world ---- */

/* A tmpfs of the world's own at top (the storm's renames and the
 * sentinels' churn never reach the machine's disk, and go with the
 * namespace), the world's /proc at top/proc, then top as the process
 * root. */
static int enter(enum world w, const char *top)
{
	char proc[PATH_MAX];
	int err = w == FALLBACK_NO_PROC ? hide_proc() :
					  private_mount_namespace();

	snprintf(proc, sizeof proc, "%s/proc", top);
	if (err == 0 && mount("none", top, "tmpfs", 0, "mode=0755") != 0)
		err = errno;
	if (err == 0 && mkdir(proc, 0755) != 0)
		err = errno;
	if (err == 0 && mount("/proc", proc, NULL, MS_BIND | MS_REC, NULL))
		err = errno;
	if (err == 0 && (chroot(top) != 0 || chdir("/") != 0))
		err = errno;
	return err;
}

/* What openat2 answers here: 0, or its errno. */
static int openat2_refusal(int root)
{
	struct { uint64_t flags, mode, resolve; } how = {
		O_PATH | O_CLOEXEC, 0, 0x10 /* RESOLVE_IN_ROOT */
	};
	long fd = syscall(OPENAT2_NR, root, ".", &how, sizeof how);

	if (fd < 0)
		return errno;
	close((int)fd);
	return 0;
}

/* The world is what it says, or why not (into why). */
static bool world_made(enum world w, int root, char *why, size_t size)
{
	int refusal = openat2_refusal(root);

	if (w == KERNEL && refusal != 0)
		snprintf(why, size, "openat2 answers %s here",
			 strerror(refusal));
	else if (w >= FALLBACK && refusal != ENOSYS)
		snprintf(why, size, "openat2 not refused: %s",
			 strerror(refusal));
	else if (w == FALLBACK_NO_PROC && access("/proc/self", F_OK) == 0)
		snprintf(why, size, "/proc still there");
	else
		return true;
	return false;
}

static const char *try_name(enum naive_kind k)
{
	return k == NAIVE_STRING ? "naive string" : "naive walk";
}

/* One try of op: 0 or -1 with errno. */
static int try_op(enum world w, const struct race_op *op, int root,
		  enum naive_kind k, const char *path, const char *other)
{
	return w == CONTROL ? op->naive(k, root, path, other) :
			      op->library(root, path, other);
}

/* An escape: counted, and the first described. who: the try's, or NULL
 * where the check after a case found it. */
static void note_escape(struct case_result *r, enum world w,
			enum naive_kind k, const char *path,
			const char *other, const char *what)
{
	r->escapes++;
	if (w == CONTROL && path != NULL)
		r->by_kind[k]++;
	if (r->escapes > 1)
		return;
	if (path == NULL)
		snprintf(r->first, sizeof r->first, "after the case: %s",
			 what);
	else
		snprintf(r->first, sizeof r->first, "%s(\"%s\"%s%s%s): %s",
			 w == CONTROL ? try_name(k) : "library", path,
			 *other ? ", \"" : "", other, *other ? "\"" : "",
			 what);
}

/* op, tried again and again for the case's time. */
static void race_case(enum world w, const struct race_op *op,
		      struct race_tree *t, struct attacker_share *share,
		      struct case_result *r)
{
	char path[100], other[100], what[160];
	unsigned long sweep = op->form_count * PATTERNS;
	uint64_t before;
	double start;

	share->moves = op->moves;
	before = share->exchanges;
	start = now();
	for (unsigned long i = 0; now() < start + seconds; i++) {
		/* The control: every form and pattern naive one way, then
		 * the other. */
		enum naive_kind k = (enum naive_kind)(i / sweep % NAIVE_KINDS);
		int rc;

		race_try_prepare(op, t, i, path, other, sizeof path);
		rc = try_op(w, op, t->root, k, path, other);
		r->tries++;
		if (rc != 0)
			r->errors[errno > 0 && errno < ERRNOS ? errno : 0]++;
		if (race_tree_changed_outside(t, what, sizeof what)) {
			note_escape(r, w, k, path, other, what);
			race_tree_repair(t);
		}
	}
	r->seconds = now() - start;
	r->exchanges = share->exchanges - before;
	if (!race_tree_intact(t, what, sizeof what)) {
		note_escape(r, w, NAIVE_STRING, NULL, NULL, what);
		race_tree_repair(t);
	}
}

/* The world's child: the world made, the attacker started, each
 * operation raced in turn. Exits 0, 77 where the world cannot be made
 * here (results->not_here says why), or 2 where the tree could not be. */
_Noreturn static void run_world(enum world w, const char *top)
{
	struct attacker_share *share = mmap(NULL, sizeof *share,
		PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	char *why = results->not_here[w];
	struct race_tree t;
	int err = enter(w, top);
	pid_t attacker;

	if (err != 0) {
		snprintf(why, sizeof results->not_here[w],
			 "cannot make its mount namespace and chroot: %s",
			 strerror(err));
		_exit(77);
	}
	if (share == MAP_FAILED || race_tree_build(&t) != 0)
		_exit(2);
	if (w >= FALLBACK && (err = refuse_call(OPENAT2_NR, ENOSYS)) != 0) {
		snprintf(why, sizeof results->not_here[w],
			 "cannot refuse openat2: %s", strerror(err));
		_exit(77);
	}
	if (!world_made(w, t.root, why, sizeof results->not_here[w]))
		_exit(77);
	if ((attacker = attacker_start(&t, share)) < 0)
		_exit(2);
	for (unsigned int op = 0; op < race_op_count; op++)
		race_case(w, &race_ops[op], &t, share, &results->cases[w][op]);
	attacker_stop(attacker);
	_exit(0);
}

/* Runs world w in a child, in a scratch directory of its own: 0, 77 (not
 * here), or 2. */
static int world(enum world w)
{
	char top[] = "/tmp/inroot-race-XXXXXX";
	int top_fd = scratch_dir_make(top), status = 0;
	pid_t pid;

	if (top_fd < 0) {
		perror("inroot-race: the scratch directory");
		return 2;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		/* The world dies with the test. */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0)
			_exit(2);
		run_world(w, top);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		status = 2 << 8;
	scratch_dir_remove(top, top_fd);
	if (WIFSIGNALED(status))
		fprintf(stderr, "inroot-race: world %s: killed by signal %d\n",
			world_names[w], WTERMSIG(status));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}

/* ---- the report ---- */

static void print_errors(const struct case_result *r)
{
	bool any = false;

	for (int e = 0; e < ERRNOS; e++)
		if (r->errors[e] != 0) {
			printf("%s %s %" PRIu64, any ? "," : " errors:",
			       e ? strerrorname_np(e) : "other", r->errors[e]);
			any = true;
		}
}

static void print_case(enum world w, const struct race_op *op,
		       const struct case_result *r)
{
	printf("%-13s %-10s %8" PRIu64 " tries %7.0f/s %6" PRIu64
	       " escapes, %8" PRIu64 " exchanges by the attacker;",
	       world_names[w], op->name, r->tries,
	       r->seconds > 0 ? (double)r->tries / r->seconds : 0,
	       r->escapes, r->exchanges);
	if (w == CONTROL)
		printf(" (string %" PRIu64 ", walk %" PRIu64 ");",
		       r->by_kind[NAIVE_STRING], r->by_kind[NAIVE_WALK]);
	print_errors(r);
	printf("\n");
	if (r->escapes != 0)
		printf("%s %s %s: first escape: %s\n",
		       w == CONTROL ? "  control" : "ESCAPE:", world_names[w],
		       op->name, r->first);
}

/* The verdict on world w's cases: false where the library escaped, the
 * control did not, or the attacker moved nothing. */
static bool judge(enum world w)
{
	bool ok = true;

	for (unsigned int op = 0; op < race_op_count; op++) {
		const struct case_result *r = &results->cases[w][op];
		const char *name = race_ops[op].name;

		print_case(w, &race_ops[op], r);
		if (r->exchanges == 0) {
			printf("FAIL: %s %s: the attacker exchanged nothing: "
			       "no race was run\n", world_names[w], name);
			ok = false;
		}
		if (w == CONTROL && r->escapes == 0) {
			printf("FAIL: the naive %s never escaped in %.1f s: "
			       "the storm proves nothing\n", name, r->seconds);
			ok = false;
		}
		if (w != CONTROL && r->escapes != 0) {
			printf("FAIL: %s %s escaped the root %" PRIu64
			       " times in %" PRIu64 " tries\n",
			       world_names[w], name, r->escapes, r->tries);
			ok = false;
		}
	}
	return ok;
}

static void print_totals(void)
{
	uint64_t tries = 0, escapes = 0;
	double spent = 0;

	for (int w = KERNEL; w < WORLDS; w++)
		for (unsigned int op = 0; op < race_op_count; op++) {
			tries += results->cases[w][op].tries;
			escapes += results->cases[w][op].escapes;
			spent += results->cases[w][op].seconds;
		}
	printf("inroot race: %" PRIu64 " tries of the library in %.0f s, "
	       "%" PRIu64 " escapes\n", tries, spent, escapes);
}

static double seconds_asked(int argc, char **argv)
{
	const char *env = getenv("INROOT_RACE_SECONDS");
	const char *s = argc > 1 ? argv[1] : env && *env ? env : "1";
	char *end;
	double v = strtod(s, &end);

	if (*end != '\0' || !(v > 0)) {
		fprintf(stderr, "inroot-race: seconds: \"%s\"?\n", s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	bool ok = true, skipped = true;

	setvbuf(stdout, NULL, _IOLBF, 0);
	seconds = seconds_asked(argc, argv);
	require_hostile_env();
	results = mmap(NULL, sizeof *results, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (results == MAP_FAILED) {
		perror("inroot-race: mmap");
		return 2;
	}
	printf("inroot race: %.1f s per operation and world\n", seconds);
	for (int w = 0; w < WORLDS; w++) {
		int status = world((enum world)w);

		if (status == 77) {
			printf("not here: world %s: %s\n", world_names[w],
			       results->not_here[w]);
			/* Without a control, nothing else proves anything. */
			if (w == CONTROL) {
				printf("SKIP: the control's world cannot be "
				       "made here\n");
				return 77;
			}
			continue;
		}
		if (status != 0) {
			printf("FAIL: world %s did not run to its end\n",
			       world_names[w]);
			ok = false;
			continue;
		}
		skipped &= w == CONTROL;
		ok &= judge((enum world)w);
	}
	print_totals();
	if (skipped) {
		printf("SKIP: no world of the library could be made here\n");
		return ok ? 77 : 1;
	}
	return ok ? 0 : 1;
}
