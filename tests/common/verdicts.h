/*
 * The portable suites' case lines, "ok NAME (WORLD)" or "not ok NAME
 * (WORLD): DETAIL", counted for the "N passed, N failed" line that ends a
 * run. A header alone: the suites are also built by hand from their own
 * source lists, in the compat roots and for the kernels.
 */
#ifndef TESTS_VERDICTS_H
#define TESTS_VERDICTS_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int passed, failed;

static inline void verdict(bool ok, const char *name, const char *world,
			   const char *detail)
{
	printf("%s %s (%s)%s%s\n", ok ? "ok" : "not ok", name, world,
	       ok ? "" : ": ", ok ? "" : detail);
	if (ok)
		passed++;
	else
		failed++;
}

/* A call's answer: -1 (or less) with errno want_errno, or, where
 * want_errno is 0, success; the detail names both, "0" or an errno's. */
static inline void verdict_answer(const char *name, const char *world,
				  int rc, int want_errno)
{
	char detail[160];
	int got = rc < 0 ? errno : 0;

	snprintf(detail, sizeof detail, "answered %s, not %s",
		 got ? strerror(got) : "0",
		 want_errno ? strerror(want_errno) : "0");
	verdict(got == want_errno && (rc >= 0) == (want_errno == 0), name,
		world, detail);
}

#endif /* TESTS_VERDICTS_H */
