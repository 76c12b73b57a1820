/*
 * faccessat(): the faccessat2 system call (Linux 5.8), its answer
 * returned as it is; only where the call itself is refused, the fallback
 * of access_fallback.c.
 *
 * glibc 2.33 and later call faccessat2 too, but fall back only on ENOSYS:
 * under a policy that refuses it with EPERM (one written before the call
 * existed) every question is answered EPERM, and `[ -x FILE ]` in dash is
 * false for every file.
 */
#include <errno.h>
#include <stdbool.h>

#include "access_fallback.h"
#include "../answer.h"
#include "../call_refused.h"
#include "execveat.h"
#include "../exports.h"
#include "../syscalls/files.h"

/* A flag no kernel knows (Linux rejects it with EINVAL before it looks at
 * the path): no file can answer it, only a policy. */
#define FACCESSAT2_UNKNOWN_FLAG 0x40000000

/*
 * Whether faccessat2 itself is refused here (this thread, now). An EPERM
 * from the real call may be the file's own (W_OK on an immutable file),
 * and is then returned as it is.
 */
static bool faccessat2_call_refused(void)
{
	return may_be_refusal(
		sys_faccessat2(AT_FDCWD, "", 0, FACCESSAT2_UNKNOWN_FLAG));
}

/* A refusal of faccessat2, once proven (call_refused.h). */
static atomic_int faccessat2_refused;

/* The fallback's answers that faccessat2 does not give: where it cannot
 * ask (or, where the refusal is only remembered, would need a child or
 * an open), and the fds it holds. Where the refusal is only remembered,
 * faccessat2 is asked then. */
static bool fallback_may_differ(int r)
{
	return r == ACCESS_CANNOT_ASK || r == -EMFILE || r == -ENFILE;
}

int libexecveat_faccessat_policy(int dirfd, const char *path, int mode,
				 int flags)
{
	int fallback = ACCESS_CANNOT_ASK, r;

	if (refusal_remembered(&faccessat2_refused)) {
		fallback = libexecveat_access_without_faccessat2(
			dirfd, path, mode, flags, false);
		if (!fallback_may_differ(fallback))
			return fallback;
	}
	r = sys_faccessat2(dirfd, path, mode, flags);
	if (!may_be_refusal(r) ||
	    (r == -EPERM && !faccessat2_call_refused()))
		return r;
	remember_refusal(&faccessat2_refused);
	if (fallback != ACCESS_CANNOT_ASK)
		return fallback; /* the fallback's fds (EMFILE, ENFILE) */
	fallback = libexecveat_access_without_faccessat2(dirfd, path, mode,
							 flags, true);
	/* Where it cannot be asked, the refusal is the answer. */
	return fallback == ACCESS_CANNOT_ASK ? r : fallback;
}

__typeof__(faccessat) libexecveat_faccessat;

EXECVEAT_EXPORT int libexecveat_faccessat(int dirfd, const char *path,
					  int mode, int flags)
{
	return answer(libexecveat_faccessat_policy(dirfd, path, mode, flags));
}

/* What -lexecveat binds to. */
__asm__(".symver libexecveat_faccessat, faccessat@@EXECVEAT_1.3");

#ifdef EXECVEAT_GLIBC_FACCESSAT_NODE
/*
 * The same function under glibc's version of it on this ABI (x86_64:
 * faccessat@GLIBC_2.4; newer ABIs: their first release), so that a
 * preloaded library replaces glibc's. glibc's access, euidaccess and
 * eaccess never reach faccessat2 (they call access or the old faccessat,
 * and stat): they are left alone.
 */
__asm__(".symver libexecveat_faccessat, faccessat@"
	EXECVEAT_GLIBC_FACCESSAT_NODE);
#endif
