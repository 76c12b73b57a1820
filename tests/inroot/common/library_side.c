#include "library_side.h"

#include <errno.h>
#include <unistd.h>

#include "inroot.h"

/* inroot_reopen of what inroot_resolve found, which is closed. */
static int reopen_resolved(int root, const char *path, int flags)
{
	int fd = inroot_resolve(root, path), r, err;

	if (fd < 0)
		return -1;
	r = inroot_reopen(fd, flags);
	err = errno;
	close(fd);
	errno = err;
	return r;
}

long library_side_call(int root, const struct inroot_call *c)
{
	switch (c->op) {
	case OP_RESOLVE:
		return inroot_resolve(root, c->path);
	case OP_RESOLVE_NOFOLLOW:
		return inroot_resolve_nofollow(root, c->path);
	case OP_OPEN:
		return inroot_open(root, c->path, c->flags);
	case OP_CREAT:
		return inroot_creat(root, c->path, c->flags, c->mode);
	case OP_MKDIR:
		return inroot_mkdir(root, c->path, c->mode);
	case OP_MKDIR_ALL:
		return inroot_mkdir_all(root, c->path, c->mode);
	case OP_MKNOD:
		return inroot_mknod(root, c->path, c->mode, c->dev);
	case OP_SYMLINK:
		return inroot_symlink(root, c->path, c->other);
	case OP_HARDLINK:
		return inroot_hardlink(root, c->path, c->other);
	case OP_RENAME:
		return inroot_rename(root, c->path, c->other,
				     (unsigned int)c->flags);
	case OP_UNLINK:
		return inroot_unlink(root, c->path);
	case OP_RMDIR:
		return inroot_rmdir(root, c->path);
	case OP_REMOVE_ALL:
		return inroot_remove_all(root, c->path);
	case OP_READLINK:
		return inroot_readlink(root, c->path, c->buf, c->size);
	case OP_REOPEN:
		return reopen_resolved(root, c->path, c->flags);
	default: /* 2.1's: metadata_sides.h */
		break;
	}
	errno = EINVAL;
	return -1;
}
