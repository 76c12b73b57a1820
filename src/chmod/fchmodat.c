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

#include "../answer.h"
#include "../call_refused.h"
#include "chmod_fallback.h"
#include "execveat.h"
#include "../exports.h"
#include "fchmodat2_refusal.h"
#include "../syscalls/files.h"

/*
 * Whether fchmodat2 itself is refused here (this thread, now): flags that
 * the kernel rejects (EINVAL) before it looks at any path, so that no
 * file can answer.
 */
static bool fchmodat2_call_refused(void)
{
	return may_be_refusal(sys_fchmodat2(AT_FDCWD, "", 0, -1));
}

/* A refusal of fchmodat2, once proven (call_refused.h). */
static atomic_int fchmodat2_refused;

bool libexecveat_fchmodat2_refusal_remembered(void)
{
	return refusal_remembered(&fchmodat2_refused);
}

bool libexecveat_fchmodat2_refused(int r)
{
	if (!may_be_refusal(r) || (r == -EPERM && !fchmodat2_call_refused()))
		return false;
	remember_refusal(&fchmodat2_refused);
	return true;
}

/*
 * The fallback's answers that fchmodat2 does not give (fchmodat(3)):
 * EOPNOTSUPP where there is no way to change the mode, EAGAIN where a
 * name or an fd came to hold another file, EMFILE and ENFILE for its fds.
 * Where the refusal is only remembered, fchmodat2 is asked then, and
 * where the fallback would open the file (CHMOD_WOULD_OPEN), first.
 */
bool libexecveat_chmod_fallback_may_differ(int r)
{
	return r == CHMOD_WOULD_OPEN || r == -EOPNOTSUPP || r == -EAGAIN ||
	       r == -EMFILE || r == -ENFILE;
}

static int fchmodat_policy(int dirfd, const char *path, mode_t mode,
			   int flags)
{
	int r, fallback = 0;

	if (flags == 0)
		return sys_fchmodat(dirfd, path, (unsigned int)mode);
	if (libexecveat_fchmodat2_refusal_remembered()) {
		fallback = libexecveat_chmod_without_fchmodat2(
			dirfd, path, mode, flags, false);
		if (!libexecveat_chmod_fallback_may_differ(fallback))
			return fallback;
	}
	r = sys_fchmodat2(dirfd, path, (unsigned int)mode, flags);
	if (!libexecveat_fchmodat2_refused(r))
		return r;
	if (fallback < 0)
		return fallback;
	return libexecveat_chmod_without_fchmodat2(dirfd, path, mode, flags,
						   true);
}

__typeof__(fchmodat) libexecveat_fchmodat;
__typeof__(lchmod) libexecveat_lchmod;

EXECVEAT_EXPORT int libexecveat_fchmodat(int dirfd, const char *path,
					 mode_t mode, int flags)
{
	return answer(fchmodat_policy(dirfd, path, mode, flags));
}

EXECVEAT_EXPORT int libexecveat_lchmod(const char *path, mode_t mode)
{
	return answer(
		fchmodat_policy(AT_FDCWD, path, mode, AT_SYMLINK_NOFOLLOW));
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
