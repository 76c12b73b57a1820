#include "suite.h"

#include "own_filter_cases.h"

int run_suite(const char *name, const struct CMUnitTest *cases, size_t count,
	      CMFixtureFunction setup, CMFixtureFunction teardown,
	      const struct CMUnitTest *with_own_filters, size_t own_count)
{
	int failed = _cmocka_run_group_tests(name, cases, count, setup,
					     teardown);

	if (own_count != 0)
		failed += run_cases_with_own_filters(with_own_filters,
						     own_count);
	return failed != 0;
}
