/*
 * fchmodat() and lchmod(): with AT_SYMLINK_NOFOLLOW (or AT_EMPTY_PATH),
 * the fchmodat2 system call (Linux 6.6); only where that is refused, the
 * fallback of chmod_fallback.c. Without flags, the old fchmodat system
 * call, untouched.
 *
 * glibc 2.36 never calls fchmodat2: it chmods "/proc/self/fd/N" by name,
 * which fails without /proc and under a fake one changes another file.
 */
#include <errno.h>
#include <stdbool.h>

#include "call_refused.h"
#include "chmod_fallback.h"
#include "execveat.h"
#include "exports.h"
#include "sys.h"

/*
 * Whether fchmodat2 itself is refused here (this thread, now): flags that
 * the kernel rejects (EINVAL) before it looks at any path, so that no
 * file can answer. An EPERM from the real call may be the file's own
 * (the caller does not own it), and is then returned as it is.
 */
bool libexecveat_fchmodat2_refused(void)
{
	int saved_errno = errno;
	bool refused = sys_fchmodat2(AT_FDCWD, "", 0, -1) < 0 &&
		       errno_may_be_refusal(errno);

	errno = saved_errno;
	return refused;
}

static int fchmodat_policy(int dirfd, const char *path, mode_t mode,
			   int flags)
{
	if (flags == 0)
		return sys_fchmodat(dirfd, path, (unsigned int)mode);
	if (sys_fchmodat2(dirfd, path, (unsigned int)mode, flags) == 0)
		return 0;
	if (!errno_may_be_refusal(errno) ||
	    (errno == EPERM && !libexecveat_fchmodat2_refused()))
		return -1;
	return libexecveat_chmod_without_fchmodat2(dirfd, path, mode, flags);
}

__typeof__(fchmodat) libexecveat_fchmodat;
__typeof__(lchmod) libexecveat_lchmod;

EXECVEAT_EXPORT int libexecveat_fchmodat(int dirfd, const char *path,
					 mode_t mode, int flags)
{
	return fchmodat_policy(dirfd, path, mode, flags);
}

EXECVEAT_EXPORT int libexecveat_lchmod(const char *path, mode_t mode)
{
	return fchmodat_policy(AT_FDCWD, path, mode, AT_SYMLINK_NOFOLLOW);
}

/* What -lexecveat binds to. */
__asm__(".symver libexecveat_fchmodat, fchmodat@@EXECVEAT_1.2");
__asm__(".symver libexecveat_lchmod, lchmod@@EXECVEAT_1.2");

#ifdef EXECVEAT_GLIBC_FCHMODAT_NODE
/*
 * The same functions under glibc's versions of them on this ABI (x86_64:
 * fchmodat@GLIBC_2.4, lchmod@GLIBC_2.3.2; newer ABIs: their first
 * release), so that a preloaded library replaces glibc's. Calls within
 * glibc (its lchmod calls its own fchmodat) never reach a preloaded
 * library: both are replaced.
 */
__asm__(".symver libexecveat_fchmodat, fchmodat@"
	EXECVEAT_GLIBC_FCHMODAT_NODE);
__asm__(".symver libexecveat_lchmod, lchmod@" EXECVEAT_GLIBC_LCHMOD_NODE);
#endif
