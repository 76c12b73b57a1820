#define _GNU_SOURCE
#include "refused_openat2.h"
#include "../tests/common/openat2_again.h"
#include "../tests/common/refuse_call.h"

#include <errno.h>
#include <stdint.h>
#include <sys/syscall.h>

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

int kernel_side_openat2(int dirfd, const char *path, const struct open_how *how,
			bool *unanswered)
{
	struct open_how_larger larger = { .how = *how };

	return (int)kernel_openat2(dirfd, path, &larger, sizeof larger,
				   unanswered);
}
