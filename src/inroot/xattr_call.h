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

/* Whether the *xattrat calls are refused here (ENOSYS: before 6.13; or
 * a seccomp policy), asked with flags that every kernel that has them
 * rejects before any lookup. */
bool libexecveat_xattrat_refused(long answer);

/*
 * The call on the file an O_PATH fd holds (xattr_reach.c), without a
 * name that could lead elsewhere and without opening the file: a
 * length, 0, or -errno; EOPNOTSUPP where no such way is left.
 */
long libexecveat_xattr_opath(const struct xattr_call *c, int fd);

#endif /* EXECVEAT_INROOT_XATTR_CALL_H */
