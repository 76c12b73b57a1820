/*
 * The race of test_inroot_race.c without luck, for the library's own
 * walk (openat2 refused, /proc there or hidden): the library is built
 * here with a call-out at each moment between two system calls where an
 * attacker would act (EXECVEAT_RESOLVE_TEST_HOOKS, src/resolve/moment.h),
 * and the move is made right there instead of hoping that a storm lands
 * in the window.
 *
 * For each operation, form and path of race_ops.h, with l a directory or
 * each of its links, and each move (b out of the root, so that ".." from
 * it would climb out; l flipped to a link, back to the directory, or to
 * another link; in a removal's tree, r/u flipped to a link out), a try
 * makes the move at the operation's first moment, the next try at its
 * second, and so on, until a try passes no more moments. The move is
 * undone after each try, and nothing outside the root may have changed
 * (race_tree.h). Each operation must have met at least one moment, or
 * the hooks are not where its walk runs and this proves nothing.
 *
 * First, the control: the naive operations (naive.h), with the same moves
 * made the same way at each moment of their flaw, must escape, each of
 * them: else the harness cannot see what it looks for.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "hostile_env.h"
#include "race_attacker.h"
#include "race_ops.h"
#include "race_tree.h"
#include "race_world.h"
#include "resolve/moment.h"

/* The library's moments, and the naive control's flaw (naive.h). */
#define AT_FLAW (AFTER_MOUNT + 1)
#define MOMENT_KINDS (AT_FLAW + 1)
/* More moments than any try here passes (a link or two, their retakes):
 * where a try still passes more, the walk is looping, a failure. */
#define MAX_MOMENTS 200
#define LINKS 4

struct op_result {
	uint64_t tries, strikes, escapes;
	uint64_t by_moment[MOMENT_KINDS];
	bool endless; /* a try passed MAX_MOMENTS */
	char first[600];
};

static struct op_result (*results)[RACE_OPS];

static const char *const kinds[MOMENT_KINDS] = {
	"before readlink", "before the last open",
	"before a magic link's reopen", "before a refetch",
	"after a checked mknod", "before the act on the file held",
	"after a mount", "at the naive code's flaw" };

/* ---- the call-out ---- */

struct strike {
	enum moves move;
	unsigned int which; /* attacker_exchange's */
};

static const struct race_tree *tree;
static unsigned int moments_passed, strike_at;
static struct strike armed;
static bool struck;
static int struck_moment;

static void at_moment(int kind)
{
	if (++moments_passed != strike_at)
		return;
	struck = attacker_exchange(tree, armed.move, armed.which);
	struck_moment = kind;
}

void libexecveat_resolve_test_hook(enum resolve_moment moment, int dirfd,
				   const char *name)
{
	(void)dirfd;
	(void)name;
	at_moment((int)moment);
}

static void at_naive_flaw(void)
{
	at_moment(AT_FLAW);
}

/* ---- the tries ---- */

/* The moves an operation is tried with. */
static unsigned int strikes_of(const struct race_op *op, struct strike *s)
{
	unsigned int n = 0;

	s[n++] = (struct strike){ MOVE_CHAIN, 0 };
	for (unsigned int k = 0; k < LINKS; k++)
		s[n++] = (struct strike){ MOVE_LINKS, k };
	if (op->moves & MOVE_TREES)
		for (unsigned int p = 0; p < PLACES; p++)
			s[n++] = (struct strike){ MOVE_TREES, p };
	return n;
}

struct try {
	const struct race_op *op;
	int naive; /* a naive_kind, or -1: the library */
	unsigned int form, pattern;
	unsigned int start; /* l as the link .lSTART, or (LINKS) the dir */
	struct strike strike;
};

/* The move, as the report says it. */
static void describe_move(const struct try *t, unsigned int k, char *buf,
			  size_t size)
{
	if (!struck)
		snprintf(buf, size, "no move made (the try passed fewer than "
			 "%u moments)", k);
	else if (t->strike.move == MOVE_CHAIN)
		snprintf(buf, size, "b moved out at moment %u (%s)", k,
			 kinds[struck_moment]);
	else if (t->strike.move == MOVE_LINKS)
		snprintf(buf, size, "l exchanged with .l%u at moment %u (%s)",
			 t->strike.which, k, kinds[struck_moment]);
	else
		snprintf(buf, size, "r/u flipped with r/.su in place %u at "
			 "moment %u (%s)", t->strike.which, k,
			 kinds[struck_moment]);
}

static void note_escape(struct op_result *r, const struct try *t,
			unsigned int k, const char *path, const char *other,
			const char *what)
{
	char l[32] = "the directory", move[120];

	if (r->escapes++ != 0)
		return;
	if (t->start < LINKS)
		snprintf(l, sizeof l, "the link .l%u", t->start);
	describe_move(t, k, move, sizeof move);
	snprintf(r->first, sizeof r->first, "%s(\"%s\"%s%s%s), l %s, %s: %s",
		 t->naive < 0 ? "library" : t->naive == NAIVE_STRING ?
		 "naive string" : "naive walk", path, *other ? ", \"" : "",
		 other, *other ? "\"" : "", l, move, what);
}

/* One try with the move at moment k, everything undone after: whether
 * the try reached moment k. */
static bool try_at(const struct try *t, unsigned int k, struct op_result *r)
{
	struct race_tree *tr = (struct race_tree *)tree;
	char path[100], other[100], what[160];
	bool flipped = t->start < LINKS &&
		       attacker_exchange(tree, MOVE_LINKS, t->start);
	bool reached;

	race_prepare(t->op, tree, t->form, t->pattern, path, other,
		     sizeof path);
	moments_passed = 0;
	armed = t->strike;
	struck = false;
	strike_at = k;
	if (t->naive < 0)
		t->op->library(tree->root, path, other);
	else
		t->op->naive((enum naive_kind)t->naive, tree->root, path,
			     other);
	strike_at = 0;
	reached = moments_passed >= k;
	if (struck) {
		attacker_exchange(tree, t->strike.move, t->strike.which);
		r->strikes++;
		r->by_moment[struck_moment]++;
	}
	if (flipped)
		attacker_exchange(tree, MOVE_LINKS, t->start);
	r->tries++;
	if (race_tree_changed_outside(tr, what, sizeof what)) {
		note_escape(r, t, k, path, other, what);
		race_tree_repair(tr);
	}
	return reached;
}

/* The move at each moment of t in turn. */
static void every_moment(const struct try *t, struct op_result *r)
{
	unsigned int k = 1;

	while (try_at(t, k, r))
		if (++k > MAX_MOMENTS) {
			r->endless = true;
			return;
		}
}

static void every_try(const struct race_op *op, int naive,
		      struct op_result *r)
{
	struct strike strikes[1 + LINKS + PLACES];
	unsigned int n = strikes_of(op, strikes);
	struct try t = { .op = op, .naive = naive };

	for (t.form = 0; t.form < op->form_count; t.form++)
		for (t.pattern = 0; t.pattern < PATTERNS; t.pattern++)
			for (t.start = 0; t.start <= LINKS; t.start++)
				for (unsigned int s = 0; s < n; s++) {
					t.strike = strikes[s];
					every_moment(&t, r);
				}
}

static int moments_world(enum world w, struct race_tree *t, void *unused)
{
	(void)unused;
	tree = t;
	naive_at_flaw = at_naive_flaw;
	for (unsigned int op = 0; op < RACE_OPS; op++)
		if (!race_op_in_world(&race_ops[op], w))
			continue;
		else if (w != CONTROL)
			every_try(&race_ops[op], -1, &results[w][op]);
		else
			for (int k = 0; k < NAIVE_KINDS; k++)
				every_try(&race_ops[op], k, &results[w][op]);
	return 0;
}

/* ---- the report ---- */

static bool judge(enum world w)
{
	bool ok = true;

	for (unsigned int op = 0; op < RACE_OPS; op++) {
		const struct op_result *r = &results[w][op];
		const char *name = race_ops[op].name;

		if (!race_op_in_world(&race_ops[op], w))
			continue;

		printf("%-13s %-10s %6" PRIu64 " tries, %6" PRIu64
		       " moves made at a moment (", world_names[w], name,
		       r->tries, r->strikes);
		for (int k = 0, any = 0; k < MOMENT_KINDS; k++)
			if (r->by_moment[k])
				printf("%s%s %" PRIu64, any++ ? ", " : "",
				       kinds[k], r->by_moment[k]);
		printf("), %" PRIu64 " escapes\n", r->escapes);
		if (w == CONTROL) {
			if (r->escapes == 0) {
				printf("FAIL: the naive %s never escaped with "
				       "the moves at its flaw: the harness "
				       "would see nothing\n", name);
				ok = false;
			} else {
				printf("  control %s: first escape: %s\n",
				       name, r->first);
			}
			continue;
		}
		if (r->escapes) {
			printf("FAIL: %s %s escaped the root; first: %s\n",
			       world_names[w], name, r->first);
			ok = false;
		}
		if (r->endless) {
			printf("FAIL: %s %s: a try passed more than %d "
			       "moments\n", world_names[w], name, MAX_MOMENTS);
			ok = false;
		}
		if (r->strikes == 0) {
			printf("FAIL: %s %s met no moment: the hooks are not "
			       "where its walk runs\n", world_names[w], name);
			ok = false;
		}
	}
	return ok;
}

int main(void)
{
	static const enum world worlds[] = { CONTROL, FALLBACK,
					     FALLBACK_EPERM,
					     FALLBACK_NO_PROC, OLD_CALLS };
	static char why[WORLDS][200];
	bool ok = true, ran = false;

	setvbuf(stdout, NULL, _IOLBF, 0);
	require_hostile_env();
	results = mmap(NULL, sizeof *results * WORLDS,
		       PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		       -1, 0);
	if (results == MAP_FAILED) {
		perror("inroot-race-moments: mmap");
		return 2;
	}
	for (size_t i = 0; i < sizeof worlds / sizeof *worlds; i++) {
		enum world w = worlds[i];
		int status = world_run(w, moments_world, NULL, why[w],
				       sizeof why[w]);

		if (status == 77 && w == CONTROL) {
			printf("SKIP: the control's world: %s\n", why[w]);
			return 77;
		}
		if (status == 77)
			printf("not here: world %s: %s\n", world_names[w],
			       why[w]);
		else if (status != 0)
			printf("FAIL: world %s did not run to its end\n",
			       world_names[w]);
		else
			ok &= judge(w);
		ok &= status == 0 || status == 77;
		ran |= status == 0 && w != CONTROL;
	}
	if (!ran) {
		printf("SKIP: no world of the library's walk here\n");
		return ok ? 77 : 1;
	}
	return ok ? 0 : 1;
}
