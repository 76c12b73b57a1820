/*
 * The directory that holds a path's last name, and the open of a path,
 * both inside a root.
 *
 * Why the parent and not the file: a name handed to an *at call on a
 * directory fd is looked up by the kernel in that directory alone, so a
 * rename elsewhere cannot take it outside the root. The part of the path
 * before the last name goes through openat2 with RESOLVE_IN_ROOT, which
 * gives the same guarantee for every component it walks, whether the
 * kernel answers it or the library's own walk does (src/openat2/openat2.c
 * decides which, as for any caller of openat2).
 */
#define _GNU_SOURCE /* O_PATH */
#include <string.h>

#include "../openat2/empty_path.h"
#include "held_parent.h"
#include "../openat2/open_how_check.h"
#include "../openat2/openat2.h"
#include "../syscalls/fds.h"
#include "../syscalls/files.h"

/* Linux 7.2's O_EMPTYPATH, which its open(2) keeps, where the kernel
 * has it; asked only of flags with a bit that 6.18 does not know. */
static uint64_t newer_open_flags(void)
{
	return libexecveat_kernel_opens_empty_path() ? O_EMPTYPATH : 0;
}

struct open_how libexecveat_inroot_how(int flags, unsigned int mode)
{
	struct open_how how;

	libexecveat_open_how_of_openat(&how, flags | INROOT_ADDED_FLAGS, mode,
				       newer_open_flags);
	return how;
}

int libexecveat_inroot_open(int root, const char *path, int flags,
			    unsigned int mode)
{
	struct open_how how = libexecveat_inroot_how(flags, mode);
	int fd;

	how.resolve = INROOT_RESOLVE;
	fd = libexecveat_openat2_policy(root, path, &how, sizeof how);

	/* The kernel says EAGAIN to a ".." under RESOLVE_IN_ROOT whenever
	 * anything on the machine was renamed or mounted meanwhile; the
	 * walk's identity checks see only renames that moved this path's
	 * own directories, and answer EAGAIN for those alone. */
	if (fd == -EAGAIN)
		fd = libexecveat_open_without_openat2(root, path, &how,
						      sizeof how);
	return fd;
}

/*
 * Splits p->text as the kernel's lookup of a parent does: trailing
 * slashes belong to the last name, and a path of slashes only has no
 * name (the root). Returns where the last name starts; the directory
 * part is the text before it.
 */
static size_t split_last(struct held_parent *p)
{
	size_t start, end;

	p->kind = libexecveat_last_name(p->text, &start, &end);
	p->trailing_slash = p->text[end] == '/';
	p->name = p->kind == LAST_IS_ROOT ? "." : p->text + start;
	return start;
}

/*
 * The root itself, for a path of slashes only: the kernel looks nothing
 * up in it then, so nothing is looked up here either (an open of "/"
 * by the library's walk opens the root's "." at the end, which needs
 * search permission on it). root's own fd, duplicated, held only for
 * the *at calls: ENOTDIR where it is no directory, as openat2 says.
 */
static int hold_root(int root)
{
	struct stat st;
	int err;

	if (root == AT_FDCWD)
		return libexecveat_inroot_open(root, "/", O_PATH | O_DIRECTORY |
					       O_CLOEXEC, 0);
	err = sys_fstat(root, &st);
	if (err < 0)
		return err;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	return sys_fcntl_dupfd_cloexec(root, 0);
}

/* The directory part, opened: "." where the path is one name, the root
 * itself where it is slashes only. */
static int open_directory_part(int root, struct held_parent *p,
			       size_t start)
{
	char saved;
	int fd;

	if (p->kind == LAST_IS_ROOT)
		return hold_root(root);
	if (start == 0)
		return libexecveat_inroot_open(root, ".", O_PATH | O_DIRECTORY |
					       O_CLOEXEC, 0);
	saved = p->text[start];
	p->text[start] = '\0';
	fd = libexecveat_inroot_open(root, p->text,
				     O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
	p->text[start] = saved;
	return fd;
}

int libexecveat_hold_parent(int root, const char *path,
			    struct held_parent *p)
{
	int err = libexecveat_check_path(path);

	if (err != 0)
		return err;
	strcpy(p->text, path);
	p->fd = open_directory_part(root, p, split_last(p));
	return p->fd < 0 ? p->fd : 0;
}

void libexecveat_release_parent(struct held_parent *p)
{
	sys_close(p->fd);
}

int libexecveat_parent_searchable(const struct held_parent *p)
{
	struct stat st;

	/* The lookup of "." in a directory is the kernel's may_lookup of
	 * it, and nothing more. */
	if (p->kind == LAST_IS_ROOT)
		return 0;
	return sys_fstatat(p->fd, ".", &st, AT_SYMLINK_NOFOLLOW);
}
