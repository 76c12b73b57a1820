/*
 * inroot_getxattr, _setxattr, _listxattr, _removexattr: extended
 * attributes of a file beneath a root; inroot_fgetxattr and the rest:
 * of the file an fd holds, an O_PATH fd too. No /proc is needed where
 * the kernel has the *xattrat calls (Linux 6.13).
 *
 * The path form acts on the held name with the *xattrat call and
 * AT_SYMLINK_NOFOLLOW (a last link followed inside the root first, where
 * asked). Where the call is refused, the name is opened O_PATH|O_NOFOLLOW
 * in the held directory and the O_PATH way below is taken. The fd form:
 * an fd open to read or write takes the f* calls; an O_PATH fd takes
 * xattr_reach.c's ways, none of which opens the file.
 */
#define _GNU_SOURCE /* O_PATH */
#include <fcntl.h>
#include <sys/types.h>

#include "../exports.h"
#include "held_file.h"
#include "inroot.h"
#include "../syscalls/fds.h"
#include "../syscalls/files.h"
#include "xattr_call.h"

/* The held name opened O_PATH|O_NOFOLLOW (the same lookup the call
 * makes), and the O_PATH way taken (xattr_reach.c). */
static long through_opath(const struct xattr_call *c,
			  const struct held_parent *p, enum xattrat_known known)
{
	int fd = sys_openat(p->fd, p->name, O_PATH | O_NOFOLLOW | O_CLOEXEC, 0);
	long r;

	if (fd < 0)
		return fd;
	r = libexecveat_xattr_opath(c, fd, known);
	sys_close(fd);
	return r;
}

/*
 * Where the refusal of the *xattrat calls is remembered, the ways that
 * answer as the call would are taken first, without asking it; the call
 * is asked where they find none (EOPNOTSUPP), as if nothing were
 * remembered (call_refused.h).
 */
static long on_path(int root, const char *path, const struct xattr_call *c,
		    int flags)
{
	struct held_parent p;
	long r;

	r = libexecveat_hold_file_flags(root, path, flags, &p);
	if (r != 0)
		return r;
	r = -EOPNOTSUPP;
	if (libexecveat_xattrat_refusal_remembered())
		r = through_opath(c, &p, XATTRAT_REMEMBERED);
	if (r == -EOPNOTSUPP) {
		r = libexecveat_xattr_at(c, p.fd, p.name, AT_SYMLINK_NOFOLLOW);
		if (libexecveat_xattrat_refused(r))
			r = through_opath(c, &p, XATTRAT_REFUSED);
	}
	libexecveat_release_parent(&p);
	return r;
}

static long on_fd(int fd, const struct xattr_call *c)
{
	int flags = sys_fcntl_getfl(fd);
	long r = -EOPNOTSUPP;

	if (flags < 0)
		return flags;
	if (!(flags & O_PATH))
		return libexecveat_xattr_fd(c, fd);
	if (libexecveat_xattrat_refusal_remembered())
		r = libexecveat_xattr_opath(c, fd, XATTRAT_REMEMBERED);
	return r != -EOPNOTSUPP ? r :
	       libexecveat_xattr_opath(c, fd, XATTRAT_UNASKED);
}

/* A length's answer: itself, or -1 with errno. */
static ssize_t answer_length(long r)
{
	return r < 0 ? answer((int)r) : (ssize_t)r;
}

EXECVEAT_EXPORT ssize_t inroot_getxattr(int root, const char *path,
					const char *name, void *value,
					size_t size, int flags)
{
	struct xattr_call c = { XATTR_GET, name, value, size, 0 };

	return answer_length(on_path(root, path, &c, flags));
}

EXECVEAT_EXPORT int inroot_setxattr(int root, const char *path,
				    const char *name, const void *value,
				    size_t size, int set_flags, int flags)
{
	struct xattr_call c = { XATTR_SET, name, (void *)value, size,
				set_flags };

	return answer((int)on_path(root, path, &c, flags));
}

EXECVEAT_EXPORT ssize_t inroot_listxattr(int root, const char *path,
					 char *list, size_t size, int flags)
{
	struct xattr_call c = { XATTR_LIST, NULL, list, size, 0 };

	return answer_length(on_path(root, path, &c, flags));
}

EXECVEAT_EXPORT int inroot_removexattr(int root, const char *path,
				       const char *name, int flags)
{
	struct xattr_call c = { XATTR_REMOVE, name, NULL, 0, 0 };

	return answer((int)on_path(root, path, &c, flags));
}

EXECVEAT_EXPORT ssize_t inroot_fgetxattr(int fd, const char *name,
					 void *value, size_t size)
{
	struct xattr_call c = { XATTR_GET, name, value, size, 0 };

	return answer_length(on_fd(fd, &c));
}

EXECVEAT_EXPORT int inroot_fsetxattr(int fd, const char *name,
				     const void *value, size_t size,
				     int set_flags)
{
	struct xattr_call c = { XATTR_SET, name, (void *)value, size,
				set_flags };

	return answer((int)on_fd(fd, &c));
}

EXECVEAT_EXPORT ssize_t inroot_flistxattr(int fd, char *list, size_t size)
{
	struct xattr_call c = { XATTR_LIST, NULL, list, size, 0 };

	return answer_length(on_fd(fd, &c));
}

EXECVEAT_EXPORT int inroot_fremovexattr(int fd, const char *name)
{
	struct xattr_call c = { XATTR_REMOVE, name, NULL, 0, 0 };

	return answer((int)on_fd(fd, &c));
}
