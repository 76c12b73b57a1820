/*
 * close_range() and closefrom(): the close_range system call (Linux 5.9);
 * only where it is refused, the proven /proc listing (fd_listing.c), and
 * where there is none, the scan (fd_scan.c).
 *
 * A refusal is any answer Linux's close_range cannot give for the
 * arguments asked (kernel_could_answer): ENOSYS or EPERM from a kernel
 * before 5.9, qemu-user before 7.0 or a policy (call_refused.h), and
 * also gVisor's EINVAL for (3, ~0U, 0), arguments Linux accepts, with
 * which gVisor leaves every fd open. Then the call was not carried out,
 * and the fallback does it. Unlike fchmodat2's and openat2's, no answer
 * here needs a probe to be told apart.
 *
 * glibc's closefrom aborts the process where its fallback cannot list
 * /proc/self/fd. Nothing here aborts, allocates, locks or uses stdio:
 * these run between fork and exec, and in vfork children.
 */
#include <errno.h>
#include <stdbool.h>

#include "../answer.h"
#include "../call_refused.h"
#include "execveat.h"
#include "../exports.h"
#include "../fd_table/fd_range.h"
#include "../syscalls/fds.h"

#define CLOSE_RANGE_KNOWN_FLAGS (CLOSE_RANGE_UNSHARE | CLOSE_RANGE_CLOEXEC)

/* What the kernel does, done without it: 0, or -errno (EINVAL, or the
 * unshare's). */
static int close_range_without_syscall(unsigned int first, unsigned int last,
				       unsigned int flags)
{
	bool cloexec = (flags & CLOSE_RANGE_CLOEXEC) != 0;
	int r;

	/* The kernel's checks (fs/file.c), in the kernel's order. */
	if ((flags & ~CLOSE_RANGE_KNOWN_FLAGS) != 0 || first > last)
		return -EINVAL;
	/* The table shared with other threads or processes must keep its
	 * fds: without a table of our own, nothing may be closed. */
	r = flags & CLOSE_RANGE_UNSHARE ? sys_unshare_files() : 0;
	if (r < 0)
		return r;
	if (libexecveat_fd_range_by_listing(first, last, cloexec) != 0)
		libexecveat_fd_range_by_scan(first, last, cloexec);
	return 0;
}

/*
 * Whether err is an answer Linux's close_range (fs/file.c, 5.11 and
 * later) can give for these arguments: EINVAL for a flag it does not know
 * or first > last, ENOMEM or EMFILE only where CLOSE_RANGE_UNSHARE makes
 * it copy the table. Nothing else, ever: no EBADF for numbers that are
 * not open. (Linux 5.9 and 5.10 answer EINVAL for CLOSE_RANGE_CLOEXEC,
 * which they do not know: the fallback does it there.)
 */
static bool kernel_could_answer(int r, unsigned int first,
				unsigned int last, unsigned int flags)
{
	if (r == -EINVAL)
		return (flags & ~CLOSE_RANGE_KNOWN_FLAGS) != 0 || first > last;
	if (r == -ENOMEM || r == -EMFILE)
		return (flags & CLOSE_RANGE_UNSHARE) != 0;
	return false;
}

/* A refusal of close_range, once proven (call_refused.h): ENOSYS or
 * EPERM. An EINVAL for arguments Linux accepts is refused (gVisor's), but
 * not remembered: Linux 5.9 and 5.10 answer it for CLOSE_RANGE_CLOEXEC
 * alone, and take every other call. */
static atomic_int close_range_refused;

static int close_range_policy(unsigned int first, unsigned int last,
			      unsigned int flags)
{
	int r, fallback;

	/* The fallback does what the call does; only where it cannot take
	 * a table of its own (CLOSE_RANGE_UNSHARE) is the call asked. */
	if (refusal_remembered(&close_range_refused)) {
		fallback = close_range_without_syscall(first, last, flags);
		if (fallback == 0 || fallback == -EINVAL)
			return fallback;
	}
	r = sys_close_range(first, last, flags);
	if (r == 0 || kernel_could_answer(r, first, last, flags))
		return r;
	if (may_be_refusal(r))
		remember_refusal(&close_range_refused);
	fallback = close_range_without_syscall(first, last, flags);
	/* unshare refused as well: the call's refusal is the answer. */
	return may_be_refusal(fallback) ? r : fallback;
}

__typeof__(close_range) libexecveat_close_range;
__typeof__(closefrom) libexecveat_closefrom;

EXECVEAT_EXPORT int libexecveat_close_range(unsigned int first,
					    unsigned int last, int flags)
{
	return answer(close_range_policy(first, last, (unsigned int)flags));
}

/* glibc clamps a negative lowfd to 0 (unistd.h), and so does this. */
EXECVEAT_EXPORT void libexecveat_closefrom(int lowfd)
{
	close_range_policy(lowfd < 0 ? 0u : (unsigned int)lowfd, ~0u, 0u);
}

/* What -lexecveat binds to. */
__asm__(".symver libexecveat_close_range, close_range@@EXECVEAT_1.2");
__asm__(".symver libexecveat_closefrom, closefrom@@EXECVEAT_1.2");

#ifdef EXECVEAT_GLIBC_CLOSE_RANGE_NODE
/*
 * The same functions under glibc's own versions of them (GLIBC_2.34 on
 * the ABIs older than that release): programs built against glibc 2.34
 * or later ask for those, and only a definition carrying them interposes
 * when the library is preloaded. glibc's close_range is the bare system
 * call, and its closefrom aborts where the call is refused and /proc is
 * not there.
 */
__asm__(".symver libexecveat_close_range, close_range@"
	EXECVEAT_GLIBC_CLOSE_RANGE_NODE);
__asm__(".symver libexecveat_closefrom, closefrom@"
	EXECVEAT_GLIBC_CLOSEFROM_NODE);
#endif
