/*
 * The C side of the bindings' benchmarks (bindings/go/bench,
 * bindings/python/bench, bindings/rust/examples: resolve_cost): the
 * call a binding makes, made from C and timed in the binding's own
 * process, so that both are measured in the same run, and their ratio
 * is what the binding adds.
 */
#include <time.h>
#include <unistd.h>

#include "inroot.h"

long long binding_baseline_resolve_ns(int root, const char *path, long rounds);

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The nanoseconds that rounds of inroot_resolve(root, path) and a close
 * of its fd take; -1 where a resolve fails. */
long long binding_baseline_resolve_ns(int root, const char *path, long rounds)
{
	long long start = now_ns();

	for (long i = 0; i < rounds; i++) {
		int fd = inroot_resolve(root, path);

		if (fd < 0)
			return -1;
		close(fd);
	}
	return now_ns() - start;
}
