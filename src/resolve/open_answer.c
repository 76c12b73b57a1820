/*
 * The answer's open, and OPENAT2_REGULAR (Linux 7.2): a regular file or
 * EFTYPE, with no FIFO, device or directory opened on the way to that
 * answer. Under the flag the last name is opened O_PATH (which opens
 * nothing), looked at, and then the file of that O_PATH fd is opened with
 * the caller's flags by O_EMPTYPATH, which every kernel that takes the
 * flag has (openat2.c): no name is looked up twice, and no rename between
 * the look and the open changes what is opened.
 *
 * The kernel's order, measured on 7.2.13: O_CREAT of a directory EISDIR;
 * O_CREAT in a sticky directory, refused by fs.protected_regular or
 * protected_fifos, EACCES; anything but a regular file EFTYPE (a link the
 * caller does not follow too, a FIFO the caller may not open, a FIFO
 * named with a trailing slash); a regular file named with a trailing
 * slash ENOTDIR; then the permission checks of the open itself.
 *
 * What the caller sees of that: fcntl(F_GETFL) shows O_EMPTYPATH, which
 * the kernel's openat2 by name does not.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "../syscalls/files.h"
#include "identity.h"
#include "levels.h"
#include "open_answer.h"

/*
 * O_CREAT of a file that exists, in a sticky directory (the kernel's
 * may_create_in_sticky): another user's file, unless the directory is
 * theirs, is refused (EACCES) where the directory is world-writable, and
 * a regular file or a FIFO also where it is group-writable and
 * fs.protected_regular or protected_fifos is 2. Those settings cannot be
 * read without /proc; the rule is kept as the strictest setting (2) has
 * it, which refuses wherever any setting could: where the setting is 1,
 * a group-writable directory refuses here what the kernel opens, and
 * where it is 0, any sticky one refuses another's regular file or FIFO.
 */
static int sticky_refusal(struct walk *w, int dirfd,
			  const struct dir_id *file)
{
	struct dir_id dir;
	int err = libexecveat_identify_fd(w, dirfd, &dir);

	if (err < 0)
		return err;
	if (!(dir.mode & S_ISVTX) || file->uid == dir.uid ||
	    file->uid == (uint32_t)geteuid())
		return 0;
	if (dir.mode & S_IWOTH)
		return -EACCES;
	if ((dir.mode & S_IWGRP) &&
	    (S_ISREG(file->mode) || S_ISFIFO(file->mode)))
		return -EACCES;
	return 0;
}

/*
 * Why the file looked at may not be the answer, or 0. flags are the
 * step's: O_DIRECTORY where a trailing slash asks for a directory (a link
 * is then followed, whatever the caller's O_NOFOLLOW). -ELOOP for a link
 * to follow, as the O_NOFOLLOW open of the other steps says it.
 */
static int refusal(struct walk *w, int dirfd, int flags,
		   const struct dir_id *file)
{
	bool follow = !(w->req.flags & O_NOFOLLOW) || w->must_be_dir;

	if (S_ISLNK(file->mode) && follow)
		return -ELOOP;
	if (S_ISDIR(file->mode))
		return flags & O_CREAT ? -EISDIR : -EFTYPE;
	if (flags & O_CREAT) {
		int err = sticky_refusal(w, dirfd, file);

		if (err < 0)
			return err;
	}
	if (!S_ISREG(file->mode))
		return -EFTYPE;
	return flags & O_DIRECTORY ? -ENOTDIR : 0;
}

/* The file of fd, proven, opened as the answer: by O_EMPTYPATH. */
static int open_own_file(struct walk *w, int fd, int flags,
			 unsigned int mode)
{
	return libexecveat_open_walk_fd(w, fd, "", flags | O_EMPTYPATH, mode);
}

/* The file of fd (one the walk proved, or the caller's own with the empty
 * name), under OPENAT2_REGULAR: an fd or -errno. */
int libexecveat_reopen_regular(struct walk *w, int fd, int flags,
			       unsigned int mode)
{
	struct dir_id file;
	int err = libexecveat_identify_fd(w, fd, &file);

	if (err < 0)
		return err;
	if (S_ISDIR(file.mode) && (flags & O_CREAT))
		return -EISDIR;
	if (!S_ISREG(file.mode))
		return -EFTYPE;
	return open_own_file(w, fd, flags, mode);
}

/* The name looked at, O_PATH, then its file opened: an fd or -errno. */
static int open_regular(struct walk *w, int dirfd, const char *name,
			int flags, unsigned int mode)
{
	struct dir_id file;
	int look, fd, err;

	/* Opens only what it creates, a regular file. */
	if ((flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		return libexecveat_open_walk_fd(w, dirfd, name, flags, mode);
	look = libexecveat_open_walk_fd(
		w, dirfd, name, O_PATH | O_CLOEXEC | (flags & O_NOFOLLOW), 0);
	if (look == -ENOENT && (flags & O_CREAT)) {
		fd = libexecveat_open_walk_fd(w, dirfd, name, flags | O_EXCL,
					      mode);
		/* Made by someone else since the look: which file the kernel
		 * would have opened depends on when it looked. */
		return fd == -EEXIST ? -EAGAIN : fd;
	}
	if (look < 0)
		return look;
	err = libexecveat_identify_fd(w, look, &file);
	if (err == 0)
		err = refusal(w, dirfd, flags, &file);
	if (err == 0) {
		int *const look_fd[] = { &look };

		libexecveat_make_room(w, look_fd, 1);
		err = open_own_file(w, look, flags, mode);
	}
	sys_close(look);
	return err;
}

/* The answer's open, with the caller's flags (and those a step adds);
 * under OPENAT2_REGULAR, a regular file proven first. An fd, or -errno. */
int libexecveat_open_answer(struct walk *w, int dirfd, const char *name,
			    int flags, unsigned int mode)
{
	if (w->req.regular_only)
		return open_regular(w, dirfd, name, flags, mode);
	return libexecveat_open_walk_fd(w, dirfd, name, flags, mode);
}
