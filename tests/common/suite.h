/*
 * What the cmocka suites' main() did alike once their cases were listed,
 * written once: run the cases as one group, then the cases that load
 * seccomp filters of their own (own_filter_cases.h) where a suite has
 * them, and exit 0 only when every case passed. Each main keeps what is
 * its own: its arguments, fixture_init, the skips that say why its world
 * cannot be made here, what it cleans up after.
 */
#ifndef TESTS_SUITE_H
#define TESTS_SUITE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

/* 0 when every case passed, else 1: an exit status that never reads as
 * meson's "skipped" (77), as a count of failures could. */
int run_suite(const char *name, const struct CMUnitTest *cases, size_t count,
	      CMFixtureFunction setup, CMFixtureFunction teardown,
	      const struct CMUnitTest *with_own_filters, size_t own_count);

#define SUITE_COUNT(cases) (sizeof(cases) / sizeof((cases)[0]))

/* cases, a static array, with cmocka's group setup and teardown (NULL:
 * none). */
#define RUN_SUITE(cases, setup, teardown)                                  \
	run_suite(#cases, cases, SUITE_COUNT(cases), setup, teardown, NULL, 0)

/* cases, then with_own_filters where filters can be loaded. */
#define RUN_SUITE_WITH_OWN_FILTERS(cases, with_own_filters)                \
	run_suite(#cases, cases, SUITE_COUNT(cases), NULL, NULL,           \
		  with_own_filters, SUITE_COUNT(with_own_filters))

#endif /* TESTS_SUITE_H */
