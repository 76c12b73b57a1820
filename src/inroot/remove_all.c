/*
 * inroot_remove_all: a name, and everything beneath it if it is a
 * directory, as `rm -rf` removes it inside a chroot to the root.
 *
 * The name is removed from the directory that holds it (walked inside
 * the root); a directory's entries are removed from the directory itself,
 * opened from its parent with O_NOFOLLOW, never by a path. Whatever is
 * renamed meanwhile, each removal names one entry of a directory held
 * open beneath the root: a symlink is removed and never followed, and a
 * directory moved away is simply no longer found.
 *
 * Mounts: a directory on another mount than its parent (a mount point,
 * or a bind mount of a host directory into the root) is neither entered
 * nor removed: EBUSY, the kernel's answer for removing a mount point.
 * Where statx has no mount id (before Linux 5.8, or refused by a
 * policy), name_to_handle_at's tells; only where that is refused too
 * does the device decide, which cannot tell a bind mount of the same
 * file system.
 *
 * Entries made while a directory is emptied: the directory is emptied a
 * second time when its rmdir finds it not empty; ENOTEMPTY after that.
 * An entry that cannot be removed: see scan().
 */
#define _GNU_SOURCE /* O_PATH */
#include <dirent.h>
#include <stdbool.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../exports.h"
#include "in_root.h"
#include "inroot.h"
#include "../sys.h"

#define EMPTYING_PASSES 2

static bool is_dot_or_dotdot(const char *name)
{
	return name[0] == '.' &&
	       (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'));
}

/*
 * name_to_handle_at's mount id (Linux 2.6.39), where statx has none
 * (before 5.8, or refused by a policy that predates it): asked with no
 * room for the handle, the kernel still writes the mount id beside its
 * EOVERFLOW. A file system that makes no handles (procfs) answers
 * EOPNOTSUPP first, and then its device tells, which is its own.
 */
static bool handle_mount_id(int fd, uint64_t *mount)
{
	struct {
		unsigned int handle_bytes;
		int handle_type;
	} handle = { 0, 0 };
	int mnt_id = -1;
	long r = syscall(SYS_name_to_handle_at, (long)fd, "", &handle,
			 &mnt_id, (long)AT_EMPTY_PATH);

	if ((r == 0 || errno == EOVERFLOW) && mnt_id >= 0) {
		*mount = (uint64_t)(unsigned int)mnt_id;
		return true;
	}
	return false;
}

/* What tells the mount a file is on, and its value. */
struct mount_key {
	enum { BY_STATX, BY_HANDLE, BY_DEVICE } by;
	uint64_t value;
};

/* The mount a file is on: statx's mount id, or name_to_handle_at's, or
 * else its device. Two keys of different kinds are different mounts: a
 * mount id and a device number are never compared. */
static int mount_of(int fd, struct mount_key *key)
{
	struct sys_statx stx;
	struct stat st;

	if (sys_statx(fd, "", AT_EMPTY_PATH, SYS_STATX_MNT_ID, &stx) == 0 &&
	    (stx.stx_mask & SYS_STATX_MNT_ID)) {
		key->by = BY_STATX;
		key->value = stx.stx_mnt_id;
		return 0;
	}
	key->by = BY_HANDLE;
	if (handle_mount_id(fd, &key->value))
		return 0;
	if (sys_fstat(fd, &st) != 0)
		return -errno;
	key->by = BY_DEVICE;
	key->value = (uint64_t)st.st_dev;
	return 0;
}

static int same_mount(int a, int b)
{
	struct mount_key ka, kb;
	int err = mount_of(a, &ka);

	if (err == 0)
		err = mount_of(b, &kb);
	return err != 0 ? err : ka.by == kb.by && ka.value == kb.value;
}

/*
 * The walk down a tree being emptied, without recursion: its stack is
 * this one structure whatever the depth (a recursion of ~1.2 KiB a level
 * overflows a 128 KiB thread stack at ~100 levels and an 8 MiB one at
 * ~7,000). The deepest HELD_LEVELS directories stay open; deeper, the
 * oldest is let go (and where fds run out, EMFILE), and where the walk
 * comes back up to a level let go it starts again from the top, whose
 * first directory not yet empty is the way down again. Never "..": each
 * directory is entered by one name in the directory above, held open.
 */
#define HELD_LEVELS 256

struct descent {
	int top; /* the directory being emptied */
	int level[HELD_LEVELS]; /* level d (1 .. depth) in level[d % HELD_LEVELS] */
	int depth; /* levels below the top */
	int held; /* the deepest `held` levels are open */
	/* getdents64's, aligned for its 64-bit fields */
	_Alignas(uint64_t) char buf[1024];
};

static int current(const struct descent *t)
{
	return t->depth == 0 ? t->top : t->level[t->depth % HELD_LEVELS];
}

/* The oldest level held let go; never the current one: 0 or -EMFILE. */
static int let_oldest_go(struct descent *t)
{
	if (t->held < 2)
		return -EMFILE;
	sys_close(t->level[(t->depth - t->held + 1) % HELD_LEVELS]);
	t->held--;
	return 0;
}

/* name, a directory of dir that is not empty, opened to be emptied:
 * never followed, never on another mount (EBUSY). An fd or -errno. */
static int open_subdirectory(struct descent *t, int dir, const char *name)
{
	int sub, r;

	while ((sub = sys_openat(dir, name, O_RDONLY | O_DIRECTORY |
				 O_NOFOLLOW | O_CLOEXEC, 0)) < 0 &&
	       (errno == EMFILE || errno == ENFILE))
		if (let_oldest_go(t) < 0)
			return -errno;
	if (sub < 0)
		return -errno;
	r = same_mount(dir, sub);
	if (r == 1)
		return sub;
	sys_close(sub);
	return r == 0 ? -EBUSY : r;
}

/*
 * name, found a directory and then, on the next look, another file,
 * unlinked as what it is now; a directory again is a name that another
 * process keeps changing: EAGAIN, as for a rename under the walk.
 */
static int unlink_changed(int dir, const char *name)
{
	int r = call_result(unlinkat(dir, name, 0));

	return r == -EISDIR ? -EAGAIN : r;
}

/*
 * The entry name of dir removed: a file unlinked, an empty directory
 * removed (rmdir needs no read permission, and says EBUSY for a mount
 * point before it looks inside); 1 with *sub open where it is a
 * directory not yet empty; 0 or -errno. A name that changes from a
 * directory to another file meanwhile (ENOTDIR, ELOOP) is unlinked as
 * what it is now.
 */
static int remove_one(struct descent *t, int dir, const char *name, int *sub)
{
	int r = call_result(unlinkat(dir, name, 0));

	if (r != -EISDIR)
		return r;
	r = call_result(unlinkat(dir, name, AT_REMOVEDIR));
	if (r != -ENOTEMPTY && r != -EEXIST)
		return r == -ENOTDIR ? unlink_changed(dir, name) : r;
	*sub = open_subdirectory(t, dir, name);
	if (*sub == -ENOTDIR || *sub == -ELOOP)
		return unlink_changed(dir, name);
	return *sub < 0 ? *sub : 1;
}

static void enter(struct descent *t, int sub)
{
	if (t->held == HELD_LEVELS)
		let_oldest_go(t);
	t->depth++;
	t->held++;
	t->level[t->depth % HELD_LEVELS] = sub;
}

/* The current level is empty: back up to the one above, or to the top
 * where that one was let go. */
static void leave(struct descent *t)
{
	sys_close(current(t));
	t->depth--;
	t->held--;
	if (t->held == 0)
		t->depth = 0;
}

/*
 * One pass over the current directory from its start: 0 where it was
 * found empty, 1 where a directory not yet empty was entered, -errno
 * where an entry could not be removed. Such an entry (a mount point:
 * EBUSY) does not stop the removal of the others in its directory, as
 * with `rm -rf`; the walk stops with the first such error once the
 * directory has been gone through, since going back up would find the
 * directory not empty and enter it again.
 */
static int scan(struct descent *t)
{
	int dir = current(t);
	int first_error = 0;
	long n;

	if (lseek(dir, 0, SEEK_SET) < 0)
		return -errno;
	while ((n = sys_getdents64(dir, t->buf, sizeof t->buf)) > 0) {
		for (long at = 0; at < n;) {
			struct dirent64_head *e =
				(struct dirent64_head *)(void *)(t->buf + at);
			int sub = -1;
			int r = is_dot_or_dotdot(e->name) ?
					0 :
					remove_one(t, dir, e->name, &sub);

			at += e->reclen;
			if (r == 1) {
				enter(t, sub);
				return 1;
			}
			if (r != 0 && r != -ENOENT && first_error == 0)
				first_error = r;
		}
	}
	return n < 0 ? -errno : first_error;
}

/* Everything beneath the open directory top removed, once over. */
static int empty_tree(int top)
{
	struct descent t = { .top = top };
	int r;

	while ((r = scan(&t)) >= 0 && (r == 1 || t.depth > 0))
		if (r == 0)
			leave(&t);
	while (t.held > 0)
		leave(&t);
	return r;
}

/* name, a directory of dir on the same mount, emptied and removed. */
static int remove_directory(int dir, const char *name)
{
	int sub = sys_openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			     O_CLOEXEC, 0);
	int r;

	if (sub < 0) {
		r = -errno;
		/* One that may not be read (mode 0300, 0) is removed where it
		 * is empty, as rm -rf removes it: rmdir needs no read. */
		if (r == -EACCES && unlinkat(dir, name, AT_REMOVEDIR) == 0)
			r = 0;
		return r;
	}
	r = same_mount(dir, sub);
	if (r == 0)
		r = -EBUSY;
	for (int pass = 0; r == 1 && pass < EMPTYING_PASSES; pass++) {
		r = empty_tree(sub);
		if (r == 0)
			r = call_result(unlinkat(dir, name, AT_REMOVEDIR));
		if (r == -ENOTEMPTY)
			r = 1;
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
		r = unlink_changed(dir, name);
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

/* A last ".", ".." or "/" names no entry to remove: rmdir's answers. */
static int not_a_name(enum last_kind kind)
{
	switch (kind) {
	case LAST_IS_DOT:
		return -EINVAL;
	case LAST_IS_DOTDOT:
		return -ENOTEMPTY;
	default:
		return -EBUSY;
	}
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
		r = not_a_name(p.kind);
	else if (p.trailing_slash)
		r = remove_slashed_entry(p.fd, &p);
	else
		r = remove_entry(p.fd, p.name);
	libexecveat_release_parent(&p);
	return answer(r == -ENOENT ? 0 : r);
}
