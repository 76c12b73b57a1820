/*
 * inroot_unlink, inroot_rmdir: the name removed from the directory held,
 * by unlinkat there. A last ".", ".." or "/" gets unlinkat's answers
 * without a lookup of the name (EISDIR; rmdir: EINVAL, ENOTEMPTY, and
 * for the root, which the kernel's rmdir calls busy, EBUSY). A trailing
 * slash is handed on with the name: the kernel then wants a directory,
 * and never follows a symlink to one.
 */
#define _GNU_SOURCE /* O_PATH */
#include <fcntl.h>
#include <unistd.h>

#include "../exports.h"
#include "held_parent.h"
#include "inroot.h"

static int remove_name(int root, const char *path, int flags)
{
	struct held_parent p;
	int r = libexecveat_hold_parent(root, path, &p);

	if (r != 0)
		return r;
	/* The kernel's unlink("/") and rmdir("/") say EISDIR and EBUSY
	 * before any lookup; unlinkat of "." would look "." up first, which
	 * needs search permission on the root. */
	if (p.kind == LAST_IS_ROOT)
		r = flags & AT_REMOVEDIR ? -EBUSY : -EISDIR;
	else
		r = call_result(unlinkat(p.fd, p.name, flags));
	libexecveat_release_parent(&p);
	return r;
}

EXECVEAT_EXPORT int inroot_unlink(int root, const char *path)
{
	return answer(remove_name(root, path, 0));
}

EXECVEAT_EXPORT int inroot_rmdir(int root, const char *path)
{
	return answer(remove_name(root, path, AT_REMOVEDIR));
}
