/*
 * Links (the kernel's pick_link, get_link, nd_jump_link, nd_jump_root).
 * The kernel never follows a link for the walk: every open is O_NOFOLLOW
 * or O_DIRECTORY|O_NOFOLLOW, and a link it refuses is read here and its
 * text walked under the same rules, an absolute one from the root. Only a
 * procfs magic link, which has no text to walk, is followed by the
 * kernel, and only where the kernel's own walk would follow it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "../proc_fd_dir.h"
#include "../sys.h"
#include "walk.h"

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
	/* The bottom may be the cwd itself, which has no fd of its own. */
	int rc = level->fd == AT_FDCWD ? sys_statfs(".", &sfs) :
					 sys_fstatfs(level->fd, &sfs);

	if (rc < 0)
		return -errno;
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
	int err = identify_level(w, dir);

	if (err < 0)
		return err;
	if ((dir->id.mode & (S_ISVTX | S_IWOTH)) != (S_ISVTX | S_IWOTH))
		return 0;
	err = identify(w, dir->fd, w->comp.name, &link);
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
 * procfs's magic links (fd/N, exe, cwd, root, ns/..., map_files/...)
 * live in per-process directories, whose inodes procfs numbers below
 * PROC_DYNAMIC_FIRST; its plain links (self, thread-self, mounts, net)
 * are registered entries numbered above.
 */
static int is_magic_link(struct walk *w, struct level *dir)
{
	struct dir_id link;
	int err;

	if (!dir->fs.proc)
		return 0;
	err = identify(w, dir->fd, w->comp.name, &link);
	if (err < 0)
		return err;
	return link.ino < PROC_DYNAMIC_FIRST;
}

/*
 * The file of the O_PATH fd target, opened again with the caller's flags:
 * through this thread's fd directory, proven to be procfs and this
 * thread's own table (src/proc_fd_dir.c), and then proven to be target's
 * file once open; under OPENAT2_REGULAR by O_EMPTYPATH, which the kernel
 * then has, with no /proc.
 * Nothing is looked up by the magic link's name again: what another
 * thread or process does to the link meanwhile changes nothing.
 */
static int reopen(struct walk *w, struct level *target)
{
	enum proc_fd_dir_verdict verdict;
	char name[FD_NAME_SIZE];
	struct dir_id id;
	int dir, fd, err;

	if (w->req.regular_only) {
		int *const target_fd[] = { &target->fd };

		make_room(w, target_fd, 1);
		return reopen_regular(w, target->fd, w->req.flags | O_CLOEXEC,
				      w->req.mode);
	}
	dir = libexecveat_proc_fd_dir_open(&verdict);
	int *const step_fds[] = { &target->fd, &dir };

	if (dir < 0)
		return -EXDEV; /* nothing proves what the name would open */
	make_room(w, step_fds, 2);
	libexecveat_fd_name(name, target->fd);
	AT_MOMENT(BEFORE_MAGIC_REOPEN, dir, name);
	/* Close-on-exec until it is proven the answer. */
	fd = sys_openat(dir, name, w->req.flags | O_CLOEXEC, w->req.mode);
	err = fd < 0 ? -errno : identify(w, fd, "", &id);
	sys_close(dir);
	if (err == 0 && !same_file(&id, &target->id))
		err = -EAGAIN;
	if (err < 0 && fd >= 0)
		sys_close(fd);
	return err < 0 ? err : fd;
}

/* O_PATH|O_DIRECTORY met a target that is no directory. The kernel
 * refuses a crossing first, as it follows the link (EXDEV), and only then
 * the type (ENOTDIR): a second look decides which, and opens nothing. */
static int refusal_of_no_directory(struct walk *w, struct level *dir)
{
	struct level target = { 0 };
	int err;

	target.fd = open_walk_fd(w, dir->fd, w->comp.name, O_PATH | O_CLOEXEC,
				 0);
	if (target.fd < 0)
		return target.fd;
	err = refuse_crossing(w, dir, &target);
	sys_close(target.fd);
	return err < 0 ? err : -ENOTDIR;
}

/* A magic link as the last component, with RESOLVE_NO_XDEV: its target
 * judged, then opened through the fd that was judged. */
static enum step open_magic_target(struct walk *w, struct level *dir)
{
	bool path_only = w->req.flags & O_PATH;
	struct level target = { 0 };
	int err;

	if (path_only) /* the judged fd is the answer */
		make_room(w, NULL, 0);
	target.fd = open_walk_fd(w, dir->fd, w->comp.name,
				 path_only ? w->req.flags | O_CLOEXEC :
					     O_PATH | O_CLOEXEC,
				 0);
	if (target.fd == -ENOTDIR && path_only)
		target.fd = refusal_of_no_directory(w, dir);
	if (target.fd < 0)
		return failed(w, -target.fd);
	err = refuse_crossing(w, dir, &target);
	if (err == 0 && (w->req.resolve & RESOLVE_CACHED))
		err = -EAGAIN;
	if (err == 0 && path_only) {
		w->answer = target.fd;
		w->answer_cloexec_added = true;
		return STEP_OPENED;
	}
	int fd = err < 0 ? err : reopen(w, &target);

	sys_close(target.fd);
	if (fd < 0)
		return failed(w, -fd);
	w->answer = fd;
	w->answer_cloexec_added = true;
	return STEP_OPENED;
}

/*
 * A magic link (nd_jump_link): refused under NO_MAGICLINKS (ELOOP) and in
 * a scoped lookup (EXDEV); otherwise the kernel follows it, and its
 * target becomes the bottom of a walk that knows nothing below it. As the
 * last component, the kernel opens its target.
 */
static enum step follow_magic_link(struct walk *w, struct level *dir)
{
	if (w->req.resolve & RESOLVE_NO_MAGICLINKS)
		return failed(w, ELOOP);
	if (w->req.resolve & SCOPED)
		return failed(w, EXDEV);
	if (w->comp.last && !w->must_be_dir) {
		if (w->req.resolve & RESOLVE_NO_XDEV)
			return open_magic_target(w, dir);
		if (w->req.resolve & RESOLVE_CACHED)
			return failed(w, EAGAIN);
		/* Nothing to judge: the kernel's own walk, as it is. */
		AT_MOMENT(BEFORE_LAST_OPEN, dir->fd, w->comp.name);
		make_room(w, NULL, 0);
		w->answer = open_answer(w, dir->fd, w->comp.name,
					w->req.flags, w->req.mode);
		return w->answer >= 0 ? STEP_OPENED : failed(w, -w->answer);
	}
	/* The walk goes on in the target. */
	return move_bottom(w, dir, dir->fd, w->comp.name);
}

/*
 * The step's open said the name is not a directory, or is a link, and
 * readlinkat says it is no link now: it changed since, and is looked at
 * again (the kernel sees one or the other, and never answers ENOTDIR for
 * a name that is a link or a directory), unless it is what it seemed, a
 * file that is not a directory.
 */
static enum step not_a_link(struct walk *w, struct level *dir,
			    bool seen_as_link)
{
	struct dir_id now;

	if (seen_as_link || identify(w, dir->fd, w->comp.name, &now) < 0 ||
	    S_ISDIR(now.mode) || S_ISLNK(now.mode))
		return STEP_AGAIN;
	return failed(w, ENOTDIR);
}

/*
 * An absolute path or link: back to the root (nd_jump_root). BENEATH
 * refuses; IN_ROOT's root is the bottom (dirfd); otherwise the process
 * root, which becomes the bottom.
 */
enum step jump_to_root(struct walk *w)
{
	struct level *here = current_level(w);
	int err;

	if (w->req.resolve & RESOLVE_BENEATH)
		return failed(w, EXDEV);
	/* nd_jump_root compares with a root the lookup may not have set yet
	 * (an unscoped relative lookup sets it at its first ".."): then any
	 * jump under NO_XDEV is EXDEV. */
	if ((w->req.resolve & RESOLVE_NO_XDEV) && !w->root_set)
		return failed(w, EXDEV);
	w->root_set = true;
	if (w->req.resolve & RESOLVE_IN_ROOT) {
		err = refuse_crossing(w, here, &w->levels.bottom);
		if (err < 0)
			return failed(w, -err);
		let_go_to_bottom(w);
		return STEP_ON;
	}
	return move_bottom(w, here, AT_FDCWD, "/");
}

/*
 * The current name is a link to follow, or (its step's open could not
 * tell) not a directory at all; seen_as_link: the open said "a link".
 * readlinkat tells, and reads the text into the free room before the
 * name. Then the kernel's checks, in its order, and the text walked in
 * place of the name.
 */
enum step follow_link(struct walk *w, bool seen_as_link)
{
	struct level *dir = current_level(w);
	struct unwalked *u = &w->unwalked;
	size_t room = (size_t)(w->comp.name - u->text);
	long n;
	int refused = 0, err;

	if (room == 0)
		return failed(w, ENAMETOOLONG);
	AT_MOMENT(BEFORE_READLINK, dir->fd, w->comp.name);
	n = sys_readlinkat(dir->fd, w->comp.name, u->text, room);
	if (n < 0 && errno == EINVAL)
		return not_a_link(w, dir, seen_as_link);
	/* procfs refuses to show a magic link that the caller may not
	 * follow either (ptrace access): the kernel says so after the checks
	 * below, when it asks the link for its target. */
	if (n < 0 && errno != EACCES)
		return failed(w, errno);
	refused = n < 0 ? errno : 0;
	err = may_follow(w, dir);
	if (err < 0)
		return failed(w, -err);
	if (refused)
		return failed(w, refused);
	err = is_magic_link(w, dir);
	if (err != 0)
		return err < 0 ? failed(w, -err) : follow_magic_link(w, dir);
	if (n == 0)
		return failed(w, ENOENT);
	if ((size_t)n >= room)
		return failed(w, ENAMETOOLONG);
	err = splice_link_text(w, (size_t)n);
	if (err < 0)
		return failed(w, -err);
	return u->text[u->pos] == '/' ? jump_to_root(w) : STEP_ON;
}
