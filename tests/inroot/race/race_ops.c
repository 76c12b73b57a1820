#define _GNU_SOURCE
#include "race_ops.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inroot.h"
#include "race_attacker.h"
#include "race_world.h"

static const char *const patterns[PATTERNS] = {
	"a/l/%s",
	"a/b/../../../outside/%s",
	"a/b/c/../../%s",
	"a/b/c/d/../../../../%s",
	"a/b/c/up/../../%s",
};

/* Where inside the root each pattern ends: through l, the directory, or
 * any of its links; the others by their "..". */
static const unsigned int pattern_places[PATTERNS] = {
	1u << IN_L | 1u << IN_ROOT | 1u << IN_ROOT_OUTSIDE,
	1u << IN_ROOT_OUTSIDE,
	1u << IN_A,
	1u << IN_ROOT,
	1u << IN_ROOT,
};

/* ---- the library, as the table calls it ---- */

static int closed(int fd)
{
	return fd < 0 ? -1 : close(fd);
}

static int lib_mkdir(int root, const char *path, const char *unused)
{
	(void)unused;
	return inroot_mkdir(root, path, 0755);
}

static int lib_mkdir_all(int root, const char *path, const char *unused)
{
	(void)unused;
	return closed(inroot_mkdir_all(root, path, 0755));
}

static int lib_symlink(int root, const char *path, const char *target)
{
	return inroot_symlink(root, path, target);
}

static int lib_creat(int root, const char *path, const char *unused)
{
	(void)unused;
	return closed(inroot_creat(root, path, O_WRONLY | O_CLOEXEC, 0644));
}

static int lib_unlink(int root, const char *path, const char *unused)
{
	(void)unused;
	return inroot_unlink(root, path);
}

static int lib_remove_all(int root, const char *path, const char *unused)
{
	(void)unused;
	return inroot_remove_all(root, path);
}

static int lib_rename(int root, const char *src, const char *dst)
{
	return inroot_rename(root, src, dst, 0);
}

static int lib_hardlink(int root, const char *path, const char *target)
{
	return inroot_hardlink(root, path, target);
}

static int lib_metadata(int root, const char *path, const char *call)
{
	static const struct timespec times[2] = { { 1000, 0 }, { 1000, 0 } };

	if (!strcmp(call, "chmod"))
		return inroot_chmod(root, path, 0600, 0);
	if (!strcmp(call, "chown"))
		return inroot_chown(root, path, 1234, 1234, 0);
	if (!strcmp(call, "utimens"))
		return inroot_utimens(root, path, times, 0);
	if (!strcmp(call, "setxattr"))
		return inroot_setxattr(root, path, "user.race", "x", 1, 0, 0);
	return closed(inroot_mknod_checked(root, path, S_IFIFO | 0600, 0));
}

static int lib_mounts(int root, const char *path, const char *call)
{
	if (!strcmp(call, "bind"))
		return inroot_bind(AT_FDCWD, "/root/a/bsrc", root, path, 0);
	return inroot_mask(root, path);
}

/* ---- the table ---- */

#define FORMS(f) f, sizeof f / sizeof *f
#define BASIC (MOVE_CHAIN | MOVE_LINKS)

static const struct race_form mkdir_forms[] = {
	{ .victim = "m", .kind = CREATES },
};
static const struct race_form mkdir_all_forms[] = {
	{ .victim = "m1/m2", .kind = CREATES },
};
static const struct race_form symlink_forms[] = {
	{ .victim = "y", .kind = CREATES, .fixed = "t" },
};
static const struct race_form creat_forms[] = {
	{ .victim = "f", .kind = CREATES },
};
static const struct race_form unlink_forms[] = {
	{ .victim = "s", .kind = REMOVES_FILE },
};
static const struct race_form remove_all_forms[] = {
	{ .victim = "r", .kind = REMOVES_TREE },
};
/* rename: the source out (a sentinel taken in), or the target out. */
static const struct race_form rename_forms[] = {
	{ .victim = "s", .kind = REMOVES_FILE, .fixed = "a/z" },
	{ .victim = "q", .kind = CREATES, .fixed = "a/rs",
	  .pattern_second = true, .fresh = "rs" },
};
/* hardlink: the new name out, or the linked file (a sentinel linked in:
 * its link count). The new name is cleared first: linkat's EEXIST would
 * hide where the walk went. */
static const struct race_form hardlink_forms[] = {
	{ .victim = "h", .kind = CREATES, .fixed = "a/hs", .fresh = "hs" },
	{ .victim = "s", .kind = REMOVES_FILE, .fixed = "a/hz",
	  .pattern_second = true, .cleared = "hz" },
};

/* 2.1's: each form one call, named by its fixed argument. */
static const struct race_form metadata_forms[] = {
	{ .victim = "s", .kind = REMOVES_FILE, .fixed = "chmod" },
	{ .victim = "s", .kind = REMOVES_FILE, .fixed = "chown" },
	{ .victim = "s", .kind = REMOVES_FILE, .fixed = "utimens" },
	{ .victim = "s", .kind = REMOVES_FILE, .fixed = "setxattr" },
	{ .victim = "n", .kind = CREATES, .fixed = "mknod", .unmade = true },
};
static const struct race_form mounts_forms[] = {
	{ .victim = "s", .kind = REMOVES_FILE, .fixed = "bind",
	  .fresh = "bsrc", .mounts = true },
	{ .victim = "r", .kind = REMOVES_TREE, .fixed = "mask",
	  .mounts = true },
};

const struct race_op race_ops[RACE_OPS] = {
	{ "mkdir_all", FORMS(mkdir_all_forms), BASIC, false, lib_mkdir_all,
	  naive_mkdir_all },
	{ "remove_all", FORMS(remove_all_forms), BASIC | MOVE_TREES, false,
	  lib_remove_all, naive_remove_all },
	{ "rename", FORMS(rename_forms), BASIC, false, lib_rename, naive_rename },
	{ "hardlink", FORMS(hardlink_forms), BASIC, false, lib_hardlink,
	  naive_hardlink },
	{ "mkdir", FORMS(mkdir_forms), BASIC, false, lib_mkdir, naive_mkdir },
	{ "symlink", FORMS(symlink_forms), BASIC, false, lib_symlink,
	  naive_symlink },
	{ "unlink", FORMS(unlink_forms), BASIC, false, lib_unlink,
	  naive_unlink },
	{ "creat", FORMS(creat_forms), BASIC, false, lib_creat, naive_creat },
	{ "metadata", FORMS(metadata_forms), BASIC, true, lib_metadata,
	  naive_metadata },
	/* Last: the mounts it leaves would make the others' removals of
	 * s and r EBUSY. */
	{ "mounts", FORMS(mounts_forms), BASIC, true, lib_mounts,
	  naive_mounts },
};

bool race_op_in_world(const struct race_op *op, int w)
{
	return op->since_2_1 || w != OLD_CALLS;
}

/* ---- what a try needs inside the root ---- */

static void make_file(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC,
			0644);

	if (fd >= 0)
		close(fd);
}

static void close_held(int fd)
{
	if (fd >= 0)
		close(fd);
}

/* dirfd/name, opened as a directory only if it is one now. */
static int dir_at(int dirfd, const char *name)
{
	if (mkdirat(dirfd, name, 0755) != 0 && errno != EEXIST)
		return -1;
	return openat(dirfd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW |
				   O_CLOEXEC);
}

/* place/r: u/v/k, and .su -> /outside/r, which the attacker exchanges
 * with u. Made by fds, never following a link: u may be one now. */
static void make_tree(int place)
{
	int r = dir_at(place, "r"), u = r >= 0 ? dir_at(r, "u") : -1;
	int v = u >= 0 ? dir_at(u, "v") : -1;

	if (v >= 0)
		make_file(v, "k");
	if (r >= 0 && symlinkat("/outside/r", r, ".su") != 0)
		perror("the link the attacker flips in");
	close_held(v);
	close_held(u);
	close_held(r);
}

/* Every mount on s and r in each place inside the root, undone: by the
 * place's fd made the working directory, never by a path. */
static void unmount_places(const struct race_tree *t)
{
	for (int p = 0; p < PLACES; p++) {
		if (fchdir(t->places[p]) != 0)
			continue;
		while (umount2("s", MNT_DETACH | UMOUNT_NOFOLLOW) == 0)
			;
		while (umount2("r", MNT_DETACH | UMOUNT_NOFOLLOW) == 0)
			;
	}
	if (chdir("/") != 0)
		perror("back to /");
}

void race_prepare(const struct race_op *op, const struct race_tree *t,
		  unsigned int form, unsigned int pattern, char *path,
		  char *other, size_t size)
{
	const struct race_form *f = &op->forms[form];
	char *patterned = f->pattern_second ? other : path;
	char *fixed = f->pattern_second ? path : other;

	if (f->mounts)
		unmount_places(t);
	for (int p = 0; f->unmade && p < PLACES; p++)
		unlinkat(t->places[p], f->victim, 0);

	snprintf(patterned, size, patterns[pattern], f->victim);
	snprintf(fixed, size, "%s", f->fixed != NULL ? f->fixed : "");
	for (int p = 0; p < PLACES; p++) {
		if (!(pattern_places[pattern] & 1u << p))
			continue;
		if (f->kind == REMOVES_FILE)
			make_file(t->places[p], f->victim);
		else if (f->kind == REMOVES_TREE)
			make_tree(t->places[p]);
	}
	if (f->fresh != NULL)
		make_file(t->a, f->fresh);
	if (f->cleared != NULL)
		unlinkat(t->a, f->cleared, 0);
}

void race_try_prepare(const struct race_op *op, const struct race_tree *t,
		      unsigned long i, char *path, char *other, size_t size)
{
	race_prepare(op, t, (unsigned int)(i % op->form_count),
		     (unsigned int)(i / op->form_count % PATTERNS), path,
		     other, size);
}
