/*
 * The file a path leads to, as a held directory and a name in it that is
 * no link (held_file.h).
 *
 * A last link is followed by reading its text in the held directory and
 * walking the directory part of the path with that text in place of the
 * name, inside the root, again and again: each walk is the in-root walk,
 * so a link's text can never lead out. The verdict on the whole path
 * (which errno, a magic link refused) is the in-root open's, asked once
 * where the path ends in a link; what the links led to must then be the
 * file that open found (st_dev, st_ino), or a rename came in between.
 */
#define _GNU_SOURCE /* O_PATH */
#include <string.h>

#include "held_file.h"
#include "../path/same_file.h"
#include "../resolve/moment.h"
#include "../syscalls/files.h"

#define MAX_LAST_LINKS 40 /* the kernel's MAXSYMLINKS */

/* A last ".", "..", root or trailing slash: the directory the whole path
 * opens to (never a link: they name directories), and "." in it. */
static int hold_directory_itself(int root, struct held_parent *p)
{
	int fd = libexecveat_inroot_open(root, p->text, O_PATH | O_CLOEXEC, 0);

	if (fd < 0)
		return fd;
	sys_close(p->fd);
	p->fd = fd;
	p->name = ".";
	p->kind = LAST_IS_DOT;
	p->trailing_slash = false;
	return 0;
}

/* The path with the held name replaced by the link's text (an absolute
 * text starts again at the root, which the in-root walk takes it as).
 * A text's trailing slashes (but a lone "/") are left off, and *dir
 * set: the file it leads to must be a directory, as the kernel's lookup
 * says, and is then held by its own name, not as "." in itself. */
static int spliced(const struct held_parent *p, const char *link,
		   size_t link_len, char out[PATH_MAX], bool *dir)
{
	size_t prefix = link[0] == '/' ? 0 : (size_t)(p->name - p->text);
	size_t len = libexecveat_slashes_trimmed(link, link_len);

	if (len < link_len)
		*dir = true;
	if (prefix + len >= PATH_MAX)
		return -ENAMETOOLONG;
	memcpy(out, p->text, prefix);
	memcpy(out + prefix, link, len);
	out[prefix + len] = '\0';
	return 0;
}

/* The held name's file, the one the whole path's open found (and a
 * directory where a link's slash asked for one)? */
static int check_same(const struct held_parent *p, int found, bool dir)
{
	struct stat here, there;
	int r;

	if (sys_fstatat(p->fd, p->name, &here, AT_SYMLINK_NOFOLLOW) != 0)
		return -EAGAIN;
	r = sys_fstat(found, &there);
	if (r < 0)
		return r;
	if (!libexecveat_same_file(&here, &there))
		return -EAGAIN;
	return dir && !S_ISDIR(here.st_mode) ? -ENOTDIR : 0;
}

static int follow_links(int root, struct held_parent *p)
{
	char link[PATH_MAX], next[PATH_MAX];
	int found = -1, r = 0;
	bool dir = false;

	for (int links = 0;; links++) {
		long len;

		if (p->kind != LAST_IS_NAME || p->trailing_slash)
			r = hold_directory_itself(root, p);
		if (r != 0)
			break;
		len = sys_readlinkat(p->fd, p->name, link, sizeof link);
		if (len < 0) /* no link: EINVAL; no name: the call answers */
			break;
		if (found < 0) {
			found = libexecveat_inroot_open(root, p->text,
							O_PATH | O_CLOEXEC, 0);
			if (found < 0) {
				r = found;
				break;
			}
		}
		r = links == MAX_LAST_LINKS ? -ELOOP :
		    len == (long)sizeof link ? -ENAMETOOLONG :
		    spliced(p, link, (size_t)len, next, &dir);
		if (r == 0) {
			libexecveat_release_parent(p);
			r = libexecveat_hold_parent(root, next, p);
			if (r != 0)
				p->fd = -1;
		}
		if (r != 0)
			break;
	}
	if (r == 0 && found >= 0)
		r = check_same(p, found, dir);
	if (found >= 0)
		sys_close(found);
	return r;
}

int libexecveat_hold_file(int root, const char *path, bool follow,
			  struct held_parent *p)
{
	int r = libexecveat_hold_parent(root, path, p);

	if (r != 0)
		return r;
	if (follow)
		r = follow_links(root, p);
	else if (p->kind != LAST_IS_NAME || p->trailing_slash)
		r = hold_directory_itself(root, p);
	if (r != 0 && p->fd >= 0)
		libexecveat_release_parent(p);
	if (r == 0)
		AT_MOMENT(BEFORE_ACT, p->fd, p->name);
	return r;
}

int libexecveat_hold_file_flags(int root, const char *path, int flags,
				struct held_parent *p)
{
	if (flags & ~AT_SYMLINK_NOFOLLOW)
		return -EINVAL;
	return libexecveat_hold_file(root, path, !(flags & AT_SYMLINK_NOFOLLOW),
				     p);
}
