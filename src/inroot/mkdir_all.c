/*
 * inroot_mkdir_all: every missing directory of a path, as `mkdir -p`
 * makes them inside a chroot to the root.
 *
 * The path is taken one component at a time from a directory held open
 * beneath the root, starting at the root. A plain name is looked up (and
 * made, where missing) in that directory alone, opened O_NOFOLLOW: it is
 * a directory of the one held, so beneath the root as well. Anything
 * else, "..", a symlink, a name another process changed meanwhile, is
 * looked up again as the whole prefix so far, inside the root (openat2,
 * RESOLVE_IN_ROOT), which keeps ".." and links inside it. So each
 * directory made is made in one that was beneath the root when it was
 * reached; a rename can make the call fail, never make it touch a
 * directory that was not the tree's.
 *
 * A path that exists costs one open; the first missing component a
 * lookup, mkdirat and the open of what it made, each later one (in a
 * directory just made, so empty) mkdirat and the open, and a close of
 * the directory before, on either walk.
 */
#define _GNU_SOURCE /* O_PATH */
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../exports.h"
#include "held_parent.h"
#include "inroot.h"
#include "../syscalls/files.h"

#define DIRECTORY_FLAGS (O_PATH | O_DIRECTORY | O_CLOEXEC)

/*
 * prefix opened as a directory inside the root, made first where it is
 * missing. Made by another process meanwhile (EEXIST) is found. EEXIST
 * where the name is there but leads nowhere (a dangling link: mkdirat's
 * answer for it).
 */
static int open_or_make(int root, const char *prefix, mode_t mode)
{
	int fd = libexecveat_inroot_open(root, prefix, DIRECTORY_FLAGS, 0);
	int made;

	if (fd != -ENOENT)
		return fd;
	made = libexecveat_inroot_mkdir(root, prefix, mode);
	if (made != 0 && made != -EEXIST)
		return made;
	fd = libexecveat_inroot_open(root, prefix, DIRECTORY_FLAGS, 0);
	return fd == -ENOENT && made == -EEXIST ? -EEXIST : fd;
}

/* name, a directory of dir, opened without following it: -ENOTDIR for a
 * symlink as for any other file. */
static int open_child(int dir, const char *name)
{
	return sys_openat(dir, name, DIRECTORY_FLAGS | O_NOFOLLOW, 0);
}

/*
 * The plain name in dir, a directory held beneath the root: opened, or
 * made and opened. -EAGAIN where it is not a directory of dir's own (a
 * symlink, a file, or gone again): the whole prefix decides then. *made
 * says whether this call made dir, and then whether it made the name:
 * a directory just made is empty, so its name is made before it is
 * looked up (EEXIST where another process was first).
 */
static int step_down(int dir, const char *name, mode_t mode, bool *made)
{
	int fd = *made ? -ENOENT : open_child(dir, name);

	*made = false;
	if (fd == -ENOENT) {
		int r = call_result(mkdirat(dir, name, mode));

		if (r != 0 && r != -EEXIST)
			return r;
		*made = r == 0;
		fd = open_child(dir, name);
	}
	return fd == -ENOTDIR || fd == -ENOENT ? -EAGAIN : fd;
}

/* The component text[start .. end) taken from dir: the next directory's
 * fd (dir itself for "."), or -errno. */
static int take_component(int root, int dir, char *text, size_t start,
			  size_t end, mode_t mode, bool *made)
{
	enum last_kind kind = libexecveat_name_kind(text + start, end - start);
	char saved = text[end];
	int fd = -EAGAIN;

	if (kind == LAST_IS_DOT)
		return dir;
	text[end] = '\0';
	if (kind == LAST_IS_NAME)
		fd = step_down(dir, text + start, mode, made);
	if (fd == -EAGAIN) {
		*made = false;
		fd = open_or_make(root, text, mode);
	}
	text[end] = saved;
	return fd;
}

static int make_all(int root, char *text, mode_t mode)
{
	int fd = libexecveat_inroot_open(root, text, DIRECTORY_FLAGS, 0);
	int dir;
	size_t start = 0, end;
	bool made = false; /* dir was made by this call */

	if (fd != -ENOENT)
		return fd;
	/* The root itself for a relative path; "/" under RESOLVE_IN_ROOT
	 * is the root too. */
	dir = libexecveat_inroot_open(root, ".", DIRECTORY_FLAGS, 0);
	while (dir >= 0 && libexecveat_next_name(text, &start, &end)) {
		fd = take_component(root, dir, text, start, end, mode,
				    &made);
		if (fd != dir)
			sys_close(dir);
		dir = fd;
		start = end;
	}
	return dir;
}

EXECVEAT_EXPORT int inroot_mkdir_all(int root, const char *path, mode_t mode)
{
	char text[PATH_MAX];
	int r = libexecveat_check_path(path);

	if (r != 0)
		return answer(r);
	strcpy(text, path);
	return answer(make_all(root, text, mode));
}
