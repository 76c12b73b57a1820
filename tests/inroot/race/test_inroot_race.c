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
 *   test-inroot-race [SECONDS]   each case this long: the environment's
 *                                INROOT_RACE_SECONDS, else SECONDS
 *                                (meson gives it), else 1
 *
 * The worlds (race_world.h), each a forked child chrooted into a tmpfs
 * of its own, with the attacker as its child:
 *   - control: the naive operations (naive.h) under the same storm. Each
 *     must escape at least once in its time, or the storm proves
 *     nothing and the test fails;
 *   - openat2: the library as it is, the kernel's openat2 answering;
 *   - ENOSYS: openat2 refused by a seccomp filter: the library's walk;
 *   - ENOSYS, no /proc: the same, with a tmpfs over /proc;
 *   - 5.1's calls: every call after Linux 5.1 that 2.1's operations use
 *     refused, for those operations alone (their ways without them).
 * Every case runs for a fixed time, never a count of tries (longer only
 * where the machine is so busy that the attacker has not moved, or the
 * control not escaped, by then: case_done), and says how many tries it
 * made, per second. Exits 1 on any escape of the library,
 * a control that never escaped, or an attacker that moved nothing; 77
 * (skipped) where this machine cannot make the worlds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "hostile_env.h"
#include "race_attacker.h"
#include "race_ops.h"
#include "race_tree.h"
#include "race_world.h"

#define ERRNOS 134
#define GRACE_SECONDS 20

struct case_result {
	uint64_t tries, escapes, exchanges;
	uint64_t by_kind[NAIVE_KINDS]; /* the control's escapes */
	uint64_t errors[ERRNOS];       /* [0]: an errno beyond the table */
	double seconds;
	char first[400];
};

/* Shared with the worlds' children. */
struct results {
	struct case_result cases[WORLDS][RACE_OPS];
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

/* An escape: counted, and the first described. path: the try's, or
 * NULL where the check after the case found it. */
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

/*
 * Whether a case has run long enough: its time, and also until the
 * attacker has moved (and the control has escaped) at least once, for up
 * to GRACE_SECONDS more. On a machine so busy that the attacker or the
 * control barely ran in the case's time, the case waits for them instead
 * of failing; where the storm really does not work, it fails after the
 * grace.
 */
static bool case_done(enum world w, const struct case_result *r,
		      double start, uint64_t exchanged)
{
	double spent = now() - start;

	if (spent < seconds)
		return false;
	if (spent >= seconds + GRACE_SECONDS)
		return true;
	return exchanged > 0 && (w != CONTROL || r->escapes > 0);
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
	for (unsigned long i = 0;
	     !case_done(w, r, start, share->exchanges - before); i++) {
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

/* A world's cases: the attacker started, each operation raced in turn. */
static int race_world(enum world w, struct race_tree *t, void *unused)
{
	struct attacker_share *share = mmap(NULL, sizeof *share,
		PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t attacker;

	(void)unused;
	if (share == MAP_FAILED || (attacker = attacker_start(t, share)) < 0)
		return 2;
	for (unsigned int op = 0; op < RACE_OPS; op++)
		if (race_op_in_world(&race_ops[op], w))
			race_case(w, &race_ops[op], t, share,
				  &results->cases[w][op]);
	attacker_stop(attacker);
	return 0;
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
	if (r->escapes != 0 && w == CONTROL)
		printf("  control %s: first escape: %s\n", op->name, r->first);
	else if (r->escapes != 0)
		printf("ESCAPE: %s %s: first: %s\n", world_names[w], op->name,
		       r->first);
}

/* The verdict on world w's cases: false where the library escaped, the
 * control did not, or the attacker moved nothing. */
static bool judge(enum world w)
{
	bool ok = true;

	for (unsigned int op = 0; op < RACE_OPS; op++) {
		const struct case_result *r = &results->cases[w][op];
		const char *name = race_ops[op].name;

		if (!race_op_in_world(&race_ops[op], w))
			continue;
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
		for (unsigned int op = 0; op < RACE_OPS; op++) {
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
	const char *s = env && *env ? env : argc > 1 ? argv[1] : "1";
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
		int status = world_run((enum world)w, race_world, NULL,
				       results->not_here[w],
				       sizeof results->not_here[w]);

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
