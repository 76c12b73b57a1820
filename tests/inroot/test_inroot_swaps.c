/*
 * An attacker's move at exactly the moment between two of the library's
 * system calls: the test defines unlinkat and mkdirat itself, so that the
 * shared library's calls reach these first, and each makes its move right
 * after the real call, once. Each case has a victim directory beside the
 * root, which the move links to; nothing in it may be touched.
 *
 * - remove_all "x/", x swapped for a link to the victim after unlinkat
 *   says EISDIR: a trailing slash makes open follow a last link even
 *   with O_NOFOLLOW, from the process's root;
 * - remove_all "x", the same swap: the link is removed, not followed;
 * - mkdir_all "a/b", a swapped for a link to the victim after mkdirat
 *   made it: b is made inside the root (where the link leads there) or
 *   not at all, never in the victim.
 *
 * Needs the shared library (an executable's definitions come first only
 * for it). Run as any user; prints "ok"/"not ok" lines; exit 1 on a
 * failure.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inroot.h"
#include "verdicts.h"

static char top[] = "/tmp/test-inroot-swaps.XXXXXX";

/* The move to make, once, after the real call on this name. */
static struct {
	const char *after_unlinkat;
	const char *after_mkdirat;
	bool made;
} move;

/* name in dir becomes a symlink to the victim beside the root. */
static void swap_for_link(int dir, const char *name)
{
	char moved[64], victim[sizeof top + 16];

	snprintf(moved, sizeof moved, "%s.moved", name);
	snprintf(victim, sizeof victim, "%s/victim", top);
	if (renameat(dir, name, dir, moved) != 0 ||
	    symlinkat(victim, dir, name) != 0) {
		perror("the move");
		exit(2);
	}
	move.made = true;
}

int unlinkat(int dir, const char *name, int flags)
{
	static int (*real)(int, const char *, int);
	int r, saved;

	if (real == NULL)
		real = (int (*)(int, const char *, int))dlsym(RTLD_NEXT,
							      "unlinkat");
	r = real(dir, name, flags);
	saved = errno;
	if (r < 0 && errno == EISDIR && !move.made && move.after_unlinkat &&
	    strncmp(name, move.after_unlinkat, 1) == 0)
		swap_for_link(dir, move.after_unlinkat);
	errno = saved;
	return r;
}

int mkdirat(int dir, const char *name, mode_t mode)
{
	static int (*real)(int, const char *, mode_t);
	int r, saved;

	if (real == NULL)
		real = (int (*)(int, const char *, mode_t))dlsym(RTLD_NEXT,
								 "mkdirat");
	r = real(dir, name, mode);
	saved = errno;
	if (r == 0 && !move.made && move.after_mkdirat &&
	    strcmp(name, move.after_mkdirat) == 0)
		swap_for_link(dir, name);
	errno = saved;
	return r;
}

static int sh(const char *fmt)
{
	char cmd[512];

	snprintf(cmd, sizeof cmd, fmt, top, top, top, top);
	return system(cmd);
}

/* The root and the victim, afresh: root/x/junk, victim/precious. */
static int fresh(void)
{
	return sh("rm -rf %s/root %s/victim && mkdir -p %s/root/x %s/victim") ||
	       sh("touch %s/root/x/junk %s/victim/precious");
}

static bool victim_untouched(void)
{
	char path[sizeof top + 32];
	struct stat st;

	snprintf(path, sizeof path, "%s/victim/precious", top);
	if (stat(path, &st) != 0)
		return false;
	snprintf(path, sizeof path, "%s/victim/b", top);
	return lstat(path, &st) != 0;
}

static int open_root(void)
{
	char path[sizeof top + 8];

	snprintf(path, sizeof path, "%s/root", top);
	return open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

static void remove_all_swapped(const char *path)
{
	char name[64], detail[160];
	int root, r;

	snprintf(name, sizeof name, "remove_all \"%s\", x swapped for a link",
		 path);
	if (fresh() != 0) {
		verdict(false, name, "-", "the tree was not made");
		return;
	}
	move.after_unlinkat = "x";
	move.after_mkdirat = NULL;
	move.made = false;
	root = open_root();
	r = inroot_remove_all(root, path);
	snprintf(detail, sizeof detail, "answered %d (%s), moved: %s, victim "
		 "%s", r, r < 0 ? strerror(errno) : "-", move.made ? "yes" : "no",
		 victim_untouched() ? "untouched" : "EMPTIED");
	verdict(move.made && victim_untouched(), name, "-", detail);
	close(root);
}

static void mkdir_all_swapped(void)
{
	char detail[160];
	int root, fd;

	if (fresh() != 0) {
		verdict(false, "mkdir_all a/b", "-", "the tree was not made");
		return;
	}
	move.after_unlinkat = NULL;
	move.after_mkdirat = "a";
	move.made = false;
	root = open_root();
	fd = inroot_mkdir_all(root, "a/b", 0755);
	snprintf(detail, sizeof detail, "answered %d (%s), moved: %s, victim "
		 "%s", fd, fd < 0 ? strerror(errno) : "-",
		 move.made ? "yes" : "no",
		 victim_untouched() ? "untouched" : "GAINED b");
	verdict(move.made && victim_untouched(),
		"mkdir_all \"a/b\", a swapped for a link after mkdirat", "-",
		detail);
	if (fd >= 0)
		close(fd);
	close(root);
}

int main(void)
{
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	remove_all_swapped("x/");
	remove_all_swapped("x");
	mkdir_all_swapped();
	sh("rm -rf %s");
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
