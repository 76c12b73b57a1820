/*
 * inroot_mkdir, inroot_mknod, inroot_symlink: a new name in the
 * directory held, made by mkdirat, mknodat or symlinkat there. A last
 * "." or ".." is answered EEXIST by those calls without a lookup, as for
 * the kernel's own path, and "/" here, since the kernel's lookup of "/"
 * needs no search permission on the root that one of "." does (the
 * name the *at calls get for it); a trailing slash is handed on with the
 * name, so that only mkdirat accepts it (the others: ENOENT, or EEXIST
 * where the name exists). The new name is never followed if it is a
 * symlink: these calls do not.
 */
#define _GNU_SOURCE /* O_PATH */
#include <sys/stat.h>
#include <unistd.h>

#include "../exports.h"
#include "held_parent.h"
#include "inroot.h"
#include "../syscalls/files.h"

/* What a call that makes a name answers for the last name "/". */
#define ROOT_EXISTS (-EEXIST)

int libexecveat_inroot_mkdir(int root, const char *path, mode_t mode)
{
	struct held_parent p;
	int r = libexecveat_hold_parent(root, path, &p);

	if (r == 0) {
		r = p.kind == LAST_IS_ROOT ? ROOT_EXISTS :
					     call_result(mkdirat(p.fd, p.name,
								 mode));
		libexecveat_release_parent(&p);
	}
	return r;
}

EXECVEAT_EXPORT int inroot_mkdir(int root, const char *path, mode_t mode)
{
	return answer(libexecveat_inroot_mkdir(root, path, mode));
}

/*
 * The system call itself: glibc's mknodat is a symbol of 2.33, and the
 * library loads into glibc 2.17. The kernel takes the device number in
 * 32 bits; one that does not fit is EINVAL, as glibc says.
 */
static int make_node(int dir, const char *name, mode_t mode, dev_t dev)
{
	unsigned int kernel_dev = (unsigned int)dev;

	if ((dev_t)kernel_dev != dev)
		return -EINVAL;
	return sys_mknodat(dir, name, (unsigned int)mode, kernel_dev);
}

/*
 * What mknodat answers before it reads the path: glibc's check of the
 * device number (see make_node), then the kernel's may_mknod() of the
 * file type: a directory is EPERM, a type that is none EINVAL.
 */
static int check_node(mode_t mode, dev_t dev)
{
	if ((dev_t)(unsigned int)dev != dev)
		return -EINVAL;
	switch (mode & S_IFMT) {
	case 0:
	case S_IFREG:
	case S_IFCHR:
	case S_IFBLK:
	case S_IFIFO:
	case S_IFSOCK:
		return 0;
	case S_IFDIR:
		return -EPERM;
	default:
		return -EINVAL;
	}
}

int libexecveat_inroot_mknod(int root, const char *path, mode_t mode,
			     dev_t dev, struct held_parent *p)
{
	int r = check_node(mode, dev);

	if (r != 0)
		return r;
	r = libexecveat_hold_parent(root, path, p);
	if (r != 0)
		return r;
	r = p->kind == LAST_IS_ROOT ? ROOT_EXISTS :
				      make_node(p->fd, p->name, mode, dev);
	if (r != 0)
		libexecveat_release_parent(p);
	return r;
}

EXECVEAT_EXPORT int inroot_mknod(int root, const char *path, mode_t mode,
				 dev_t dev)
{
	struct held_parent p;
	int r = libexecveat_inroot_mknod(root, path, mode, dev, &p);

	if (r == 0)
		libexecveat_release_parent(&p);
	return answer(r);
}

EXECVEAT_EXPORT int inroot_symlink(int root, const char *path,
				   const char *target)
{
	struct held_parent p;
	int r;

	/* The kernel copies the target in (getname: EFAULT, ENOENT,
	 * ENAMETOOLONG) before it walks the new name. */
	r = libexecveat_check_path(target);
	if (r != 0)
		return answer(r);
	r = libexecveat_hold_parent(root, path, &p);
	if (r == 0) {
		r = p.kind == LAST_IS_ROOT ?
			    ROOT_EXISTS :
			    call_result(symlinkat(target, p.fd, p.name));
		libexecveat_release_parent(&p);
	}
	return answer(r);
}
