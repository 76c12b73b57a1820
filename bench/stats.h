/* The one statistic the reports use: these machines are noisy, and a
 * median ignores the runs a neighbour's burst of work slowed down. */
#ifndef BENCH_STATS_H
#define BENCH_STATS_H

#include <stddef.h>

/* Median of values[0..n-1] (n > 0); reorders values. */
double median(double *values, size_t n);

#endif /* BENCH_STATS_H */
