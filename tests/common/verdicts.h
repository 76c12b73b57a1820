/*
 * The portable suites' case lines, "ok NAME (WORLD)" or "not ok NAME
 * (WORLD): DETAIL", counted for the "N passed, N failed" line that ends a
 * run. A header alone: the suites are also built by hand from their own
 * source lists, in the compat roots and for the kernels.
 */
#ifndef TESTS_VERDICTS_H
#define TESTS_VERDICTS_H

#include <stdbool.h>
#include <stdio.h>

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

#endif /* TESTS_VERDICTS_H */
