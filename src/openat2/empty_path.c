/*
 * The probe for Linux 7.2's O_EMPTYPATH. openat(-1, "", O_EMPTYPATH |
 * O_PATH) looks up no name: a kernel that has the flag goes to fd -1 and
 * answers EBADF; one without it refuses the empty name first (ENOENT),
 * whatever it makes of the bit (measured on Debian's 5.10, 6.1, 6.18 and
 * 7.2 kernels). Nothing is ever opened.
 */
#define _GNU_SOURCE
#include "empty_path.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "execveat.h"
#include "../syscalls/files.h"

/* Lock-free: the callers run in signal handlers and vfork children. */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "atomic int must be lock-free");

enum { UNKNOWN, OPENS, DOES_NOT };

/* A property of the kernel, the same for every thread: asked once. A
 * vfork child that asks first writes the answer into its parent, which is
 * the same kernel's answer. */
static atomic_int empty_path_answer;

bool libexecveat_kernel_opens_empty_path(void)
{
	int known = atomic_load_explicit(&empty_path_answer,
					 memory_order_relaxed);

	if (known == UNKNOWN) {
		int fd = sys_openat(-1, "", O_EMPTYPATH | O_PATH | O_CLOEXEC, 0);

		/* Never an fd; closed all the same if a kernel gave one. */
		if (fd >= 0)
			sys_close(fd);
		known = fd == -EBADF ? OPENS : DOES_NOT;
		atomic_store_explicit(&empty_path_answer, known,
				      memory_order_relaxed);
	}
	return known == OPENS;
}
