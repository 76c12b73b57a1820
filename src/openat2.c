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

#include "call_refused.h"
#include "empty_path.h"
#include "execveat.h"
#include "exports.h"
#include "largefile.h"
#include "null_check.h"
#include "open_how_check.h"
#include "resolve.h"
#include "sys.h"

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
 * answers it with its ENOSYS or EPERM instead. Leaves errno as it was.
 */
static bool openat2_call_refused(void)
{
	int saved_errno = errno;
	bool refused = sys_openat2(-1, NULL, NULL, 0) < 0 &&
		       errno_may_be_refusal(errno);

	errno = saved_errno;
	return refused;
}

/*
 * The fallback's answers that the kernel's openat2 may not give to the
 * same question (openat2(3)): EMFILE and ENFILE for the fds its walk
 * holds, EAGAIN for a rename it met or for RESOLVE_CACHED. Where the
 * refusal is only remembered, openat2 is asked then.
 */
static bool fallback_may_differ(int err)
{
	return err == EMFILE || err == ENFILE || err == EAGAIN;
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

/* The walk, with the flags the kernel's system call adds after its checks:
 * a 32-bit process on a 64-bit kernel gets O_LARGEFILE (largefile.c). */
int libexecveat_resolve_open_as_openat2(int dirfd, const char *path,
					const struct open_how *how)
{
	struct open_how as_kernel = {
		.flags = how->flags | libexecveat_openat2_added_flags(how->flags),
		.mode = how->mode,
		.resolve = how->resolve,
	};

	return libexecveat_resolve_open(dirfd, path, &as_kernel);
}

/* What the kernel would have answered, without the kernel's openat2. */
int libexecveat_open_without_openat2(int dirfd, const char *path,
				const struct open_how *how, size_t size)
{
	int err = libexecveat_open_how_errno(how, size, newer_open_flags);

	/* The kernel copies the path in only after judging how. */
	if (err == 0 && pointer_is_null(path))
		err = EFAULT;
	if (err != 0) {
		errno = err;
		return -1;
	}
	return libexecveat_resolve_open_as_openat2(dirfd, path, how);
}

__typeof__(openat2) libexecveat_openat2;

EXECVEAT_EXPORT int libexecveat_openat2(int dirfd, const char *path,
					const struct open_how *how, size_t size)
{
	int fd, fallback_errno = 0;

	if (refusal_remembered(&openat2_refused)) {
		fd = libexecveat_open_without_openat2(dirfd, path, how, size);
		if (fd >= 0 || !fallback_may_differ(errno))
			return fd;
		fallback_errno = errno;
	}
	fd = sys_openat2(dirfd, path, how, size);
	if (fd >= 0 || !errno_may_be_refusal(errno))
		return fd;
	/* ENOSYS or EPERM: the policy's, or the file's own (O_NOATIME on
	 * another user's file, fanotify, a security module)? */
	if (!openat2_call_refused())
		return -1;
	remember_refusal(&openat2_refused);
	if (fallback_errno != 0) {
		errno = fallback_errno;
		return -1;
	}
	return libexecveat_open_without_openat2(dirfd, path, how, size);
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
