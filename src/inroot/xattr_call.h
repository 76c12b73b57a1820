/*
 * One extended-attribute call (get, set, list, remove), made on whatever
 * way to the file is found: a name in a held directory (the *xattrat
 * calls, Linux 6.13), or an fd open to read or write (fgetxattr and the
 * rest, every kernel). An O_PATH fd has neither: the kernel refuses the
 * f* calls and "" with AT_EMPTY_PATH on it (EBADF), so xattr_reach.c
 * finds another way to its file.
 */
#ifndef EXECVEAT_INROOT_XATTR_CALL_H
#define EXECVEAT_INROOT_XATTR_CALL_H

#include <stdbool.h>
#include <stddef.h>

enum xattr_op { XATTR_GET, XATTR_SET, XATTR_LIST, XATTR_REMOVE };

struct xattr_call {
	enum xattr_op op;
	const char *name; /* not for XATTR_LIST */
	void *value;      /* the value, or the list; read only by SET */
	size_t size;
	int set_flags;    /* XATTR_CREATE, XATTR_REPLACE */
};

/* The call on name in dir, with at_flags (AT_SYMLINK_NOFOLLOW): a
 * length, 0, or -errno. */
long libexecveat_xattr_at(const struct xattr_call *c, int dir,
			  const char *name, int at_flags);

/* The call on an fd open to read or write: a length, 0, or -errno. */
long libexecveat_xattr_fd(const struct xattr_call *c, int fd);

/* Whether answer, a *xattrat call's, is a refusal of the call (ENOSYS:
 * before 6.13; or a seccomp policy), an EPERM proven by asking with
 * flags that every kernel that has them rejects before any lookup. A
 * refusal proven here is remembered for the process (call_refused.h). */
bool libexecveat_xattrat_refused(long answer);

/* Whether a refusal of the *xattrat calls is remembered. */
bool libexecveat_xattrat_refusal_remembered(void);

/* What is known of the *xattrat calls where the O_PATH way is taken. */
enum xattrat_known {
	XATTRAT_UNASKED, /* nothing: they are asked on the fd first */
	XATTRAT_REFUSED, /* refused here: the ways without them */
	XATTRAT_REMEMBERED, /* refused once, maybe not here: only the ways
			     * that answer as the call and open nothing,
			     * EOPNOTSUPP where none, for the call to be
			     * asked then */
};

/*
 * The call on the file an O_PATH fd holds (xattr_reach.c), without a
 * name that could lead elsewhere and without opening the file: a
 * length, 0, or -errno; EOPNOTSUPP where no such way is left.
 */
long libexecveat_xattr_opath(const struct xattr_call *c, int fd,
			     enum xattrat_known known);

#endif /* EXECVEAT_INROOT_XATTR_CALL_H */
