/* The four extended-attribute calls, by a held name or by an fd
 * (xattr_call.h). */
#include <errno.h>
#include <fcntl.h> /* AT_FDCWD */

#include "../call_refused.h"
#include "../syscalls/xattrs.h"
#include "xattr_call.h"

long libexecveat_xattr_at(const struct xattr_call *c, int dir,
			  const char *name, int at_flags)
{
	long r;

	switch (c->op) {
	case XATTR_GET:
		r = sys_getxattrat(dir, name, at_flags, c->name, c->value,
				   c->size);
		break;
	case XATTR_SET:
		r = sys_setxattrat(dir, name, at_flags, c->name, c->value,
				   c->size, c->set_flags);
		break;
	case XATTR_LIST:
		r = sys_listxattrat(dir, name, at_flags, c->value, c->size);
		break;
	default:
		r = sys_removexattrat(dir, name, at_flags, c->name);
		break;
	}
	return r;
}

long libexecveat_xattr_fd(const struct xattr_call *c, int fd)
{
	long r;

	switch (c->op) {
	case XATTR_GET:
		r = sys_fgetxattr(fd, c->name, c->value, c->size);
		break;
	case XATTR_SET:
		r = sys_fsetxattr(fd, c->name, c->value, c->size, c->set_flags);
		break;
	case XATTR_LIST:
		r = sys_flistxattr(fd, c->value, c->size);
		break;
	default:
		r = sys_fremovexattr(fd, c->name);
		break;
	}
	return r;
}

/* A refusal of the *xattrat calls, once proven (call_refused.h): they
 * came in one release (Linux 6.13), and a policy older than that refuses
 * all four. */
static atomic_int xattrat_refused;

bool libexecveat_xattrat_refusal_remembered(void)
{
	return refusal_remembered(&xattrat_refused);
}

bool libexecveat_xattrat_refused(long answer)
{
	if (answer >= 0 || !may_be_refusal((int)answer))
		return false;
	/* An EPERM may be the file's own (a user.* attribute of a symlink):
	 * flags no kernel with the call takes say EINVAL before a lookup. */
	if (answer == -EPERM &&
	    !may_be_refusal((int)sys_listxattrat(AT_FDCWD, "", -1, NULL, 0)))
		return false;
	remember_refusal(&xattrat_refused);
	return true;
}
