/*
 * The walk as openat2's fallback makes it (openat2.h): with the flags the
 * kernel's system call adds after its checks, O_LARGEFILE for a 32-bit
 * process on a 64-bit kernel.
 *
 * The openat2 system call adds O_LARGEFILE to every open but an O_PATH
 * one on every 64-bit kernel (fs/open.c: force_o_largefile(), true where
 * the kernel's off_t is 64-bit), and it has no compat entry point, so a
 * 32-bit program (i386 on x86_64, armhf on arm64) gets the flag from it.
 * The compat openat that the fallback's walk calls adds nothing; a 32-bit
 * kernel adds nothing to either. A file opened without the flag answers
 * EOVERFLOW at open when it is over 2 GiB, and EFBIG to a write past
 * 2 GiB: without it, the fallback would refuse what the kernel opens.
 *
 * How a 32-bit process tells the kernel's width: uname(2)'s machine names
 * a 64-bit architecture ("x86_64", "aarch64", ...), unless the process
 * runs under the PER_LINUX32 personality (setarch i686, linux32), which
 * makes a 64-bit kernel answer "i686" or "armv8l"; a 32-bit kernel
 * answers a 32-bit name. So: a 64-bit name, or PER_LINUX32, means a
 * 64-bit kernel. Its limit (openat2(3), NOTES): a process of a 32-bit
 * kernel that sets PER_LINUX32 itself, which changes nothing there, is
 * taken for one of a 64-bit kernel and gets the flag.
 *
 * On 64-bit ABIs and x32 (whose openat is the 64-bit one) the kernel's
 * openat adds the flag as its openat2 does: nothing to add.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "openat2.h"
#include "../resolve/resolve.h"
#include "../syscalls/process.h"

#if __SIZEOF_LONG__ == 4 && !defined(__x86_64__)
#define COMPAT_OPENAT_ADDS_NOTHING 1
#endif

#ifdef COMPAT_OPENAT_ADDS_NOTHING
/* glibc defines O_LARGEFILE as 0 where off_t is 64-bit by itself; on
 * these ABIs its value, and musl's, is the kernel's. */
_Static_assert(O_LARGEFILE != 0, "O_LARGEFILE must be the kernel's bit");
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "atomic int must be lock-free");

#define PER_LINUX32 0x0008
#define PER_MASK 0x00ff
#define UTS_FIELD 65 /* struct new_utsname: six fields of 65 bytes */

enum kernel_width { WIDTH_UNKNOWN, WIDTH_32, WIDTH_64 };

/* The kernel does not change under a process: asked once. A vfork child
 * that asks writes the same answer into its parent's memory. */
static atomic_int kernel_width;

static bool machine_is_64bit(const char *machine)
{
	return strstr(machine, "64") != NULL || strcmp(machine, "s390x") == 0;
}

static enum kernel_width ask_kernel_width(void)
{
	char uts[6 * UTS_FIELD];
	long persona = sys_personality_query();

	if (persona >= 0 && (persona & PER_MASK) == PER_LINUX32)
		return WIDTH_64;
	/* Where uname fails, nothing is added: the 32-bit kernel's answer. */
	if (sys_newuname(uts) < 0)
		return WIDTH_32;
	uts[5 * UTS_FIELD - 1] = '\0'; /* the machine field, terminated */
	return machine_is_64bit(uts + 4 * UTS_FIELD) ? WIDTH_64 : WIDTH_32;
}

static bool kernel_is_64bit(void)
{
	int width = atomic_load_explicit(&kernel_width, memory_order_relaxed);

	if (width == WIDTH_UNKNOWN) {
		width = ask_kernel_width();
		atomic_store_explicit(&kernel_width, width,
				      memory_order_relaxed);
	}
	return width == WIDTH_64;
}
#endif

/* The bits the kernel's openat2 would add to flags here: O_LARGEFILE or
 * nothing. */
static uint64_t added_flags(uint64_t flags)
{
#ifdef COMPAT_OPENAT_ADDS_NOTHING
	if (!(flags & O_PATH) && kernel_is_64bit())
		return O_LARGEFILE;
#endif
	(void)flags;
	return 0;
}

int libexecveat_resolve_open_as_openat2(int dirfd, const char *path,
					const struct open_how *how)
{
	struct open_how as_kernel = {
		.flags = how->flags | added_flags(how->flags),
		.mode = how->mode,
		.resolve = how->resolve,
	};

	return libexecveat_resolve_open(dirfd, path, &as_kernel);
}
