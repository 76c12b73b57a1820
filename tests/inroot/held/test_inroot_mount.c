/*
 * The mounts of inroot.h (bind, remount read-only, mask) onto targets
 * held inside a root, in each world of world.h: where the new mount API
 * is refused, a directory target is still reached by its held fd, a
 * file target only through a proven /proc, else EOPNOTSUPP; a target
 * that is a link is followed inside the root, never out of it; nothing
 * is mounted outside the root. Each world is a mount namespace of its
 * own: its mounts go with it.
 *
 * Needs root (mount namespaces, mounts); else exits 77.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "inroot.h"
#include "verdicts.h"
#include "world.h"

#define TMPFS_MAGIC 0x01021994

static const char *world;


static int build(const char *top)
{
	static const char *const dirs[] = { "outside", "src", "root",
		"root/mnt", "root/ro", "root/masked", "root/plain" };
	static const char *const files[] = { "src/s", "srcfile",
		"root/file", "root/masked/secret", "root/maskedfile" };
	int bad = 0;

	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
		bad |= mkdir(in_top(top, dirs[i]), 0755);
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		int fd = open(in_top(top, files[i]), O_CREAT | O_WRONLY, 0644);

		bad |= fd < 0 || write(fd, "x", 1) != 1;
		close(fd);
	}
	bad |= symlink("/ro", in_top(top, "root/lro"));
	bad |= symlink("../outside", in_top(top, "root/esc"));
	return bad;
}

static void check(const char *name, int rc, int want_errno)
{
	verdict_answer(name, world, rc, want_errno);
}

static bool exists(const char *top, const char *p)
{
	struct stat st;

	return lstat(in_top(top, p), &st) == 0;
}

static bool read_only(const char *top, const char *p)
{
	struct statvfs sv;

	return statvfs(in_top(top, p), &sv) == 0 && (sv.f_flag & ST_RDONLY);
}

static void binds(enum world w, int root, const char *top)
{
	/* A read-only bind onto a file: made read-only while detached
	 * (5.12), else bound and remounted through /proc. */
	bool ro_file_ok = (world_has(OPEN_TREE) && world_has(MOUNT_SETATTR)) ||
			  world_proc(w);
	char src[512];
	int fd;

	snprintf(src, sizeof src, "%s/src", top);
	check("bind a directory by path", inroot_bind(AT_FDCWD, src, root,
						      "mnt", 0), 0);
	verdict(exists(top, "root/mnt/s"), "the bind is at the target", world,
		"root/mnt/s missing");
	snprintf(src, sizeof src, "%s/srcfile", top);
	check("bind a file read-only", inroot_bind(AT_FDCWD, src, root, "file",
						   INROOT_MOUNT_RDONLY),
	      ro_file_ok ? 0 : EOPNOTSUPP);
	if (ro_file_ok)
		verdict(read_only(top, "root/file"), "the file bind is read-only",
			world, "writable");
	fd = open(in_top(top, "src"), O_PATH | O_DIRECTORY | O_CLOEXEC);
	check("bind an fd onto a link, followed inside the root",
	      inroot_bind(fd, "", root, "lro", INROOT_MOUNT_RDONLY),
	      ro_file_ok ? 0 : EOPNOTSUPP);
	close(fd);
	if (ro_file_ok)
		verdict(exists(top, "root/ro/s") && read_only(top, "root/ro"),
			"the link's bind is in the root, read-only", world,
			"root/ro/s missing or writable");
	snprintf(src, sizeof src, "%s/src", top);
	check("bind onto a link out of the root", inroot_bind(AT_FDCWD, src,
	      root, "esc", 0), ENOENT);
	check("bind onto the root itself", inroot_bind(AT_FDCWD, src, root, "/",
						       0), EINVAL);
	check("bind with an unknown flag", inroot_bind(AT_FDCWD, src, root,
						       "mnt", 0x80), EINVAL);
}

static void remounts(int root, const char *top)
{
	check("remount read-only", inroot_remount_rdonly(root, "mnt", 0), 0);
	verdict(read_only(top, "root/mnt") &&
		open(in_top(top, "root/mnt/new"), O_CREAT | O_WRONLY, 0644) < 0 &&
		errno == EROFS, "the remount is read-only", world, "writable");
	check("remount where nothing is mounted",
	      inroot_remount_rdonly(root, "plain", 0), EINVAL);
}

static void masks(enum world w, int root, const char *top)
{
	bool file_ok = (world_has(OPEN_TREE) && world_has(MOUNT_SETATTR)) ||
		       world_proc(w);
	struct statfs sfs;
	struct stat st;

	check("mask a directory", inroot_mask(root, "masked"), 0);
	verdict(!exists(top, "root/masked/secret") &&
		statfs(in_top(top, "root/masked"), &sfs) == 0 &&
		sfs.f_type == TMPFS_MAGIC && read_only(top, "root/masked"),
		"the directory's mask is an empty read-only tmpfs", world,
		"secret seen, or not a read-only tmpfs");
	check("mask a file", inroot_mask(root, "maskedfile"),
	      file_ok ? 0 : EOPNOTSUPP);
	if (file_ok)
		verdict(stat(in_top(top, "root/maskedfile"), &st) == 0 &&
			S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3),
			"the file's mask is /dev/null", world, "not the null "
			"device");
}

static void outside_untouched(const char *top)
{
	struct stat here, there;

	verdict(stat(in_top(top, "outside"), &here) == 0 &&
		stat(top, &there) == 0 && here.st_dev == there.st_dev &&
		!exists(top, "outside/s") && !exists(top, "../ro"),
		"nothing mounted outside the root", world, "a mount outside");
}

/* The way the mounts take here, as the calls this world has decide it:
 * one line for the report's table. */
static void print_ways(enum world w)
{
	bool tree = world_has(OPEN_TREE), setattr = world_has(MOUNT_SETATTR);
	const char *old_file = world_proc(w) ? "mount(2) on the /proc entry" :
				  "EOPNOTSUPP";

	printf("ways (%s): bind onto a directory %s; onto a file %s; "
	       "read-only %s; mask %s\n", world,
	       tree ? "open_tree+move_mount" : "mount(2) from fchdir \".\"",
	       tree ? "open_tree+move_mount" : old_file,
	       setattr ? "mount_setattr" : "remount by mount(2)",
	       tree ? "fsmount / open_tree" : "mount(2)");
}

static int body(enum world w, const char *top)
{
	int root;

	world = world_names[w];
	print_ways(w);
	if (build(top) != 0) {
		perror("the tree");
		return 2;
	}
	root = open(in_top(top, "root"), O_PATH | O_DIRECTORY | O_CLOEXEC);
	binds(w, root, top);
	remounts(root, top);
	masks(w, root, top);
	outside_untouched(top);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

int main(void)
{
	return world_run_each(body, NULL, 0, "mount namespaces and mounts");
}
