#include "stats.h"

#include <stdlib.h>

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double median(double *values, size_t n)
{
	qsort(values, n, sizeof(*values), compare_doubles);
	if (n % 2 == 1)
		return values[n / 2];
	return (values[n / 2 - 1] + values[n / 2]) / 2;
}
