/*
 * inroot_resolve, inroot_resolve_nofollow, inroot_open, inroot_creat:
 * the whole path opened inside the root by openat2 itself, which looks
 * up and opens the last component in one step, as the kernel's open
 * does (a dangling last link followed by O_CREAT creates its target,
 * inside the root). The flags are taken as open(2) takes them, and every
 * fd is close-on-exec (held_parent.h: libexecveat_inroot_how).
 */
#define _GNU_SOURCE /* O_PATH */
#include <fcntl.h>

#include "../exports.h"
#include "held_parent.h"
#include "inroot.h"

#ifndef O_TMPFILE
#define O_TMPFILE (020000000 | O_DIRECTORY)
#endif

EXECVEAT_EXPORT int inroot_resolve(int root, const char *path)
{
	return answer(libexecveat_inroot_open(root, path, O_PATH | O_CLOEXEC,
					      0));
}

EXECVEAT_EXPORT int inroot_resolve_nofollow(int root, const char *path)
{
	return answer(libexecveat_inroot_open(
		root, path, O_PATH | O_NOFOLLOW | O_CLOEXEC, 0));
}

/* A file is created only by inroot_creat, which has a mode for it: the
 * flags that would make one, once open(2) has taken them (O_PATH drops
 * both), are EINVAL. */
EXECVEAT_EXPORT int inroot_open(int root, const char *path, int flags)
{
	int taken = (int)libexecveat_inroot_how(flags, 0).flags;

	if ((taken & O_CREAT) || (taken & O_TMPFILE) == O_TMPFILE)
		return answer(-EINVAL);
	return answer(libexecveat_inroot_open(root, path, flags, 0));
}

/* O_TMPFILE makes an unnamed file in the directory path: with O_CREAT
 * beside it, openat2 says EINVAL. */
EXECVEAT_EXPORT int inroot_creat(int root, const char *path, int flags,
				 mode_t mode)
{
	if ((flags & O_TMPFILE) != O_TMPFILE)
		flags |= O_CREAT;
	return answer(libexecveat_inroot_open(root, path, flags,
					      (unsigned int)mode));
}
