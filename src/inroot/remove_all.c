/*
 * inroot_remove_all: a name, and everything beneath it if it is a
 * directory, as `rm -rf` removes it inside a chroot to the root.
 *
 * The name is removed from the directory that holds it (walked inside
 * the root); a directory's entries are removed from the directory itself,
 * opened from its parent with O_NOFOLLOW, never by a path (emptying.c).
 * Whatever is renamed meanwhile, each removal names one entry of a
 * directory held open beneath the root: a symlink is removed and never
 * followed, and a directory moved away is simply no longer found.
 *
 * Mounts: a directory on another mount than its parent (a mount point,
 * or a bind mount of a host directory into the root) is neither entered
 * nor removed: EBUSY, the kernel's answer for removing a mount point;
 * the rest of the tree is removed all the same, as rm -rf removes it.
 *
 * Entries made while a directory is emptied: the directory is emptied
 * again when its rmdir finds it not empty, EMPTYING_PASSES times in all;
 * ENOTEMPTY after that. So for the top, here, and for every directory
 * beneath it (emptying.c).
 */
#define _GNU_SOURCE /* O_PATH */
#include <string.h>
#include <unistd.h>

#include "emptying.h"
#include "../exports.h"
#include "held_parent.h"
#include "inroot.h"
#include "../syscalls/files.h"

/* name, a directory of dir on the same mount, emptied and removed. */
static int remove_directory(int dir, const char *name)
{
	int sub = sys_openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			     O_CLOEXEC, 0);
	int r;

	if (sub < 0) {
		/* One that may not be read (mode 0300, 0) is removed where it
		 * is empty, as rm -rf removes it: rmdir needs no read. */
		if (sub == -EACCES && unlinkat(dir, name, AT_REMOVEDIR) == 0)
			return 0;
		return sub;
	}
	r = libexecveat_not_a_mount_point(dir, sub);
	/* Emptied again where its rmdir finds entries made meanwhile (1
	 * until it is removed); an entry beneath that could not be removed
	 * ends it. */
	if (r == 0)
		r = 1;
	for (int pass = 0; r == 1 && pass < EMPTYING_PASSES; pass++) {
		r = libexecveat_empty_tree(sub);
		if (r == 0) {
			r = call_result(unlinkat(dir, name, AT_REMOVEDIR));
			if (r == -ENOTEMPTY || r == -EEXIST)
				r = 1;
		}
	}
	sys_close(sub);
	return r == 1 ? -ENOTEMPTY : r;
}

/*
 * name in dir removed: unlinked, or, where it is a directory, emptied
 * and removed. A name that changes from a directory to another file
 * between the two (ENOTDIR, ELOOP) is unlinked as what it is now.
 */
static int remove_entry(int dir, const char *name)
{
	int r = call_result(unlinkat(dir, name, 0));

	if (r != -EISDIR)
		return r;
	r = remove_directory(dir, name);
	if (r == -ENOTDIR || r == -ELOOP)
		r = libexecveat_unlink_changed(dir, name);
	return r;
}

/*
 * A last name with trailing slashes ("x/"), which must be a directory.
 * The directory is opened by the bare name: with the slashes, the
 * kernel's open follows a last symlink in spite of O_NOFOLLOW
 * (fs/namei.c, open_last_lookups), and a plain openat follows it from
 * the process's root, not the root, so a directory swapped for a link
 * after unlinkat's EISDIR would be emptied wherever the link leads. A
 * link or another file met there is the kernel's rmdir("x/") answer,
 * ENOTDIR, and is left as it is.
 */
static int remove_slashed_entry(int dir, struct held_parent *p)
{
	char *slashes = strchr(p->text + (p->name - p->text), '/');
	int r = call_result(unlinkat(dir, p->name, 0));

	if (r != -EISDIR)
		return r;
	*slashes = '\0';
	r = remove_directory(dir, p->name);
	return r == -ELOOP ? -ENOTDIR : r;
}

/* A last ".", ".." or "/" names no entry to remove: rmdir's answers,
 * EINVAL and ENOTEMPTY once the directory that holds the "." or ".." is
 * found searchable (unlinkat looks them up, and no further), and for
 * the root, EBUSY without a lookup. */
static int not_a_name(const struct held_parent *p)
{
	if (p->kind == LAST_IS_ROOT)
		return -EBUSY;
	return call_result(unlinkat(p->fd, p->name, AT_REMOVEDIR));
}

EXECVEAT_EXPORT int inroot_remove_all(int root, const char *path)
{
	struct held_parent p;
	int r = libexecveat_check_path(path);

	/* "" names nothing, which is not a path that is missing. */
	if (r != 0)
		return answer(r);
	r = libexecveat_hold_parent(root, path, &p);
	if (r != 0)
		return answer(r == -ENOENT ? 0 : r);
	if (p.kind != LAST_IS_NAME)
		r = not_a_name(&p);
	else if (p.trailing_slash)
		r = remove_slashed_entry(p.fd, &p);
	else
		r = remove_entry(p.fd, p.name);
	libexecveat_release_parent(&p);
	return answer(r == -ENOENT ? 0 : r);
}
