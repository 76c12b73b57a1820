/*
 * inroot_chmod, inroot_fchmod: a file's mode beneath a root, and through
 * an fd, by the library's fchmodat (1.2): fchmodat2 with
 * AT_SYMLINK_NOFOLLOW or AT_EMPTY_PATH (Linux 6.6), and where that call
 * is refused its fallback, which needs no /proc (chmod_fallback.c: a
 * proven /proc entry, a directory's ".", the file opened again through
 * its own fd on 7.2 or by its name in the held directory, never a FIFO
 * or device; else EOPNOTSUPP). The path form hands that fallback the
 * held directory and the name, so that it can open the file by a name
 * that the kernel looks up in that directory alone.
 */
#include <fcntl.h>
#include <sys/stat.h>

#include "../exports.h"
#include "held_file.h"
#include "inroot.h"

/* src/fchmodat.c: the policy behind the library's fchmodat. */
int libexecveat_fchmodat(int dirfd, const char *path, mode_t mode, int flags);

EXECVEAT_EXPORT int inroot_chmod(int root, const char *path, mode_t mode,
				 int flags)
{
	struct held_parent p;
	int r;

	r = libexecveat_hold_file_flags(root, path, flags, &p);
	if (r != 0)
		return answer(r);
	r = call_result(libexecveat_fchmodat(p.fd, p.name, mode,
					     AT_SYMLINK_NOFOLLOW));
	libexecveat_release_parent(&p);
	return answer(r);
}

EXECVEAT_EXPORT int inroot_fchmod(int fd, mode_t mode)
{
	return answer(call_result(libexecveat_fchmodat(
		fd, "", mode, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW)));
}
