/*
 * openat2's path resolution in userspace, for where the system call is
 * refused: one component at a time, as the kernel's fs/namei.c walks.
 *
 * Threat model. The caller trusts its dirfd and its process root; anyone
 * else may, at any moment, rename, exchange (RENAME_EXCHANGE), create or
 * remove any entry inside the tree being walked and any directory outside
 * it they can write, and plant or retarget symlinks. Mounts are changed by
 * no one during a call. Under RESOLVE_BENEATH and RESOLVE_IN_ROOT the walk
 * then guarantees: every file it returns or creates is reached from dirfd
 * through entries each of which was in the directory the walk held at the
 * moment it looked; no symlink is followed by the kernel (each is met
 * O_NOFOLLOW and its text walked here, under the same rules); and ".." is
 * never a move the kernel chooses: it returns to a directory the walk came
 * through, which the walk still holds open, or which the kernel's ".."
 * must prove to be (same device, mount, inode and birth time), else
 * EAGAIN. A walk that hands ".." to the kernel escapes: a directory moved
 * out of the tree has a new parent. One thing the kernel refuses and the
 * walk does not: a directory the walk holds may be moved out of the tree
 * while the walk is inside it; the walk then goes on below it, among what
 * was below it in the tree (what the mover could have put in the tree
 * anyway), never up into its new surroundings. The kernel answers such a
 * lookup EAGAIN (a rename anywhere raced a "..") or EXDEV (the result is
 * no longer under the root).
 *
 * No allocation, no /proc, no locks, no stdio: system calls on buffers of
 * this stack frame (about 41 KiB) only, so as async-signal-safe as openat.
 */
#define _GNU_SOURCE
#include "resolve.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "sys.h"

#ifndef O_PATH
#define O_PATH 010000000
#endif
#ifndef O_TMPFILE
#define O_TMPFILE (020000000 | O_DIRECTORY)
#endif
#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif
#ifndef AT_SYMLINK_NOFOLLOW
#define AT_SYMLINK_NOFOLLOW 0x100
#endif

#define MAX_LINKS 40 /* the kernel's MAXSYMLINKS, over the whole lookup */
#define HELD 8 /* directory fds kept open, besides the bottom one */
/* Levels deeper than the bottom. A path of PATH_MAX holds up to 2,048
 * components; links can add more, up to this depth (deeper still:
 * ENAMETOOLONG, where the kernel has no limit). */
#define MAX_DEPTH 4096
#define TEXT_SIZE (2 * PATH_MAX) /* the unwalked path, links spliced in */
#define RETRIES 8 /* a name changing under the last step, again and again */
#define PROC_SUPER_MAGIC_VALUE 0x9fa0
#define ST_NOSYMFOLLOW_FLAG 0x2000 /* statfs f_flags, Linux 5.10 */
/* procfs numbers its registered entries (self, thread-self, mounts, net,
 * the symlinks drivers make) from here up; per-process inodes, where every
 * magic link lives, take numbers from get_next_ino() below it. */
#define PROC_DYNAMIC_FIRST 0xF0000000U

#define SCOPED (RESOLVE_BENEATH | RESOLVE_IN_ROOT)
/* A step's outcomes besides an fd (>= 0) or -errno: the walk goes on; the
 * last name changed under its step and is looked at again. */
#define WALK_ON (-(INT_MAX / 2))
#define WALK_AGAIN (WALK_ON - 1)

struct dir_id {
	uint64_t ino;
	uint64_t btime; /* seconds and nanoseconds, where the fs knows them */
	uint32_t dev;
	uint32_t mnt; /* 0 where statx is refused: then dev alone */
	uint16_t mode;
};

struct held_dir {
	int fd;
	int level;
	bool searched; /* a lookup in it succeeded: it may be searched */
	struct dir_id id;
};

struct walk {
	const struct open_how *how;
	unsigned int resolve;
	bool use_statx;
	int links;
	bool must_be_dir; /* a trailing slash was seen on the last component */
	bool root_set; /* the kernel's nd->root is set: see jump_to_root */
	int depth; /* levels above the bottom */
	bool bottom_owned;
	struct held_dir bottom; /* where ".." stops (scoped) or asks the kernel */
	struct held_dir held[HELD]; /* level L in held[L % HELD] */
	uint64_t digest[MAX_DEPTH + 1]; /* identity of every level */
	/* The fs of the last directory a link was found in. */
	bool fs_known;
	uint32_t fs_dev, fs_mnt;
	bool fs_is_proc, fs_nosymfollow;
	char name[NAME_MAX + 1]; /* the component being looked up */
	bool last; /* it is the path's last */
	bool trailing_slash; /* and slashes follow it */
	size_t pos; /* the unwalked path: text[pos .. TEXT_SIZE - 1) */
	char text[TEXT_SIZE];
};

static int fail(void)
{
	return -errno;
}

static void close_quietly(int fd)
{
	int saved = errno;

	sys_close(fd);
	errno = saved;
}

/* Linux's own dev_t encoding (12-bit major, 20-bit minor) fits 32 bits. */
static uint32_t kernel_dev(uint32_t major, uint32_t minor)
{
	return (major << 20) | (minor & 0xfffff);
}

/*
 * The identity of what fd (or name in fd, not followed) is. statx gives
 * the mount id and birth time; fstat, where statx is refused, neither.
 */
static int identify(struct walk *w, int fd, const char *name,
		    struct dir_id *id)
{
	struct sys_statx stx;
	int flags = name[0] ? AT_SYMLINK_NOFOLLOW : AT_EMPTY_PATH;

	if (w->use_statx) {
		if (sys_statx(fd, name, flags,
			      SYS_STATX_TYPE | SYS_STATX_MODE | SYS_STATX_INO |
				      SYS_STATX_BTIME | SYS_STATX_MNT_ID,
			      &stx) < 0)
			return fail();
		*id = (struct dir_id){
			.ino = stx.stx_ino,
			.dev = kernel_dev(stx.stx_dev_major, stx.stx_dev_minor),
			.mnt = (stx.stx_mask & SYS_STATX_MNT_ID) ?
				       (uint32_t)stx.stx_mnt_id : 0,
			.btime = (stx.stx_mask & SYS_STATX_BTIME) ?
					 (uint64_t)stx.stx_btime.tv_sec *
							 1000000000U +
						 stx.stx_btime.tv_nsec :
					 0,
			.mode = stx.stx_mode,
		};
		return 0;
	}
	struct stat st;

	if ((name[0] ? (int)syscall(SYS_FSTATAT, (long)fd, SYS_ARG_PTR(name),
				     SYS_ARG_PTR(&st), (long)flags) :
		       sys_fstat(fd, &st)) < 0)
		return fail();
	*id = (struct dir_id){
		.ino = st.st_ino,
		.dev = kernel_dev(major(st.st_dev), minor(st.st_dev)),
		.mode = (uint16_t)st.st_mode,
	};
	return 0;
}

/* Same mount: by mount id where both have one, else by device. */
static bool same_mount(const struct dir_id *a, const struct dir_id *b)
{
	if (a->mnt != 0 && b->mnt != 0)
		return a->mnt == b->mnt;
	return a->dev == b->dev;
}

/*
 * Identifies fd, just opened from the directory whose identity is from:
 * 0 with *id set, or -errno with fd closed. NO_XDEV refuses the step if
 * it crossed a mount.
 */
static int identify_step(struct walk *w, int fd, const struct dir_id *from,
			 struct dir_id *id)
{
	if (identify(w, fd, "", id) < 0) {
		close_quietly(fd);
		return fail();
	}
	if ((w->resolve & RESOLVE_NO_XDEV) && !same_mount(id, from)) {
		sys_close(fd);
		return -EXDEV;
	}
	return 0;
}

static bool same_file(const struct dir_id *a, const struct dir_id *b)
{
	return a->ino == b->ino && a->dev == b->dev && a->mnt == b->mnt &&
	       a->btime == b->btime;
}

/* 64 bits that stand for a level's identity (splitmix64's mixer). */
static uint64_t digest_of(const struct dir_id *id)
{
	uint64_t h = id->ino ^ ((uint64_t)id->dev << 32 | id->mnt) * 31 ^
		     id->btime * 0x9e3779b97f4a7c15U;

	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9U;
	h = (h ^ (h >> 27)) * 0x94d049bb133111ebU;
	return h ^ (h >> 31);
}

static struct held_dir *current(struct walk *w)
{
	return w->depth == 0 ? &w->bottom : &w->held[w->depth % HELD];
}

/* Drops every level above the bottom. */
static void drop_levels(struct walk *w)
{
	for (int i = 0; i < HELD; i++) {
		if (w->held[i].fd >= 0)
			close_quietly(w->held[i].fd);
		w->held[i].fd = -1;
	}
	w->depth = 0;
}

/* Makes fd (owned, identified) the bottom: the walk knows nothing above. */
static void replace_bottom(struct walk *w, int fd, const struct dir_id *id)
{
	drop_levels(w);
	if (w->bottom_owned)
		close_quietly(w->bottom.fd);
	w->bottom = (struct held_dir){ .fd = fd, .id = *id };
	w->bottom_owned = true;
}

/* Enters the directory fd, a child of the current one: one level deeper.
 * The fd that falls out of the ring stays known by its digest. */
static int push_level(struct walk *w, int fd, const struct dir_id *id)
{
	if (w->depth == MAX_DEPTH) {
		close_quietly(fd);
		return -ENAMETOOLONG;
	}
	w->depth++;
	struct held_dir *slot = &w->held[w->depth % HELD];

	if (slot->fd >= 0)
		close_quietly(slot->fd);
	*slot = (struct held_dir){ .fd = fd, .level = w->depth, .id = *id };
	w->digest[w->depth] = digest_of(id);
	return 0;
}

/*
 * The kernel checks search permission on a directory before each lookup
 * in it, "." and ".." included. A walk that has looked a name up in it
 * knows; otherwise ask the kernel with a lookup of ".".
 */
static int check_search(struct walk *w)
{
	struct held_dir *cur = current(w);

	if (cur->searched)
		return 0;
	int fd = sys_openat(cur->fd, ".", O_PATH | O_CLOEXEC, 0);

	if (fd < 0)
		return fail();
	sys_close(fd);
	cur->searched = true;
	return 0;
}

/*
 * ".." at the bottom. Scoped: the root, where BENEATH refuses (EXDEV) and
 * IN_ROOT stays (the kernel's follow_dotdot). Unscoped: the kernel's
 * ".." of the bottom, which stops at the process root; nothing to escape.
 */
static int dotdot_at_bottom(struct walk *w)
{
	if (w->resolve & RESOLVE_BENEATH)
		return -EXDEV;
	if (w->resolve & RESOLVE_IN_ROOT)
		return 0;
	struct dir_id id;
	int err, fd = sys_openat(w->bottom.fd, "..",
				 O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0);

	if (fd < 0)
		return fail();
	/* NO_XDEV: climbing out of a mount root crosses a mount. */
	err = identify_step(w, fd, &w->bottom.id, &id);
	if (err < 0)
		return err;
	replace_bottom(w, fd, &id);
	return 0;
}

/*
 * The level below the current one, out of the ring: the kernel's ".." of
 * the current directory, accepted only if it is the very directory the
 * walk came through (its digest), which makes it as good as a held fd.
 */
static int refetch_parent(struct walk *w, struct held_dir *cur)
{
	struct dir_id id;
	int fd = sys_openat(cur->fd, "..",
			    O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0);

	if (fd < 0)
		return fail();
	if (identify(w, fd, "", &id) < 0) {
		close_quietly(fd);
		return fail();
	}
	struct held_dir *slot = &w->held[(w->depth - 1) % HELD];

	if (digest_of(&id) != w->digest[w->depth - 1]) {
		/* Moved by a rename: the kernel's own answer to a scoped
		 * lookup that raced one. */
		sys_close(fd);
		return -EAGAIN;
	}
	if (slot->fd >= 0)
		close_quietly(slot->fd);
	*slot = (struct held_dir){
		.fd = fd, .level = w->depth - 1, .searched = true, .id = id
	};
	return 0;
}

/* "..": back to the level the walk came from, never the kernel's idea of
 * the parent (see the threat model). */
static int step_dotdot(struct walk *w)
{
	int err = check_search(w);

	if (err < 0)
		return err;
	w->root_set = true; /* handle_dots: set_root() */
	if (w->depth == 0)
		return dotdot_at_bottom(w);
	struct held_dir *cur = current(w);
	int below = w->depth - 1;

	struct held_dir *slot = &w->held[below % HELD];

	if (below > 0 && (slot->fd < 0 || slot->level != below)) {
		err = refetch_parent(w, cur);
		if (err < 0)
			return err;
	}
	sys_close(cur->fd);
	cur->fd = -1;
	w->depth--;
	return 0;
}

/*
 * An absolute path or symlink: back to the root (the kernel's
 * nd_jump_root). BENEATH refuses; IN_ROOT's root is dirfd; otherwise the
 * process root. NO_XDEV refuses a jump that changes mount.
 */
static int jump_to_root(struct walk *w)
{
	if (w->resolve & RESOLVE_BENEATH)
		return -EXDEV;
	/* nd_jump_root compares with a root the lookup may not have set yet
	 * (an unscoped relative lookup sets it at its first ".."): then
	 * any jump under NO_XDEV is EXDEV. */
	if ((w->resolve & RESOLVE_NO_XDEV) && !w->root_set)
		return -EXDEV;
	w->root_set = true;
	if (w->resolve & RESOLVE_IN_ROOT) {
		if ((w->resolve & RESOLVE_NO_XDEV) &&
		    !same_mount(&current(w)->id, &w->bottom.id))
			return -EXDEV;
		drop_levels(w);
		return 0;
	}
	struct dir_id id;
	int fd = sys_openat(AT_FDCWD, "/", O_PATH | O_DIRECTORY | O_CLOEXEC, 0);

	if (fd < 0)
		return fail();
	if (identify(w, fd, "", &id) < 0) {
		close_quietly(fd);
		return fail();
	}
	if ((w->resolve & RESOLVE_NO_XDEV) &&
	    !same_mount(&current(w)->id, &id)) {
		sys_close(fd);
		return -EXDEV;
	}
	replace_bottom(w, fd, &id);
	return 0;
}

/* Steps into fd, a directory just opened from the current one by name;
 * NO_XDEV refuses a mount crossed on the way (traverse_mounts). */
static int enter_dir(struct walk *w, int fd)
{
	struct dir_id id;
	int err;

	err = identify_step(w, fd, &current(w)->id, &id);
	if (err < 0)
		return err;
	return push_level(w, fd, &id);
}

/* What the file system of the current directory says of links in it:
 * procfs (whose links may be magic), or mounted nosymfollow. */
static int judge_fs(struct walk *w)
{
	struct held_dir *cur = current(w);
	struct statfs sfs;

	if (w->fs_known && w->fs_dev == cur->id.dev && w->fs_mnt == cur->id.mnt)
		return 0;
	if (sys_fstatfs(cur->fd, &sfs) < 0)
		return fail();
	w->fs_known = true;
	w->fs_dev = cur->id.dev;
	w->fs_mnt = cur->id.mnt;
	w->fs_is_proc = sfs.f_type == PROC_SUPER_MAGIC_VALUE;
	w->fs_nosymfollow = (sfs.f_flags & ST_NOSYMFOLLOW_FLAG) != 0;
	return 0;
}

/*
 * procfs's magic links (fd/N, exe, cwd, root, ns/..., map_files/...)
 * live in per-process directories, whose inodes procfs numbers below
 * PROC_DYNAMIC_FIRST; its plain links (self, thread-self, mounts, net)
 * are registered entries numbered above.
 */
static int is_magic_link(struct walk *w, bool *magic)
{
	struct dir_id id;

	*magic = false;
	if (!w->fs_is_proc)
		return 0;
	if (identify(w, current(w)->fd, w->name, &id) < 0)
		return fail();
	*magic = id.ino < PROC_DYNAMIC_FIRST;
	return 0;
}

/*
 * Follows a magic link where the kernel would (no scope, no
 * NO_MAGICLINKS): the kernel itself jumps to its target, which becomes
 * the bottom of a walk that knows nothing above it. As the last
 * component, the kernel opens the target through the link.
 */
static int follow_magic_link(struct walk *w)
{
	int cur = current(w)->fd;
	struct dir_id id;
	int err;

	if (w->resolve & RESOLVE_NO_MAGICLINKS)
		return -ELOOP;
	if (w->resolve & SCOPED)
		return -EXDEV; /* nd_jump_link: not safe for scoped lookups */
	int fd = sys_openat(cur, w->name, O_PATH | O_CLOEXEC, 0);

	if (fd < 0)
		return fail();
	err = identify_step(w, fd, &current(w)->id, &id);
	if (err < 0)
		return err;
	if (w->last && !w->must_be_dir) {
		sys_close(fd);
		int flags = (int)w->how->flags;

		fd = sys_openat(cur, w->name, flags, (unsigned int)w->how->mode);
		return fd >= 0 ? fd : fail();
	}
	if (!S_ISDIR(id.mode)) {
		sys_close(fd);
		return -ENOTDIR;
	}
	replace_bottom(w, fd, &id);
	return WALK_ON;
}

/* Puts the link text (text[0 .. n)) in front of the unwalked path. */
static int splice_link_text(struct walk *w, size_t n)
{
	bool rest = w->text[w->pos] != '\0';
	size_t need = n + (rest ? 1 : 0);

	if (need > w->pos)
		return -ENAMETOOLONG;
	if (rest)
		w->text[w->pos - 1] = '/';
	memmove(w->text + w->pos - need, w->text, n);
	w->pos -= need;
	return 0;
}

/*
 * The current name is a symlink to follow (pick_link): the count of
 * links, NO_SYMLINKS and nosymfollow mounts, magic links, then its text
 * walked here, an absolute one from the root.
 */
static int follow_link(struct walk *w, bool seen_as_link)
{
	long n = sys_readlinkat(current(w)->fd, w->name, w->text, w->pos);
	int err;

	/* EINVAL: not a link. Where a step saw one, it changed since. */
	if (n < 0 && errno == EINVAL)
		return seen_as_link ? WALK_AGAIN : -ENOTDIR;
	if (n < 0)
		return fail();
	if (++w->links > MAX_LINKS)
		return -ELOOP;
	if (w->resolve & RESOLVE_NO_SYMLINKS)
		return -ELOOP;
	err = judge_fs(w);
	if (err < 0)
		return err;
	if (w->fs_nosymfollow)
		return -ELOOP;
	bool magic;

	err = is_magic_link(w, &magic);
	if (err < 0)
		return err;
	if (magic)
		return follow_magic_link(w);
	if (n == 0)
		return -ENOENT;
	if ((size_t)n >= w->pos)
		return -ENAMETOOLONG;
	err = splice_link_text(w, (size_t)n);
	if (err < 0)
		return err;
	if (w->text[w->pos] == '/') {
		err = jump_to_root(w);
		if (err < 0)
			return err;
		while (w->text[w->pos] == '/')
			w->pos++;
	}
	return WALK_ON;
}

/*
 * A name on the way (walk_component): a directory is entered, a symlink
 * followed, anything else is ENOTDIR. O_NOFOLLOW: the kernel never
 * follows a link for the walk; O_DIRECTORY: one call tells a directory.
 * *entered says which it was.
 */
static int step_name(struct walk *w, bool *entered)
{
	struct held_dir *cur = current(w);
	int fd = sys_openat(cur->fd, w->name,
			    O_PATH | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC, 0);

	if (fd >= 0) {
		cur->searched = true;
		int err = enter_dir(w, fd);

		*entered = err == 0;
		return err < 0 ? err : WALK_ON;
	}
	if (errno != ENOTDIR)
		return fail();
	cur->searched = true;
	return follow_link(w, false);
}

/*
 * Opens the current directory with the caller's flags (a path ending in
 * ".", "..", "/" or a link to one of them, or O_TMPFILE's directory):
 * through ".", so the new fd's flags are exactly the caller's.
 */
static int open_here(struct walk *w)
{
	int fd = sys_openat(current(w)->fd, ".", (int)w->how->flags,
			    (unsigned int)w->how->mode);

	return fd >= 0 ? fd : fail();
}

/*
 * An fd with the caller's flags that the walk may still throw away is
 * opened close-on-exec (a thread's exec meanwhile must not inherit it),
 * and handed over with the caller's FD_CLOEXEC once it is the answer.
 */
static int open_candidate(int dirfd, const char *name, int flags,
			  unsigned int mode)
{
	return sys_openat(dirfd, name, flags | O_CLOEXEC, mode);
}

static int hand_over(struct walk *w, int fd)
{
	if (fd < 0 || (w->how->flags & O_CLOEXEC))
		return fd;
	if (sys_fcntl_setfd(fd, 0) < 0) {
		close_quietly(fd);
		return fail();
	}
	return fd;
}

/* Same file as the probe, or the name changed under us: close, and let
 * the caller look again. */
static int keep_if_same(struct walk *w, int fd, const struct dir_id *probe)
{
	struct dir_id id;

	if (fd < 0)
		return fail();
	if (identify(w, fd, "", &id) < 0) {
		close_quietly(fd);
		return fail();
	}
	if (!same_file(&id, probe)) {
		sys_close(fd);
		return WALK_AGAIN;
	}
	return hand_over(w, fd);
}

/*
 * The last name, when the kernel would follow it and needs a directory
 * (a trailing slash, O_DIRECTORY, O_TMPFILE): a step like any other, then
 * the directory opened through "." with the caller's flags. A directory
 * the caller may open but not search has no "."; it is opened by name
 * then and proven the same directory. By name, the kernel would follow a
 * link planted since: harmless where the open does nothing but look
 * (O_PATH) or can open nothing but a directory (O_DIRECTORY), and
 * impossible with O_NOFOLLOW; otherwise O_NOFOLLOW is added, which F_GETFL
 * shows. (Without a link, the open stays in this directory, inside.)
 */
static int open_last_dir(struct walk *w)
{
	bool entered = false;
	int err = step_name(w, &entered);

	if (err != WALK_ON || !entered)
		return err; /* a link: its text is walked next */
	int fd = open_here(w);

	if (fd != -EACCES || (w->how->flags & O_TMPFILE) == O_TMPFILE)
		return fd;
	/* The parent is in the ring still: it was the top a step ago. */
	struct held_dir *dir = current(w);
	struct held_dir *parent = w->depth == 1 ?
					  &w->bottom :
					  &w->held[(w->depth - 1) % HELD];
	int flags = (int)w->how->flags;

	if (!(flags & (O_PATH | O_DIRECTORY | O_NOFOLLOW)))
		flags |= O_NOFOLLOW;
	fd = open_candidate(parent->fd, w->name, flags,
			    (unsigned int)w->how->mode);
	fd = keep_if_same(w, fd, &dir->id);
	/* Not again from here: the walk has stepped into the directory. */
	return fd == WALK_AGAIN ? -EAGAIN : fd;
}

/* Where NO_XDEV is asked: the last name may not be a mount crossed. */
static int check_last_mount(struct walk *w)
{
	struct dir_id id;

	if (!(w->resolve & RESOLVE_NO_XDEV))
		return 0;
	if (identify(w, current(w)->fd, w->name, &id) < 0)
		return errno == ENOENT ? 0 : fail();
	/* A mount root has another mount than its parent directory. */
	return same_mount(&id, &current(w)->id) ? 0 : -EXDEV;
}

/*
 * The last name, not followed (O_NOFOLLOW, or O_CREAT|O_EXCL): the
 * kernel's own open of it from the resolved parent, exact in every flag.
 */
static int open_last_unfollowed(struct walk *w)
{
	int err = check_last_mount(w);

	if (err < 0)
		return err;
	int fd = sys_openat(current(w)->fd, w->name, (int)w->how->flags,
			    (unsigned int)w->how->mode);

	return fd >= 0 ? fd : fail();
}

/*
 * O_PATH, followed: a probe that does not follow tells a link (walked
 * here); otherwise the caller's open, which could follow a link planted
 * since, proven to be the probed file. O_PATH opens nothing, so the open
 * itself has no effect to undo.
 */
static int open_last_path(struct walk *w)
{
	int cur = current(w)->fd;
	struct dir_id probe;

	if (identify(w, cur, w->name, &probe) < 0)
		return fail();
	current(w)->searched = true;
	if (S_ISLNK(probe.mode))
		return follow_link(w, true);
	if ((w->resolve & RESOLVE_NO_XDEV) &&
	    !same_mount(&probe, &current(w)->id))
		return -EXDEV;
	int fd = open_candidate(cur, w->name, (int)w->how->flags, 0);

	return keep_if_same(w, fd, &probe);
}

/*
 * The last name, followed, opened for real: with O_NOFOLLOW added, so the
 * kernel refuses a link (ELOOP), which is then walked here. A file made
 * by O_CREAT is made with O_EXCL added instead: the same safety, and
 * F_GETFL shows neither. A directory is opened again through "." for the
 * caller's exact flags.
 */
static int open_last_followed(struct walk *w)
{
	int cur = current(w)->fd;
	int flags = (int)w->how->flags;
	unsigned int mode = (unsigned int)w->how->mode;
	int fd, err;

	if (flags & O_CREAT) {
		fd = sys_openat(cur, w->name, flags | O_EXCL, mode);
		if (fd >= 0 || errno != EEXIST)
			return fd >= 0 ? fd : fail();
	}
	err = check_last_mount(w);
	if (err < 0)
		return err;
	fd = open_candidate(cur, w->name, flags | O_NOFOLLOW, mode);
	if (fd < 0) {
		if (errno == ELOOP)
			return follow_link(w, true);
		if (errno == ENOENT && (flags & O_CREAT))
			return WALK_AGAIN; /* removed since: look again */
		return fail();
	}
	current(w)->searched = true;
	struct dir_id id;

	err = identify_step(w, fd, &current(w)->id, &id);
	if (err < 0)
		return err;
	if (!S_ISDIR(id.mode))
		return hand_over(w, fd);
	int exact = sys_openat(fd, ".", flags, mode);

	if (exact < 0) /* not searchable: keep the first */
		return hand_over(w, fd);
	sys_close(fd);
	return exact;
}

/* The last component with a name: how the kernel opens it decides. */
static int open_last(struct walk *w)
{
	int flags = (int)w->how->flags;

	/* open_last_lookups: creating "name/" is EISDIR, existing or not,
	 * once the directory may be searched. */
	if ((flags & O_CREAT) && w->trailing_slash) {
		int err = check_search(w);

		return err < 0 ? err : -EISDIR;
	}
	/* A trailing slash sets LOOKUP_FOLLOW | LOOKUP_DIRECTORY for the rest
	 * of the lookup: for the text of a link it names too. */
	w->must_be_dir |= w->trailing_slash;
	bool follow = w->must_be_dir ||
		      !(flags & O_NOFOLLOW || (flags & (O_CREAT | O_EXCL)) ==
						      (O_CREAT | O_EXCL));

	if (!follow)
		return open_last_unfollowed(w);
	if (w->must_be_dir || (flags & O_DIRECTORY))
		return open_last_dir(w);
	if (flags & O_PATH)
		return open_last_path(w);
	return open_last_followed(w);
}

/*
 * The next component into w->name; false at the end of the path. Slashes
 * between components are skipped; those after the last one are noted.
 */
static bool next_component(struct walk *w, size_t *len)
{
	const char *start = w->text + w->pos;
	size_t n = strcspn(start, "/");

	if (n == 0)
		return false;
	*len = n;
	if (n <= NAME_MAX) {
		memcpy(w->name, start, n);
		w->name[n] = '\0';
	}
	w->pos += n;
	w->trailing_slash = w->text[w->pos] == '/';
	while (w->text[w->pos] == '/')
		w->pos++;
	w->last = w->text[w->pos] == '\0';
	return true;
}

/*
 * ".." as the last component: the directory the walk came through, opened
 * with the caller's flags. Not through "." from it, which would need
 * search permission there, where the kernel needs none: the kernel's ".."
 * from the current directory, proven to be that very directory (a
 * directory's open has nothing to undo if it is not). Unscoped, at the
 * bottom, the kernel's ".." is the answer, as dotdot_at_bottom's, once
 * NO_XDEV has seen that it crosses no mount. O_TMPFILE makes a file in
 * the directory instead: the walk's own ".." first, then ".".
 */
static int open_last_dotdot(struct walk *w)
{
	int flags = (int)w->how->flags;
	struct held_dir *cur = current(w);
	bool prove = w->depth > 0;
	uint64_t expected = 0;
	struct dir_id id;
	int err = check_search(w);

	if (err < 0)
		return err;
	w->root_set = true;
	if ((w->depth == 0 && (w->resolve & SCOPED)) ||
	    (flags & O_TMPFILE) == O_TMPFILE) {
		err = step_dotdot(w);
		return err < 0 ? err : open_here(w);
	}
	if (prove) {
		expected = w->depth == 1 ? digest_of(&w->bottom.id) :
					   w->digest[w->depth - 1];
	} else if (w->resolve & RESOLVE_NO_XDEV) {
		int probe = sys_openat(cur->fd, "..",
				       O_PATH | O_DIRECTORY | O_CLOEXEC, 0);

		if (probe < 0 || identify(w, probe, "", &id) < 0) {
			err = fail();
			if (probe >= 0)
				sys_close(probe);
			return err;
		}
		sys_close(probe);
		if (!same_mount(&id, &cur->id))
			return -EXDEV;
		prove = true;
		expected = digest_of(&id);
	}
	int fd = open_candidate(cur->fd, "..", flags,
				(unsigned int)w->how->mode);

	if (fd < 0 || !prove)
		return fd < 0 ? fail() : hand_over(w, fd);
	if (identify(w, fd, "", &id) < 0) {
		close_quietly(fd);
		return fail();
	}
	if (digest_of(&id) != expected) {
		sys_close(fd);
		return -EAGAIN;
	}
	return hand_over(w, fd);
}

/* One component: ".", "..", or a name (the last one opened). */
static int walk_component(struct walk *w, size_t len)
{
	int err;

	if (len > NAME_MAX) {
		err = check_search(w);
		return err < 0 ? err : -ENAMETOOLONG;
	}
	if (strcmp(w->name, "..") == 0 && w->last)
		return open_last_dotdot(w);
	if (strcmp(w->name, ".") == 0 || strcmp(w->name, "..") == 0) {
		err = w->name[1] ? step_dotdot(w) : check_search(w);
		if (err < 0)
			return err;
		return w->last ? open_here(w) : WALK_ON;
	}
	if (!w->last) {
		bool entered;

		return step_name(w, &entered);
	}
	return open_last(w);
}

/*
 * path_init: the starting directory, and the root for scoped lookups.
 * An absolute path starts at the process root (IN_ROOT: at dirfd; BENEATH:
 * EXDEV), a relative one at dirfd, which must be a directory.
 */
static int start_walk(struct walk *w, int dirfd, const char *path, size_t len)
{
	int fd = dirfd;

	w->bottom_owned = false;
	w->root_set = path[0] == '/' || (w->resolve & SCOPED);
	for (int i = 0; i < HELD; i++)
		w->held[i].fd = -1;
	if (path[0] == '/' && !(w->resolve & RESOLVE_IN_ROOT)) {
		if (w->resolve & RESOLVE_BENEATH)
			return -EXDEV;
		fd = sys_openat(AT_FDCWD, "/", O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
	} else if (dirfd == AT_FDCWD) {
		/* The cwd once, as the kernel takes it once. */
		fd = sys_openat(AT_FDCWD, ".", O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
	}
	if (fd < 0 && fd != dirfd)
		return fail();
	w->bottom = (struct held_dir){ .fd = fd };
	w->bottom_owned = fd != dirfd;
	if (identify(w, fd, "", &w->bottom.id) < 0) {
		/* A seccomp policy or an old kernel without statx: fstat. */
		if (errno != ENOSYS && errno != EPERM)
			return errno == EBADF ? -EBADF : fail();
		w->use_statx = false;
		if (identify(w, fd, "", &w->bottom.id) < 0)
			return fail();
	}
	if (!S_ISDIR(w->bottom.id.mode))
		return -ENOTDIR;
	memcpy(w->text + TEXT_SIZE - 1 - len, path, len + 1);
	w->pos = TEXT_SIZE - 1 - len;
	while (w->text[w->pos] == '/')
		w->pos++;
	return 0;
}

static void end_walk(struct walk *w)
{
	drop_levels(w);
	if (w->bottom_owned)
		close_quietly(w->bottom.fd);
}

/* The walk to its end: a component at a time; the last one looked at
 * again, a few times, where its name changed under the step. */
static int walk_path(struct walk *w)
{
	for (;;) {
		size_t len;

		if (!next_component(w, &len))
			return open_here(w);
		int r = walk_component(w, len);

		for (int i = 0; r == WALK_AGAIN && i < RETRIES; i++)
			r = open_last(w);
		if (r == WALK_AGAIN)
			return -EAGAIN;
		if (r != WALK_ON)
			return r;
	}
}

int libexecveat_resolve_open(int dirfd, const char *path,
			     const struct open_how *how)
{
	struct walk w;
	size_t len;
	int r;

	if (path == NULL) {
		errno = EFAULT;
		return -1;
	}
	len = strnlen(path, PATH_MAX);
	if (len == 0) {
		errno = ENOENT;
		return -1;
	}
	if (len == PATH_MAX) {
		errno = ENAMETOOLONG;
		return -1;
	}
	/* Without resolve flags, openat2 is openat. */
	if (how->resolve == 0)
		return sys_openat(dirfd, path, (int)how->flags,
				  (unsigned int)how->mode);
	w.how = how;
	w.resolve = (unsigned int)how->resolve;
	w.use_statx = true;
	w.links = 0;
	w.must_be_dir = false;
	w.depth = 0;
	w.fs_known = false;
	r = start_walk(&w, dirfd, path, len);
	if (r == 0)
		r = walk_path(&w);
	end_walk(&w);
	if (r < 0) {
		errno = -r;
		return -1;
	}
	return r;
}
