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
#include "call_refused.h"
#include "execveat.h"
#include "exports.h"
#include "sys.h"

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
	int saved_errno = errno;
	bool refused = sys_faccessat2(AT_FDCWD, "", 0,
				      FACCESSAT2_UNKNOWN_FLAG) < 0 &&
		       errno_may_be_refusal(errno);

	errno = saved_errno;
	return refused;
}

/* A refusal of faccessat2, once proven (call_refused.h). */
static atomic_int faccessat2_refused;

/* The fallback's answers that faccessat2 does not give: where it cannot
 * ask (or, where the refusal is only remembered, would need a child or
 * an open), and the fds it holds. Where the refusal is only remembered,
 * faccessat2 is asked then. */
static bool fallback_may_differ(int rc)
{
	return rc == ACCESS_CANNOT_ASK ||
	       (rc < 0 && (errno == EMFILE || errno == ENFILE));
}

/* The fallback's 0 or -1 as faccessat's: errno as it was on success. */
static int answered(int rc, int saved_errno)
{
	if (rc != 0)
		return -1;
	errno = saved_errno;
	return 0;
}

__typeof__(faccessat) libexecveat_faccessat;

EXECVEAT_EXPORT int libexecveat_faccessat(int dirfd, const char *path,
					  int mode, int flags)
{
	int saved_errno = errno, rc = ACCESS_CANNOT_ASK, err = 0;

	if (refusal_remembered(&faccessat2_refused)) {
		rc = libexecveat_access_without_faccessat2(dirfd, path, mode,
							   flags, false);
		if (!fallback_may_differ(rc))
			return answered(rc, saved_errno);
		err = errno;
	}
	if (sys_faccessat2(dirfd, path, mode, flags) == 0) {
		errno = saved_errno;
		return 0;
	}
	if (!errno_may_be_refusal(errno) ||
	    (errno == EPERM && !faccessat2_call_refused()))
		return -1;
	remember_refusal(&faccessat2_refused);
	if (rc != ACCESS_CANNOT_ASK) {
		errno = err; /* the fallback's fds (EMFILE, ENFILE) */
		return -1;
	}
	err = errno;
	rc = libexecveat_access_without_faccessat2(dirfd, path, mode, flags,
						   true);
	/* Where it cannot be asked, the refusal is the answer. */
	if (rc == ACCESS_CANNOT_ASK) {
		errno = err;
		return -1;
	}
	return answered(rc, saved_errno);
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
