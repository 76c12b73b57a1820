/*
 * Every call of malloc, calloc, realloc and free in the process, counted.
 *
 * heap_counter.c defines those four in the executable (which must export
 * them, -rdynamic): the executable comes first in every object's lookup
 * scope, so libexecveat's calls, if it made any, would land there too.
 */
#ifndef BENCH_HEAP_COUNTER_H
#define BENCH_HEAP_COUNTER_H

/* Calls so far. volatile: a vfork child's calls land in this very memory,
 * and the parent reads them after waitpid. */
extern volatile unsigned long heap_calls;

#endif /* BENCH_HEAP_COUNTER_H */
