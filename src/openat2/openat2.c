/*
 * openat2(): the system call; where the call itself is refused, the
 * kernel's argument checks and a resolver of our own (src/resolve/).
 *
 * _GNU_SOURCE stays undefined: glibc 2.43 declares openat2 __nonnull
 * ((2, 3)) under it, and the fallback's NULL checks must survive (they go
 * through pointer_is_null() as well).
 */
#ifdef _GNU_SOURCE
#error "build openat2.c without _GNU_SOURCE (see above)"
#endif

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include "../answer.h"
#include "../call_refused.h"
#include "empty_path.h"
#include "execveat.h"
#include "../exports.h"
#include "../null_check.h"
#include "open_how_check.h"
#include "openat2.h"
#include "../syscalls/files.h"

/* open_how_check.c reads how as three 64-bit words. */
_Static_assert(sizeof(struct open_how) == 24 &&
		       offsetof(struct open_how, mode) == 8 &&
		       offsetof(struct open_how, resolve) == 16,
	       "struct open_how must have the kernel's layout");

/* A refusal of openat2, once proven (call_refused.h). */
static atomic_int openat2_refused;

/*
 * Whether openat2 itself is refused here (this thread, now): a call that
 * the kernel rejects before looking at any file (size 0: EINVAL), so that
 * no file, fanotify watch or security module can answer it. A refusal
 * answers it with its ENOSYS or EPERM instead.
 */
static bool openat2_call_refused(void)
{
	return may_be_refusal(sys_openat2(-1, NULL, NULL, 0));
}

/*
 * The fallback's answers that the kernel's openat2 may not give to the
 * same question (openat2(3)): EMFILE and ENFILE for the fds its walk
 * holds, EAGAIN for a rename it met or for RESOLVE_CACHED. Where the
 * refusal is only remembered, openat2 is asked then.
 */
static bool fallback_may_differ(int r)
{
	return r == -EMFILE || r == -ENFILE || r == -EAGAIN;
}

/*
 * Linux 7.2's flags, taken where the kernel has them. O_EMPTYPATH is asked
 * of the kernel (empty_path.c); OPENAT2_REGULAR came in the same release,
 * and no call but openat2 itself could tell, so the one answer stands for
 * both.
 */
static uint64_t newer_open_flags(void)
{
	if (!libexecveat_kernel_opens_empty_path())
		return 0;
#ifdef EFTYPE
	return O_EMPTYPATH | OPENAT2_REGULAR;
#else
	return O_EMPTYPATH; /* no EFTYPE known here: see execveat.h */
#endif
}

/* What the kernel would have answered, without the kernel's openat2. */
int libexecveat_open_without_openat2(int dirfd, const char *path,
				const struct open_how *how, size_t size)
{
	int err = libexecveat_open_how_check(how, size, newer_open_flags);

	/* The kernel copies the path in only after judging how. */
	if (err == 0 && pointer_is_null(path))
		err = -EFAULT;
	if (err < 0)
		return err;
	return libexecveat_resolve_open_as_openat2(dirfd, path, how);
}

int libexecveat_openat2_policy(int dirfd, const char *path,
			       const struct open_how *how, size_t size)
{
	int fd, fallback = 0;

	if (refusal_remembered(&openat2_refused)) {
		fd = libexecveat_open_without_openat2(dirfd, path, how, size);
		if (!fallback_may_differ(fd))
			return fd;
		fallback = fd;
	}
	fd = sys_openat2(dirfd, path, how, size);
	if (!may_be_refusal(fd))
		return fd;
	/* ENOSYS or EPERM: the policy's, or the file's own (O_NOATIME on
	 * another user's file, fanotify, a security module)? */
	if (!openat2_call_refused())
		return fd;
	remember_refusal(&openat2_refused);
	if (fallback != 0)
		return fallback;
	return libexecveat_open_without_openat2(dirfd, path, how, size);
}

__typeof__(openat2) libexecveat_openat2;

EXECVEAT_EXPORT int libexecveat_openat2(int dirfd, const char *path,
					const struct open_how *how, size_t size)
{
	return answer(libexecveat_openat2_policy(dirfd, path, how, size));
}

/* What -lexecveat binds to. */
__asm__(".symver libexecveat_openat2, openat2@@EXECVEAT_1.1");

#ifdef EXECVEAT_GLIBC_OPENAT2_NODE
/*
 * The same function under glibc's own version of openat2 (GLIBC_2.43 on
 * every ABI): programs built against glibc 2.43 or later ask for it, and
 * only a definition carrying it interposes when the library is preloaded.
 * Defining a node of that name needs nothing of the C library: the library
 * still loads into processes of glibc 2.17.
 */
__asm__(".symver libexecveat_openat2, openat2@" EXECVEAT_GLIBC_OPENAT2_NODE);
#endif
