/*
 * The attacks that hit runc's root preparation, planted in a root before
 * the call, each made twice: by a naive implementation, "join the root's
 * path and the name, then call mount(2) or open(2) on the string", which
 * must fall for it (or the tree proves nothing), and by the library,
 * which must not. In each world of world.h but the fake-/proc one's
 * naive control (the same string calls):
 *
 * - CVE-2025-31133: the root's /dev/null is a link to a file outside
 *   (runc's masks bound the container's /dev/null, and a link made them
 *   bind a procfs file, writable, in its place). The naive mask binds
 *   what the link names; inroot_mask binds the machine's /dev/null.
 * - CVE-2025-52565: /dev/console is a link out of the root when it is
 *   bound over (runc bound the console onto whatever the name led to).
 *   The naive bind mounts over the file outside; inroot_bind follows the
 *   link inside the root, where it leads nowhere.
 * - CVE-2024-45310: a directory of a mount target's path is a link out of
 *   the root, and the target is created before the mount (runc made
 *   empty files and directories on the host). The naive creat makes a
 *   file outside; inroot_mkdir_all and inroot_mknod_checked make theirs
 *   inside.
 *
 * Swaps made during a call, rather than before it, are proven for the
 * checked node by test_inroot_mknod_checked.c and, for the walk, the
 * metadata calls and the mounts, by the race suite (tests/inroot/race);
 * CVE-2025-52881 (writes to /proc redirected) by
 * test_inroot_proc_writes.c.
 *
 * Needs root (mount namespaces, mounts); else exits 77.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "inroot.h"
#include "verdicts.h"
#include "world.h"

static const char *world;
static char at[512]; /* a path being made */


/* A fresh root for one attack: top/NAME/{root,outside}, the victim
 * outside holding "secret". */
static int plant(const char *top, const char *name, char root[256],
		 char outside[256])
{
	int fd, bad = 0;

	snprintf(root, 256, "%s/%s/root", top, name);
	snprintf(outside, 256, "%s/%s/outside", top, name);
	bad |= mkdir(in_top(top, name), 0755);
	bad |= mkdir(root, 0755) | mkdir(outside, 0755);
	snprintf(at, sizeof at, "%s/dev", root);
	bad |= mkdir(at, 0755);
	snprintf(at, sizeof at, "%s/victim", outside);
	fd = open(at, O_CREAT | O_WRONLY, 0600);
	bad |= fd < 0 || write(fd, "secret", 6) != 6;
	close(fd);
	return bad;
}

/* Whether the victim outside is as planted: nothing mounted over it,
 * nothing made beside it. */
static bool victim_intact(const char *outside)
{
	struct stat victim, dir;
	char path[300];

	snprintf(path, sizeof path, "%s/victim", outside);
	if (stat(path, &victim) != 0 || stat(outside, &dir) != 0)
		return false;
	snprintf(path, sizeof path, "%s/made", outside);
	return S_ISREG(victim.st_mode) && victim.st_size == 6 &&
	       victim.st_dev == dir.st_dev && access(path, F_OK) != 0;
}

static void report(const char *attack, bool naive_escaped, bool library_kept)
{
	char name[128];

	snprintf(name, sizeof name, "%s: the naive code falls for it", attack);
	verdict(naive_escaped, name, world, "the planted link did nothing");
	snprintf(name, sizeof name, "%s: the library does not", attack);
	verdict(library_kept, name, world, "the victim outside was reached");
}

/* CVE-2025-31133: root/dev/null -> the victim, and a mask of root/mask. */
static void masked_by_container_null(const char *top)
{
	char root[256], outside[256], null[300], masked[300];
	bool naive, library;
	int fd;

	for (int round = 0; round < 2; round++) {
		if (plant(top, round ? "31133-lib" : "31133-naive", root,
			  outside) != 0)
			return;
		snprintf(null, sizeof null, "%s/dev/null", root);
		snprintf(masked, sizeof masked, "%s/masked", root);
		snprintf(at, sizeof at, "%s/victim", outside);
		if (symlink(at, null) != 0 ||
		    close(open(masked, O_CREAT | O_WRONLY, 0644)) != 0)
			return;
		if (round == 0) {
			/* The mask's source looked up by its string. */
			mount(null, masked, NULL, MS_BIND, NULL);
			fd = open(masked, O_RDONLY);
			naive = fd >= 0 && read(fd, at, 6) == 6;
			close(fd);
		} else {
			fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
			/* Where no safe way is left (a file target without
			 * the new mount API and a proven /proc): refused. */
			library = inroot_mask(fd, "masked") == 0 ||
				  errno == EOPNOTSUPP;
			close(fd);
			fd = open(masked, O_RDONLY);
			library = library && fd >= 0 && read(fd, at, 6) == 0;
			close(fd);
		}
	}
	report("CVE-2025-31133 (mask with the root's /dev/null)", naive,
	       library);
}

/* CVE-2025-52565: root/dev/console -> the victim (absolute), bound over. */
static void console_bound_through_link(const char *top)
{
	char root[256], outside[256], console[300], source[300];
	bool naive = false, library = false;
	int fd;

	for (int round = 0; round < 2; round++) {
		if (plant(top, round ? "52565-lib" : "52565-naive", root,
			  outside) != 0)
			return;
		snprintf(console, sizeof console, "%s/dev/console", root);
		snprintf(source, sizeof source, "%s/pts0", top);
		snprintf(at, sizeof at, "%s/victim", outside);
		if (symlink(at, console) != 0)
			return;
		close(open(source, O_CREAT | O_WRONLY, 0600));
		if (round == 0) {
			naive = mount(source, console, NULL, MS_BIND, NULL) == 0 &&
				!victim_intact(outside);
		} else {
			fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
			library = inroot_bind(AT_FDCWD, source, fd, "dev/console",
					      0) < 0 && errno == ENOENT &&
				  victim_intact(outside);
			close(fd);
		}
	}
	report("CVE-2025-52565 (bind over a /dev/console link)", naive,
	       library);
}

/* CVE-2024-45310: root/dev/pts -> the outside directory, and the mount
 * target dev/pts/made created first. */
static void target_made_through_link(const char *top)
{
	char root[256], outside[256], pts[300], made[300];
	bool naive = false, library = false;
	int fd, node;

	for (int round = 0; round < 2; round++) {
		if (plant(top, round ? "45310-lib" : "45310-naive", root,
			  outside) != 0)
			return;
		snprintf(pts, sizeof pts, "%s/dev/pts", root);
		snprintf(made, sizeof made, "%s/dev/pts/made", root);
		if (symlink(outside, pts) != 0)
			return;
		if (round == 0) {
			naive = close(open(made, O_CREAT | O_WRONLY, 0644)) == 0 &&
				!victim_intact(outside);
		} else {
			fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
			node = inroot_mknod_checked(fd, "dev/pts/made",
						    S_IFREG | 0644, 0);
			library = victim_intact(outside);
			close(node);
			close(fd);
		}
	}
	report("CVE-2024-45310 (a target made through a link)", naive,
	       library);
}

static int body(enum world w, const char *top)
{
	world = world_names[w];
	masked_by_container_null(top);
	console_bound_through_link(top);
	target_made_through_link(top);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

int main(void)
{
	return world_run_each(body, NULL, 0, "mount namespaces and mounts");
}
