/*
 * Which of the system calls that 2.1's ways depend on the sandbox this
 * runs in refuses (prepare_root.h). Each is made with arguments that no
 * file can answer and that the kernel rejects before it acts (a bad fd,
 * a size too small, unknown flags): any answer but ENOSYS or EPERM says
 * the call is there. An EPERM may also be a want of privilege where the
 * call checks one first (fsopen, mount: CAP_SYS_ADMIN).
 */
#define _GNU_SOURCE
#include "prepare_root.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The unified numbers (every ABI but alpha's and x32's bit): C libraries
 * older than a call do not name it. */
static const struct {
	const char *name;
	long nr;
	long args[5];
} calls[] = {
	{ "open_tree", 428, { -1, (long)"", 0 } },
	{ "move_mount", 429, { -1, (long)"", -1, (long)"", 0 } },
	{ "fsopen", 430, { (long)"", 0 } },
	{ "fsmount", 432, { -1, 0, 0 } },
	{ "openat2", 437, { -1, (long)"", 0, 0 } },
	{ "mount_setattr", 442, { -1, (long)"", 0, 0, 0 } },
	{ "fchmodat2", 452, { AT_FDCWD, (long)"", 0, -1 } },
	{ "getxattrat", 464, { AT_FDCWD, (long)"", -1, 0, 0 } },
	{ "mount", SYS_mount, { 0, (long)"", 0, 0, 0 } },
};

void print_refused_calls(FILE *out)
{
	for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
		const long *a = calls[i].args;
		long rc = syscall(calls[i].nr, a[0], a[1], a[2], a[3], a[4]);

		fprintf(out, "%s: %s\n", calls[i].name,
			rc == -1 && errno == ENOSYS ? "ENOSYS" :
			rc == -1 && errno == EPERM  ? "EPERM" :
						      "ok");
	}
}
