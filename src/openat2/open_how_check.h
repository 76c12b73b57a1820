/*
 * The checks openat2(2) makes of its arguments before it looks at any
 * path, for the fallback to make where the kernel cannot: the fast path
 * leaves them to the kernel. And what openat(2) makes of its own flags
 * and mode first, which openat2 takes as they are.
 */
#ifndef EXECVEAT_OPEN_HOW_CHECK_H
#define EXECVEAT_OPEN_HOW_CHECK_H

#include <stddef.h>
#include <stdint.h>

/*
 * The kernel's -errno for how (a struct open_how, read as three 64-bit
 * words, flags, mode and resolve, plus size - 24 bytes that must be zero)
 * and size, or 0 when it would go on to the lookup. As Linux 6.18 answers,
 * in its order: size below 24 EINVAL; above a page E2BIG; how NULL
 * EFAULT; a non-zero byte past the struct E2BIG; unknown O_ or RESOLVE_
 * bits, BENEATH with IN_ROOT, a mode without O_CREAT or O_TMPFILE or with
 * bits above 07777, O_CREAT with O_DIRECTORY, O_TMPFILE without write
 * access, O_PATH with a flag O_PATH does not take: EINVAL; RESOLVE_CACHED
 * with O_CREAT, O_TRUNC or O_TMPFILE: EAGAIN.
 *
 * newer_flags: called only where the flags hold a bit 6.18 does not know,
 * it says which flags of later kernels this one takes: Linux 7.2's
 * O_EMPTYPATH (which O_PATH may come with) and OPENAT2_REGULAR (refused
 * with O_PATH, O_DIRECTORY or O_TMPFILE), or 0, and either is then an
 * unknown bit (EINVAL), as the kernels before answer.
 */
int libexecveat_open_how_check(const void *how, size_t size,
			       uint64_t (*newer_flags)(void));

/*
 * The open_how that openat(2) makes of flags and mode (fs/open.c's
 * build_open_how), into how (three 64-bit words, as above): the bits the
 * kernel does not know dropped (newer_flags says which of later kernels
 * it knows, as above); with O_PATH, only O_DIRECTORY, O_NOFOLLOW and
 * O_CLOEXEC kept beside it (and 7.2's O_EMPTYPATH); the mode cut to its
 * permission bits (07777) where the flags create a file (O_CREAT,
 * O_TMPFILE), else 0. openat2 given that how answers what openat answers:
 * it refuses each of those (EINVAL) where openat drops it.
 */
void libexecveat_open_how_of_openat(void *how, int flags, unsigned int mode,
				    uint64_t (*newer_flags)(void));

#endif /* EXECVEAT_OPEN_HOW_CHECK_H */
