/*
 * A walk one component at a time, each directory opened
 * O_PATH|O_NOFOLLOW|O_DIRECTORY from the last and the last closed as soon
 * as the next is open; a name that is no directory is read as a symlink
 * (readlinkat) and its text walked in its place, an absolute one from the
 * root; ".." is the kernel's (openat(fd, "..")), refused or held at the
 * root by counting levels; the last name opened with the caller's flags
 * and O_NOFOLLOW, a link there read and walked likewise.
 */
#define _GNU_SOURCE
#include "naive_walk.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#define MAX_LINKS 40 /* the kernel's */
#define STEP_FLAGS (O_PATH | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC)

struct naive {
	int root; /* dirfd: never closed */
	int cur;
	int depth; /* levels below root, for ".." */
	int links;
	unsigned int resolve;
	size_t pos; /* the unwalked path: text[pos .. end] */
	char text[2 * PATH_MAX];
};

/* Moves to next (an fd of ours, or root), closing where it was. */
static void move_to(struct naive *n, int next)
{
	if (n->cur != n->root)
		close(n->cur);
	n->cur = next;
}

static int fail(struct naive *n, int err)
{
	move_to(n, n->root);
	errno = err;
	return -1;
}

/* To the root: dirfd under IN_ROOT, "/" unscoped, EXDEV beneath. */
static int jump_to_root(struct naive *n)
{
	int fd;

	if (n->resolve & RESOLVE_BENEATH)
		return -EXDEV;
	if (n->resolve & RESOLVE_IN_ROOT) {
		move_to(n, n->root);
	} else {
		fd = openat(AT_FDCWD, "/", STEP_FLAGS);
		if (fd < 0)
			return -errno;
		move_to(n, fd);
	}
	n->depth = 0;
	return 0;
}

/* The text of the link name in the current directory, put in front of
 * the unwalked path. */
static int read_link(struct naive *n, const char *name)
{
	char target[PATH_MAX];
	ssize_t len = readlinkat(n->cur, name, target, sizeof target);
	bool rest = n->text[n->pos] != '\0';
	size_t need;

	if (len < 0)
		return errno == EINVAL ? -ENOTDIR : -errno;
	if (++n->links > MAX_LINKS)
		return -ELOOP;
	if (len == 0)
		return -ENOENT;
	need = (size_t)len + rest;
	if (need > n->pos)
		return -ENAMETOOLONG;
	n->pos -= need;
	memcpy(n->text + n->pos, target, (size_t)len);
	if (rest)
		n->text[n->pos + (size_t)len] = '/';
	if (n->text[n->pos] == '/')
		return jump_to_root(n);
	return 0;
}

static int step_dotdot(struct naive *n)
{
	int fd;

	if (n->depth == 0 && (n->resolve & RESOLVE_BENEATH))
		return -EXDEV;
	if (n->depth == 0 && (n->resolve & RESOLVE_IN_ROOT))
		return 0;
	fd = openat(n->cur, "..", STEP_FLAGS);
	if (fd < 0)
		return -errno;
	move_to(n, fd);
	if (n->depth > 0)
		n->depth--;
	return 0;
}

static int step_name(struct naive *n, const char *name)
{
	int fd = openat(n->cur, name, STEP_FLAGS);

	if (fd < 0)
		return errno == ENOTDIR ? read_link(n, name) : -errno;
	move_to(n, fd);
	n->depth++;
	return 0;
}

int naive_walk_open(int dirfd, const char *path, const struct open_how *how)
{
	struct naive n = { .root = dirfd, .cur = dirfd,
			   .resolve = (unsigned int)how->resolve };
	int flags = (int)how->flags;
	size_t len = strlen(path);

	if ((how->resolve & ~(uint64_t)(RESOLVE_BENEATH | RESOLVE_IN_ROOT)) ||
	    (flags & (O_PATH | O_CREAT | O_TMPFILE)) || len == 0 ||
	    len >= sizeof n.text)
		return fail(&n, len == 0 ? ENOENT : EINVAL);
	n.pos = sizeof n.text - 1 - len;
	memcpy(n.text + n.pos, path, len + 1);
	if (path[0] == '/') {
		int err = jump_to_root(&n);

		if (err < 0)
			return fail(&n, -err);
	}
	for (;;) {
		char name[NAME_MAX + 1];
		size_t name_len;
		bool last, trailing_slash;
		int err;

		while (n.text[n.pos] == '/')
			n.pos++;
		if (n.text[n.pos] == '\0') {
			/* "/", or a path ending in "/", "." or "..". */
			int fd = openat(n.cur, ".", flags, 0);

			err = errno;
			move_to(&n, n.root);
			errno = err;
			return fd;
		}
		name_len = strcspn(n.text + n.pos, "/");
		if (name_len > NAME_MAX)
			return fail(&n, ENAMETOOLONG);
		memcpy(name, n.text + n.pos, name_len);
		name[name_len] = '\0';
		n.pos += name_len;
		trailing_slash = n.text[n.pos] == '/';
		while (n.text[n.pos] == '/')
			n.pos++;
		last = n.text[n.pos] == '\0';
		if (strcmp(name, ".") == 0)
			continue;
		if (strcmp(name, "..") == 0) {
			err = step_dotdot(&n);
		} else if (last && !trailing_slash) {
			int fd = openat(n.cur, name, flags | O_NOFOLLOW, 0);

			if (fd >= 0 || errno != ELOOP || (flags & O_NOFOLLOW)) {
				err = errno;
				move_to(&n, n.root);
				errno = err;
				return fd;
			}
			err = read_link(&n, name);
		} else {
			/* A trailing slash stays with the rest: a link's text
			 * must name a directory too. */
			if (last)
				n.pos--;
			err = step_name(&n, name);
		}
		if (err < 0)
			return fail(&n, -err);
	}
}
