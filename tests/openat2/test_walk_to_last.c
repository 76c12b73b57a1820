/*
 * The walk as operations beneath a root use it (src/resolve/walk.h):
 * begin, walk every component but the last, act on the last name in the
 * directory held, end. Each test asserts where the walk stands against
 * the kernel's own answer for the same directory (openat2 of all but the
 * last name, O_PATH), and that end leaves no fd behind.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "openat2_again.h"
#include "resolve/walk.h"
#include "scratch_dir.h"
#include "suite.h"

#define B RESOLVE_BENEATH
#define R RESOLVE_IN_ROOT

static char top[] = "/tmp/test-walk-to-last-XXXXXX";
static int top_fd = -1;
static int root = -1; /* top/root */

static int setup(void **state)
{
	char cmd[PATH_MAX + 200];

	(void)state;
	top_fd = scratch_dir_make(top);
	if (top_fd < 0)
		return -1;
	/* root/a/b/c, root/a/file, root/a/up -> ../../.., root/a/abs ->
	 * /a/b, and outside the root, top/x. */
	snprintf(cmd, sizeof cmd,
		 "cd %s && mkdir -p root/a/b/c x && touch root/a/file && "
		 "ln -s ../../.. root/a/up && ln -s /a/b root/a/abs",
		 top);
	if (system(cmd) != 0)
		return -1;
	root = openat(top_fd, "root", O_PATH | O_DIRECTORY | O_CLOEXEC);
	return root < 0 ? -1 : 0;
}

static int teardown(void **state)
{
	(void)state;
	close(root);
	return scratch_dir_remove(top, top_fd);
}

/* How many fds the process has open, counted through fcntl. */
static int open_fds(void)
{
	int n = 0;

	for (int fd = 0; fd < 1024; fd++)
		n += fcntl(fd, F_GETFD) >= 0;
	return n;
}

/* Where a walk to the last name of path stands: the name, and whether the
 * directory held is the one the kernel's openat2 names by parent (a path
 * beneath the root, resolved the same way, without "..": no rename
 * elsewhere makes it EAGAIN). 0 or the walk's -errno. */
struct stand {
	char name[NAME_MAX + 1];
	bool trailing_slash;
	enum last_kind kind;
	bool parent_is_kernels;
};

static int walk_to_last(const char *path, unsigned int resolve,
			const char *kernel_parent, struct stand *at)
{
	const struct request req = { .resolve = resolve };
	int fds_before = open_fds();
	struct walk w;
	int err = libexecveat_walk_begin(&w, root, path, &req);

	if (err == 0)
		err = libexecveat_walk_to_last(&w);
	if (err == 0) {
		struct open_how how = { .flags = O_PATH | O_DIRECTORY,
					.resolve = resolve };
		int kernel = (int)kernel_openat2(root, kernel_parent, &how,
						 sizeof how, NULL);
		struct stat mine, its;

		assert_true(kernel >= 0);
		assert_int_equal(fstat(libexecveat_walk_parent(&w), &mine), 0);
		assert_int_equal(fstat(kernel, &its), 0);
		close(kernel);
		at->parent_is_kernels = mine.st_dev == its.st_dev &&
					mine.st_ino == its.st_ino;
		snprintf(at->name, sizeof at->name, "%s", w.comp.name);
		at->trailing_slash = w.comp.trailing_slash;
		at->kind = w.last_kind;
	}
	libexecveat_walk_end(&w);
	assert_int_equal(open_fds(), fds_before);
	return err;
}

/* Whether slashes follow the last name. */
enum slashes { NO_SLASH_AFTER, SLASHES_AFTER };

/* The walk of path stands where the kernel's openat2 of kernel_parent
 * does, before the last name, name, of that kind. */
static void expect_stand_before(const char *path, unsigned int resolve,
				const char *kernel_parent, const char *name,
				enum last_kind kind, enum slashes slashes)
{
	struct stand at;

	assert_int_equal(walk_to_last(path, resolve, kernel_parent, &at), 0);
	assert_true(at.parent_is_kernels);
	assert_string_equal(at.name, name);
	assert_int_equal(at.kind, kind);
	assert_int_equal(at.trailing_slash, slashes == SLASHES_AFTER);
}

/* The same, before a name to act on. */
static void expect_stand(const char *path, unsigned int resolve,
			 const char *kernel_parent, const char *name,
			 enum slashes slashes)
{
	expect_stand_before(path, resolve, kernel_parent, name, LAST_NAME,
			    slashes);
}

static void expect_failure(const char *path, unsigned int resolve, int err)
{
	struct stand at;

	assert_int_equal(walk_to_last(path, resolve, NULL, &at), -err);
}

static void stands_in_the_directory_of_the_last_name(void **state)
{
	(void)state;
	expect_stand("a/b/c", R, "a/b", "c", NO_SLASH_AFTER);
}

static void leaves_the_last_name_unlooked_up(void **state)
{
	(void)state;
	/* A name that does not exist, and a link, which is not followed. */
	expect_stand("a/b/new", B, "a/b", "new", NO_SLASH_AFTER);
	expect_stand("a/up", B, "a", "up", NO_SLASH_AFTER);
}

static void keeps_dotdot_and_absolute_links_in_the_root(void **state)
{
	(void)state;
	expect_stand("../../a/up/a/abs/c/name", R, "/a/b/c", "name",
		     NO_SLASH_AFTER);
}

static void refuses_an_escape_beneath(void **state)
{
	(void)state;
	expect_failure("../x/name", B, EXDEV);
	expect_failure("a/up/x/name", B, EXDEV);
	expect_failure("a/abs/name", B, EXDEV);
}

static void notes_a_trailing_slash(void **state)
{
	(void)state;
	expect_stand("a/b//", R, "a", "b", SLASHES_AFTER);
}

static void stands_in_the_root_as_dot_for_slashes_only(void **state)
{
	(void)state;
	expect_stand_before("//", R, ".", ".", LAST_DOT, NO_SLASH_AFTER);
}

static void leaves_a_last_dot_as_the_directory_itself(void **state)
{
	(void)state;
	expect_stand_before("a/b/.", R, "a/b", ".", LAST_DOT, NO_SLASH_AFTER);
}

/* The kernel is never handed a "..": it is walked, inside the root, and
 * the operation is left "." in the directory it leads to. */
static void walks_a_last_dotdot_inside_the_root(void **state)
{
	(void)state;
	expect_stand_before("a/b/..", R, "a", ".", LAST_DOTDOT, NO_SLASH_AFTER);
	expect_stand_before("a/..", B, ".", ".", LAST_DOTDOT, NO_SLASH_AFTER);
	expect_stand_before("..", R, ".", ".", LAST_DOTDOT, NO_SLASH_AFTER);
	expect_stand_before("a/up/..", R, ".", ".", LAST_DOTDOT,
			    NO_SLASH_AFTER);
	expect_failure("..", B, EXDEV);
}

static void fails_as_the_kernel_on_the_way(void **state)
{
	(void)state;
	expect_failure("a/missing/name", R, ENOENT);
	expect_failure("a/file/name", R, ENOTDIR);
}

static void refuses_an_empty_or_overlong_path(void **state)
{
	static char overlong[PATH_MAX + 1];

	(void)state;
	memset(overlong, 'a', PATH_MAX);
	expect_failure("", R, ENOENT);
	expect_failure(overlong, R, ENAMETOOLONG);
}

static const struct CMUnitTest cases[] = {
	cmocka_unit_test(stands_in_the_directory_of_the_last_name),
	cmocka_unit_test(leaves_the_last_name_unlooked_up),
	cmocka_unit_test(keeps_dotdot_and_absolute_links_in_the_root),
	cmocka_unit_test(refuses_an_escape_beneath),
	cmocka_unit_test(notes_a_trailing_slash),
	cmocka_unit_test(stands_in_the_root_as_dot_for_slashes_only),
	cmocka_unit_test(leaves_a_last_dot_as_the_directory_itself),
	cmocka_unit_test(walks_a_last_dotdot_inside_the_root),
	cmocka_unit_test(fails_as_the_kernel_on_the_way),
	cmocka_unit_test(refuses_an_empty_or_overlong_path),
};

int main(void)
{
	return RUN_SUITE(cases, setup, teardown);
}
