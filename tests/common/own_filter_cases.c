#include "own_filter_cases.h"

#include <stdio.h>

#include "execveat_refusal.h"
#include "hostile_env.h"

int run_cases_with_own_filters(const struct CMUnitTest *cases, size_t count)
{
	char why[200];

	if (!seccomp_filters_available(why, sizeof(why))) {
		/* Only a world that refuses execveat by itself (qemu-user)
		 * may leave these out: there they cannot exist. Elsewhere a
		 * failing filter is a broken test host, and each case fails. */
		if (execveat_refusal() == 0) {
			printf("FAIL: the %zu cases that load filters of their "
			       "own cannot run: %s\n", count, why);
			return (int)count;
		}
		printf("not here: the %zu cases that load filters of their "
		       "own: %s\n", count, why);
		for (size_t i = 0; i < count; i++)
			printf("not here: %s\n", cases[i].name);
		return 0;
	}
	return _cmocka_run_group_tests("with own filters", cases, count,
				       NULL, NULL);
}
