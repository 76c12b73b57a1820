#define _GNU_SOURCE
#include "kernel_env.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "execveat_refusal.h"
#include "openat2_nr.h"
#include "refuse_call.h"

#if defined(__x86_64__) && defined(__ILP32__)
#define CLOSE_RANGE_NR (0x40000000 + 436)
#define FCHMODAT2_NR (0x40000000 + 452)
#else
#define CLOSE_RANGE_NR 436
#define FCHMODAT2_NR 452
#endif

static long raw_openat2(int dirfd, const char *path, const void *how, size_t size)
{
	return syscall(OPENAT2_NR, (long)dirfd, (long)(uintptr_t)path,
		       (long)(uintptr_t)how, (long)size);
}

int openat2_refusal(void)
{
	return refusal_of(raw_openat2(-1, NULL, NULL, 0));
}

int block_openat2(int err)
{
	return refuse_call_unless_so(openat2_refusal(), OPENAT2_NR, err);
}

long raw_close_range(unsigned int first, unsigned int last, unsigned int flags)
{
	return syscall(CLOSE_RANGE_NR, (long)first, (long)last, (long)flags);
}

long raw_fchmodat2(int dirfd, const char *path, unsigned int mode, int flags)
{
	return syscall(FCHMODAT2_NR, (long)dirfd, (long)(uintptr_t)path,
		       (long)mode, (long)flags);
}

/* first > last: a kernel that has close_range says EINVAL, closing
 * nothing. */
int close_range_refusal(void)
{
	return refusal_of(raw_close_range(2, 1, 0));
}

/* Flags the kernel rejects (EINVAL) before it looks at the path. */
int fchmodat2_refusal(void)
{
	return refusal_of(raw_fchmodat2(AT_FDCWD, "", 0, -1));
}

int block_close_range(int err)
{
	return refuse_call_unless_so(close_range_refusal(), CLOSE_RANGE_NR,
					err);
}

int block_fchmodat2(int err)
{
	return refuse_call_unless_so(fchmodat2_refusal(), FCHMODAT2_NR, err);
}

bool kernel_reopens_empty_path(void)
{
	int dir = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC), reopened = -1;

	if (dir >= 0)
		reopened = openat(dir, "", (1 << 26) | O_RDONLY | O_DIRECTORY |
				  O_CLOEXEC);
	if (reopened >= 0)
		close(reopened);
	if (dir >= 0)
		close(dir);
	return reopened >= 0;
}

int kernel_version(void)
{
	struct utsname u;
	int major = 0, minor = 0;

	if (uname(&u) == 0)
		sscanf(u.release, "%d.%d", &major, &minor);
	return major * 100 + minor;
}
