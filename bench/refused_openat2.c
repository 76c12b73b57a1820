#define _GNU_SOURCE
#include "refused_openat2.h"
#include "../tests/common/refuse_call.h"

#include <errno.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define KERNEL_EAGAIN_SECONDS 10.0

struct open_how_larger {
	struct open_how how;
	uint64_t zeros;
};

int refuse_openat2_but_to_the_kernel_side(void)
{
	const struct refused_call openat2_but_32_bytes = {
		.nr = SYS_openat2, .err = ENOSYS, .arg = 3, .mask = UINT64_MAX,
		.value = sizeof(struct open_how_larger), .unless_equal = true
	};

	return refuse_calls(&openat2_but_32_bytes, 1);
}

static int kernel_openat2_once(int dirfd, const char *path,
			       const struct open_how_larger *larger)
{
	return (int)syscall(SYS_openat2, (long)dirfd, (long)(uintptr_t)path,
			    (long)(uintptr_t)larger, (long)sizeof *larger);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int kernel_side_openat2(int dirfd, const char *path, const struct open_how *how)
{
	struct open_how_larger larger = { .how = *how };
	int fd = kernel_openat2_once(dirfd, path, &larger);
	double give_up;

	if (fd >= 0 || errno != EAGAIN)
		return fd;
	/* A scoped ".." answers EAGAIN while a rename anywhere on the
	 * machine races it (rename_lock is global): a caller asks again,
	 * for as long as a busy machine needs. */
	give_up = now_s() + KERNEL_EAGAIN_SECONDS;
	do
		fd = kernel_openat2_once(dirfd, path, &larger);
	while (fd < 0 && errno == EAGAIN && now_s() < give_up);
	return fd;
}
