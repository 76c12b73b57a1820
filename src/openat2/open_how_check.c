/*
 * openat2's argument checks, as fs/open.c's build_open_flags() and the
 * system call's entry make them (Linux 6.18), and the open_how that
 * openat's flags and mode become before those checks (build_open_how).
 *
 * Linux 7.2's O_EMPTYPATH and OPENAT2_REGULAR are valid only where the
 * caller says the kernel has them (open_how_check.h).
 *
 * The O_ values are the kernel's: <asm/fcntl.h> where the kernel headers
 * are installed, because the C library's can differ (glibc defines
 * O_LARGEFILE as 0 on 64-bit ABIs, where the kernel's bit is still a valid
 * openat2 flag, and folds O_DIRECTORY into O_TMPFILE). Without them (musl
 * ships none) the C library's, which on musl are the kernel's. Hence this
 * file includes neither <fcntl.h> beside <asm/fcntl.h> nor the public
 * header, and reads struct open_how as the three words it is.
 */
#include "open_how_check.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>

#if defined(__has_include) && __has_include(<asm/fcntl.h>)
#include <asm/fcntl.h>
#else
#include <fcntl.h>
#endif

#include "../null_check.h"

#ifndef O_ASYNC
#define O_ASYNC FASYNC
#endif
#ifndef O_NDELAY
#define O_NDELAY O_NONBLOCK
#endif

/* The O_TMPFILE bit alone: both the kernel and the C libraries define
 * O_TMPFILE as that bit plus O_DIRECTORY. */
#define TMPFILE_BIT ((uint64_t)(O_TMPFILE & ~O_DIRECTORY))

/* VALID_OPEN_FLAGS in the kernel's include/linux/fcntl.h. O_SYNC is
 * __O_SYNC | O_DSYNC. */
#define VALID_OPEN_FLAGS                                                    \
	((uint64_t)(O_ACCMODE | O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC |    \
		    O_APPEND | O_NDELAY | O_NONBLOCK | O_SYNC | O_DSYNC |  \
		    O_ASYNC | O_DIRECT | O_LARGEFILE | O_DIRECTORY |       \
		    O_NOFOLLOW | O_NOATIME | O_CLOEXEC | O_PATH) |         \
	 TMPFILE_BIT)

/* What O_PATH may come with (O_PATH_FLAGS in fs/open.c). */
#define O_PATH_FLAGS ((uint64_t)(O_DIRECTORY | O_NOFOLLOW | O_PATH | O_CLOEXEC))

/* Linux 7.2's (include/execveat.h has them for callers). */
#define EMPTYPATH_BIT ((uint64_t)1 << 26)
#define REGULAR_BIT ((uint64_t)1 << 32)

/* The RESOLVE_ bits of Linux 6.18 (<linux/openat2.h>); a bit the kernel
 * adds later is one the fallback does not implement, so EINVAL for it is
 * the older kernel's answer. */
#define RESOLVE_BENEATH_BIT 0x08
#define RESOLVE_IN_ROOT_BIT 0x10
#define RESOLVE_CACHED_BIT 0x20
#define VALID_RESOLVE_FLAGS 0x3f

#define OPEN_HOW_SIZE_VER0 24

struct how_words {
	uint64_t flags, mode, resolve;
};

/* The largest size the kernel takes: its PAGE_SIZE (64 KiB on some arm64
 * and ppc64 kernels), which the auxiliary vector tells. */
static size_t page_size(void)
{
	unsigned long size = getauxval(AT_PAGESZ);

	return size != 0 ? (size_t)size : 4096;
}

/* copy_struct_from_user(): what the kernel does not know must be zero. */
static int tail_errno(const unsigned char *how, size_t size)
{
	for (size_t i = OPEN_HOW_SIZE_VER0; i < size; i++)
		if (how[i] != 0)
			return -E2BIG;
	return 0;
}

static int mode_errno(uint64_t flags, uint64_t mode)
{
	if (flags & (O_CREAT | TMPFILE_BIT))
		return (mode & ~(uint64_t)07777) ? -EINVAL : 0;
	return mode != 0 ? -EINVAL : 0;
}

static int flags_errno(uint64_t flags, uint64_t (*newer_flags)(void))
{
	/* The kernel is asked only about a bit 6.18 does not know. */
	uint64_t newer = flags & ~VALID_OPEN_FLAGS ? newer_flags() : 0;
	uint64_t path_flags = O_PATH_FLAGS | (newer & EMPTYPATH_BIT);

	/* O_CLOEXEC is stripped before any check; it is valid anyway. */
	if (flags & ~(VALID_OPEN_FLAGS | newer))
		return -EINVAL;
	/* Refused by 6.18 whether or not the file exists; it also refuses
	 * O_TMPFILE | O_CREAT, since O_TMPFILE holds O_DIRECTORY. */
	if ((flags & (O_DIRECTORY | O_CREAT)) == (uint64_t)(O_DIRECTORY | O_CREAT))
		return -EINVAL;
	if ((flags & TMPFILE_BIT) &&
	    (!(flags & O_DIRECTORY) || (flags & O_ACCMODE) == O_RDONLY))
		return -EINVAL;
	if ((flags & O_PATH) && (flags & ~path_flags))
		return -EINVAL;
	/* 7.2: a regular file only, which O_DIRECTORY and O_TMPFILE (a
	 * directory named) contradict; O_PATH was refused just above. */
	if ((flags & REGULAR_BIT) && (flags & (O_DIRECTORY | TMPFILE_BIT)))
		return -EINVAL;
	return 0;
}

static int resolve_errno(uint64_t resolve)
{
	if (resolve & ~(uint64_t)VALID_RESOLVE_FLAGS)
		return -EINVAL;
	if ((resolve & RESOLVE_BENEATH_BIT) && (resolve & RESOLVE_IN_ROOT_BIT))
		return -EINVAL;
	return 0;
}

void libexecveat_open_how_of_openat(void *how, int flags, unsigned int mode,
				    uint64_t (*newer_flags)(void))
{
	uint64_t known = (uint64_t)(unsigned int)flags;
	struct how_words words = { .resolve = 0 };

	if (known & ~VALID_OPEN_FLAGS)
		known &= VALID_OPEN_FLAGS | newer_flags();
	if (known & O_PATH)
		known &= O_PATH_FLAGS | EMPTYPATH_BIT;
	words.flags = known;
	/* umode_t, then S_IALLUGO. */
	words.mode = known & (O_CREAT | TMPFILE_BIT) ? mode & 07777 : 0;
	memcpy(how, &words, sizeof(words));
}

int libexecveat_open_how_check(const void *how, size_t size,
			       uint64_t (*newer_flags)(void))
{
	struct how_words words;
	int err;

	if (size < OPEN_HOW_SIZE_VER0)
		return -EINVAL;
	if (size > page_size())
		return -E2BIG;
	if (pointer_is_null(how))
		return -EFAULT;
	err = tail_errno(how, size);
	if (err != 0)
		return err;
	memcpy(&words, how, sizeof(words));
	err = flags_errno(words.flags, newer_flags);
	if (err == 0)
		err = resolve_errno(words.resolve);
	if (err == 0)
		err = mode_errno(words.flags, words.mode);
	if (err != 0)
		return err;
	/* Not even tried: these would write, and a cached lookup cannot. */
	if ((words.resolve & RESOLVE_CACHED_BIT) &&
	    (words.flags & (O_TRUNC | O_CREAT | TMPFILE_BIT)))
		return -EAGAIN;
	return 0;
}
