/*
 * inroot_readlink: the text of the last name's symlink, which is never
 * followed. The kernel's readlinkat looks a path up whole: a last ".",
 * ".." or "/" is a directory, and so is whatever a trailing slash leads
 * to (it follows a last link); all of them are EINVAL, once the path
 * is found inside the root.
 */
#define _GNU_SOURCE /* O_PATH */
#include <string.h>
#include <unistd.h>

#include "../exports.h"
#include "held_parent.h"
#include "inroot.h"
#include "../null_check.h"
#include "../syscalls/files.h"

static ssize_t read_link_text(const struct held_parent *p, char *buf,
			      size_t size)
{
	char text[PATH_MAX];
	long len = sys_readlinkat(p->fd, p->name, text, sizeof text);

	if (len < 0)
		return len;
	if (size > 0 && pointer_is_null(buf))
		return -EFAULT;
	memcpy(buf, text, (size_t)len < size ? (size_t)len : size);
	return len;
}

/* A path whose last name is no symlink (".", "..", a trailing slash):
 * EINVAL once the path is found inside the root, else the lookup's
 * answer. */
static ssize_t found_but_no_link(int root, const char *path)
{
	int fd = libexecveat_inroot_open(root, path, O_PATH | O_CLOEXEC, 0);

	if (fd < 0)
		return fd;
	sys_close(fd);
	return -EINVAL;
}

EXECVEAT_EXPORT ssize_t inroot_readlink(int root, const char *path,
					char *buf, size_t size)
{
	struct held_parent p;
	ssize_t r = libexecveat_hold_parent(root, path, &p);

	if (r != 0)
		return answer((int)r);
	if (p.kind == LAST_IS_NAME && !p.trailing_slash)
		r = read_link_text(&p, buf, size);
	else if (p.kind == LAST_IS_ROOT)
		r = -EINVAL; /* the root held, a directory: no lookup in it */
	else
		r = found_but_no_link(root, path);
	libexecveat_release_parent(&p);
	return r < 0 ? answer((int)r) : r;
}
