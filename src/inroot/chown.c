/*
 * inroot_chown, inroot_fchown: a file's owner beneath a root, and through
 * an fd. fchownat takes an O_PATH fd with "" and AT_EMPTY_PATH on every
 * kernel since 2.6.39, so neither form needs /proc or opens anything.
 * A symlink's own owner is changed where no link is followed (an O_PATH
 * fd of the link, or AT_SYMLINK_NOFOLLOW): lchown.
 */
#include <fcntl.h>

#include "../exports.h"
#include "held_file.h"
#include "inroot.h"
#include "../syscalls/files.h"

EXECVEAT_EXPORT int inroot_chown(int root, const char *path, uid_t uid,
				 gid_t gid, int flags)
{
	struct held_parent p;
	int r;

	r = libexecveat_hold_file_flags(root, path, flags, &p);
	if (r != 0)
		return answer(r);
	r = sys_fchownat(p.fd, p.name, uid, gid, AT_SYMLINK_NOFOLLOW);
	libexecveat_release_parent(&p);
	return answer(r);
}

EXECVEAT_EXPORT int inroot_fchown(int fd, uid_t uid, gid_t gid)
{
	return answer(sys_fchownat(fd, "", uid, gid, AT_EMPTY_PATH));
}
