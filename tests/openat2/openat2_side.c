/*
 * The side of the differential that is not the kernel.
 *
 * "openat2": the library's public openat2, the whole path a user takes,
 * in a process where a seccomp filter answers openat2 with ENOSYS, as
 * podman's default profile and systemd-nspawn --suppress-sync do. The
 * kernel's side still gets through: it passes a larger struct open_how
 * (OPENAT2_KERNEL_SIZE, openat2_oracle.h), and the filter lets that one
 * size by.
 *
 * "resolver": the resolver itself, as the policy calls it once the
 * arguments have passed the kernel's checks: with the flags the system
 * call adds (libexecveat_resolve_open_as_openat2).
 *
 * With OPENAT2_DIFFERENTIAL_STATX=refused, either side runs where statx
 * is refused too (ENOSYS): the fallback then knows no mount ids, and
 * tells mounts of one file system apart by nothing but statfs (openat2(3)
 * documents what RESOLVE_NO_XDEV cannot see then). The test's own stat
 * calls are fstatat (newfstatat), which stays allowed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "openat2_oracle.h"
#include "openat2_side.h"
/* struct open_how came with the public header. */
#define EXECVEAT_OPEN_HOW_DEFINED 1
#include "refuse_call.h"

static bool through_openat2 = true;
static bool statx_refused;

const char *openat2_side_name(void)
{
	if (through_openat2)
		return statx_refused ? "openat2 and statx refused (ENOSYS), the "
				       "library's openat2" :
				       "openat2 refused (ENOSYS), the library's "
				       "openat2";
	return statx_refused ? "the resolver, statx refused (ENOSYS)" :
			       "the resolver";
}

/* openat2 (for the "openat2" side: but to the kernel side's calls, which
 * pass OPENAT2_KERNEL_SIZE), statx (where asked), or neither. 0, or an errno. */
static int refuse_side_calls(bool openat2, bool statx)
{
	struct refused_call calls[2];
	size_t n = 0;

	if (openat2)
		calls[n++] = (struct refused_call){ .nr = SYS_openat2,
			.err = ENOSYS, .arg = 3, .mask = UINT64_MAX,
			.value = OPENAT2_KERNEL_SIZE, .unless_equal = true };
	if (statx)
		calls[n++] = (struct refused_call){ .nr = SYS_statx,
						    .err = ENOSYS };
	return n == 0 ? 0 : refuse_calls(calls, n);
}

int openat2_side_start(void)
{
	const char *side = getenv("OPENAT2_DIFFERENTIAL_SIDE");
	const char *statx = getenv("OPENAT2_DIFFERENTIAL_STATX");
	int rc;

	through_openat2 = side == NULL || strcmp(side, "resolver") != 0;
	statx_refused = statx != NULL && strcmp(statx, "refused") == 0;
	rc = refuse_side_calls(through_openat2, statx_refused);
	if (rc != 0) {
		fprintf(stderr, "openat2-differential: seccomp: %s\n",
			strerror(rc));
		return -1;
	}
	if (!through_openat2)
		return 0;
	/* The refusal must be in place, or the library's openat2 is the
	 * kernel's and the comparison proves nothing. */
	struct open_how how = { 0 };

	if (syscall(SYS_openat2, AT_FDCWD, ".", &how, sizeof how) >= 0 ||
	    errno != ENOSYS) {
		fprintf(stderr, "openat2-differential: openat2 not refused\n");
		return -1;
	}
	return 0;
}

int openat2_side(int dirfd, const char *path, const struct open_how *how)
{
	if (through_openat2)
		return openat2(dirfd, path, how, sizeof *how);
	return openat2_resolver_side(dirfd, path, how);
}
