/*
 * Links (the kernel's pick_link, get_link, nd_jump_link, nd_jump_root).
 * The kernel never follows a link for the walk: every open is O_NOFOLLOW
 * or O_DIRECTORY|O_NOFOLLOW, and a link it refuses is read here and its
 * text walked under the same rules, an absolute one from the root. Only a
 * procfs magic link, which has no text to walk, is followed by the
 * kernel, and only where the kernel's own walk would follow it; as the
 * last component, last.c opens its target.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "../syscalls/files.h"
#include "components.h"
#include "identity.h"
#include "levels.h"
#include "link.h"
#include "moment.h"

#define ST_NOSYMFOLLOW_FLAG 0x2000 /* statfs f_flags, Linux 5.10 */
/* procfs numbers its registered entries (self, thread-self, mounts, net,
 * the symlinks drivers make) from here up; per-process inodes, where every
 * magic link lives, take numbers from get_next_ino() below it. */
#define PROC_DYNAMIC_FIRST 0xF0000000U

/*
 * What the file system of a level says of the links in it, asked once per
 * level (a level's fd stays on its mount): procfs, or mounted
 * nosymfollow. Nothing is carried from one level to another: two levels
 * on one device can be two mounts, one of them nosymfollow.
 */
static int judge_fs(struct level *level)
{
	struct statfs sfs;
	/* Every level is an fd: start_walk holds even the cwd as one. */
	int err = sys_fstatfs(level->fd, &sfs);

	if (err < 0)
		return err;
	level->fs = (struct fs_verdict){
		.known = true,
		.proc = sfs.f_type == PROC_SUPER_MAGIC_VALUE,
		.nosymfollow = (sfs.f_flags & ST_NOSYMFOLLOW_FLAG) != 0,
	};
	return 0;
}

/*
 * fs.protected_symlinks (the kernel's may_follow_link), for a link that
 * is the last component: another user's link in a sticky world-writable
 * directory is followed only by its owner or the directory's, else
 * EACCES. The sysctl cannot be read without /proc, so the rule is applied
 * as systemd's distributions set it (1), always: where it is 0 the
 * fallback refuses what the kernel would follow. The kernel compares the
 * fsuid, which differs from the effective uid only after setfsuid(2).
 */
static int may_follow_trailing(struct walk *w, struct level *dir)
{
	struct dir_id link;
	int err = libexecveat_identify_level(w, dir);

	if (err < 0)
		return err;
	if ((dir->id.mode & (S_ISVTX | S_IWOTH)) != (S_ISVTX | S_IWOTH))
		return 0;
	err = libexecveat_identify_name(w, dir->fd, w->comp.name, &link);
	if (err < 0)
		return err;
	if (link.uid == (uint32_t)geteuid() || link.uid == dir->id.uid)
		return 0;
	return -EACCES;
}

/* The kernel's checks before it reads a link, in its order (pick_link). */
static int may_follow(struct walk *w, struct level *dir)
{
	int err;

	if (++w->links > MAX_LINKS)
		return -ELOOP;
	if (w->comp.last && (err = may_follow_trailing(w, dir)) < 0)
		return err;
	if (w->req.resolve & RESOLVE_NO_SYMLINKS)
		return -ELOOP;
	if (!dir->fs.known && (err = judge_fs(dir)) < 0)
		return err;
	return dir->fs.nosymfollow ? -ELOOP : 0;
}

/*
 * Whether the current name is a magic link, into *magic: 0, or -errno.
 * procfs's magic links (fd/N, exe, cwd, root, ns/..., map_files/...)
 * live in per-process directories, whose inodes procfs numbers below
 * PROC_DYNAMIC_FIRST; its plain links (self, thread-self, mounts, net)
 * are registered entries numbered above.
 */
static int judge_magic(struct walk *w, struct level *dir, bool *magic)
{
	struct dir_id link;
	int err;

	*magic = false;
	if (!dir->fs.proc)
		return 0;
	err = libexecveat_identify_name(w, dir->fd, w->comp.name, &link);
	*magic = err == 0 && link.ino < PROC_DYNAMIC_FIRST;
	return err;
}

/*
 * A magic link (nd_jump_link): refused under NO_MAGICLINKS (ELOOP) and in
 * a scoped lookup (EXDEV); otherwise the kernel follows it, and its
 * target becomes the bottom of a walk that knows nothing below it. As the
 * last component its target is opened (last.c): STEP_MAGIC_LAST.
 */
static int follow_magic_link(struct walk *w, struct level *dir)
{
	if (w->req.resolve & RESOLVE_NO_MAGICLINKS)
		return -ELOOP;
	if (w->req.resolve & SCOPED)
		return -EXDEV;
	if (w->comp.last && !w->must_be_dir)
		return STEP_MAGIC_LAST;
	/* The walk goes on in the target. */
	return libexecveat_move_bottom(w, dir, dir->fd, w->comp.name);
}

/*
 * The step's open said the name is not a directory, or is a link, and
 * readlinkat says it is no link now: it changed since, and is looked at
 * again (STEP_AGAIN: the kernel sees one or the other, and never answers
 * ENOTDIR for a name that is a link or a directory), unless it is what it
 * seemed, a file that is not a directory (-ENOTDIR).
 */
static int changed_or_not_a_directory(struct walk *w, struct level *dir,
				      enum step seen)
{
	struct dir_id now;

	if (seen == STEP_LINK ||
	    libexecveat_identify_name(w, dir->fd, w->comp.name, &now) < 0 ||
	    S_ISDIR(now.mode) || S_ISLNK(now.mode))
		return STEP_AGAIN;
	return -ENOTDIR;
}

/*
 * The current name is a link to follow (seen: STEP_LINK, the open said
 * so), or (STEP_LINK_OR_FILE, its step's open could not tell) not a
 * directory at all. readlinkat tells, and reads the text into the free
 * room before the name. Then the kernel's checks, in its order, and the
 * text walked in place of the name: STEP_ON, STEP_AGAIN, STEP_MAGIC_LAST
 * or -errno.
 */
int libexecveat_follow_link(struct walk *w, enum step seen)
{
	struct level *dir = current_level(w);
	struct unwalked *u = &w->unwalked;
	size_t room = (size_t)(w->comp.name - u->text);
	bool magic;
	long n;
	int unreadable, err;

	if (room == 0)
		return -ENAMETOOLONG;
	AT_MOMENT(BEFORE_READLINK, dir->fd, w->comp.name);
	n = sys_readlinkat(dir->fd, w->comp.name, u->text, room);
	if (n == -EINVAL)
		return changed_or_not_a_directory(w, dir, seen);
	/* procfs refuses to show a magic link that the caller may not
	 * follow either (ptrace access): the kernel says so after the checks
	 * below, when it asks the link for its target. */
	if (n < 0 && n != -EACCES)
		return (int)n;
	unreadable = n < 0 ? (int)n : 0;
	err = may_follow(w, dir);
	if (err == 0)
		err = unreadable;
	if (err == 0)
		err = judge_magic(w, dir, &magic);
	if (err < 0)
		return err;
	if (magic)
		return follow_magic_link(w, dir);
	if (n == 0)
		return -ENOENT;
	if ((size_t)n >= room)
		return -ENAMETOOLONG;
	err = libexecveat_splice_link_text(w, (size_t)n);
	if (err < 0)
		return err;
	return u->text[u->pos] == '/' ? libexecveat_jump_to_root(w, dir) :
					STEP_ON;
}
