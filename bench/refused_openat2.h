/*
 * The world openat2's fallback runs in, for the benchmark: openat2
 * refused with ENOSYS (podman's default profile, systemd-nspawn
 * --suppress-sync) by a seccomp filter on the process, but for the
 * benchmark's own calls of the kernel's openat2, which pass a 32-byte
 * struct open_how (zeros at the end, which the kernel accepts) that the
 * filter lets by. Every system call of the process, whichever side makes
 * it, then pays the same few filter instructions.
 */
#ifndef BENCH_REFUSED_OPENAT2_H
#define BENCH_REFUSED_OPENAT2_H

#include <stdbool.h>

#include "execveat.h"

/* Loads the filter (for good: filters cannot be removed). 0, or an
 * errno. */
int refuse_openat2_but_to_the_kernel_side(void);

/* The kernel's openat2, through the filter: as openat2(dirfd, path, how,
 * sizeof *how), asked again while a scoped ".." answers EAGAIN
 * (tests/common/openat2_again.h); where renames went on for as long as it
 * was asked, *unanswered (unless NULL) says the EAGAIN is no answer. */
int kernel_side_openat2(int dirfd, const char *path, const struct open_how *how,
			bool *unanswered);

#endif /* BENCH_REFUSED_OPENAT2_H */
