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
#include "suite.h"

#define B RESOLVE_BENEATH
#define R RESOLVE_IN_ROOT

static char top[] = "/tmp/test-walk-to-last-XXXXXX";
static int root = -1; /* top/root */

static int setup(void **state)
{
	(void)state;
	if (mkdtemp(top) == NULL)
		return -1;
	char cmd[PATH_MAX + 200];

	/* root/a/b/c, root/a/file, root/a/up -> ../../.., root/a/abs ->
	 * /a/b, and outside the root, top/x. */
	snprintf(cmd, sizeof cmd,
		 "cd %s && mkdir -p root/a/b/c x && touch root/a/file && "
		 "ln -s ../../.. root/a/up && ln -s /a/b root/a/abs",
		 top);
	if (system(cmd) != 0)
		return -1;
	root = open(top, O_PATH | O_DIRECTORY | O_CLOEXEC);
	int fd = openat(root, "root", O_PATH | O_DIRECTORY | O_CLOEXEC);

	close(root);
	root = fd;
	return root < 0 ? -1 : 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 20];

	(void)state;
	close(root);
	snprintf(cmd, sizeof cmd, "rm -rf %s", top);
	return system(cmd) == 0 ? 0 : -1;
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
 * beneath the root, resolved the same way). 0 or the walk's -errno. */
struct stand {
	char name[NAME_MAX + 1];
	bool trailing_slash;
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
						 sizeof how);
		struct stat mine, its;

		assert_true(kernel >= 0);
		assert_int_equal(fstat(libexecveat_walk_parent(&w), &mine), 0);
		assert_int_equal(fstat(kernel, &its), 0);
		close(kernel);
		at->parent_is_kernels = mine.st_dev == its.st_dev &&
					mine.st_ino == its.st_ino;
		snprintf(at->name, sizeof at->name, "%s", w.comp.name);
		at->trailing_slash = w.comp.trailing_slash;
	}
	libexecveat_walk_end(&w);
	assert_int_equal(open_fds(), fds_before);
	return err;
}

static void stands_in_the_directory_of_the_last_name(void **state)
{
	struct stand at;

	(void)state;
	assert_int_equal(walk_to_last("a/b/c", R, "a/b", &at), 0);
	assert_true(at.parent_is_kernels);
	assert_string_equal(at.name, "c");
	assert_false(at.trailing_slash);
}

static void leaves_the_last_name_unlooked_up(void **state)
{
	struct stand at;

	(void)state;
	/* A name that does not exist, and a link, which is not followed. */
	assert_int_equal(walk_to_last("a/b/new", B, "a/b", &at), 0);
	assert_string_equal(at.name, "new");
	assert_int_equal(walk_to_last("a/up", B, "a", &at), 0);
	assert_true(at.parent_is_kernels);
	assert_string_equal(at.name, "up");
}

static void keeps_dotdot_and_absolute_links_in_the_root(void **state)
{
	struct stand at;

	(void)state;
	assert_int_equal(walk_to_last("../../a/up/a/abs/c/name", R, "/a/b/c",
				      &at),
			 0);
	assert_true(at.parent_is_kernels);
	assert_string_equal(at.name, "name");
}

static void refuses_an_escape_beneath(void **state)
{
	struct stand at;

	(void)state;
	assert_int_equal(walk_to_last("../x/name", B, NULL, &at), -EXDEV);
	assert_int_equal(walk_to_last("a/up/x/name", B, NULL, &at), -EXDEV);
	assert_int_equal(walk_to_last("a/abs/name", B, NULL, &at), -EXDEV);
}

static void notes_a_trailing_slash(void **state)
{
	struct stand at;

	(void)state;
	assert_int_equal(walk_to_last("a/b//", R, "a", &at), 0);
	assert_true(at.parent_is_kernels);
	assert_string_equal(at.name, "b");
	assert_true(at.trailing_slash);
}

static void stands_in_the_root_as_dot_for_slashes_only(void **state)
{
	struct stand at;

	(void)state;
	assert_int_equal(walk_to_last("//", R, ".", &at), 0);
	assert_true(at.parent_is_kernels);
	assert_string_equal(at.name, ".");
}

static void fails_as_the_kernel_on_the_way(void **state)
{
	struct stand at;

	(void)state;
	assert_int_equal(walk_to_last("a/missing/name", R, NULL, &at),
			 -ENOENT);
	assert_int_equal(walk_to_last("a/file/name", R, NULL, &at), -ENOTDIR);
}

static void refuses_an_empty_or_overlong_path(void **state)
{
	static char overlong[PATH_MAX + 1];
	struct stand at;

	(void)state;
	memset(overlong, 'a', PATH_MAX);
	assert_int_equal(walk_to_last("", R, NULL, &at), -ENOENT);
	assert_int_equal(walk_to_last(overlong, R, NULL, &at), -ENAMETOOLONG);
}

static const struct CMUnitTest cases[] = {
	cmocka_unit_test(stands_in_the_directory_of_the_last_name),
	cmocka_unit_test(leaves_the_last_name_unlooked_up),
	cmocka_unit_test(keeps_dotdot_and_absolute_links_in_the_root),
	cmocka_unit_test(refuses_an_escape_beneath),
	cmocka_unit_test(notes_a_trailing_slash),
	cmocka_unit_test(stands_in_the_root_as_dot_for_slashes_only),
	cmocka_unit_test(fails_as_the_kernel_on_the_way),
	cmocka_unit_test(refuses_an_empty_or_overlong_path),
};

int main(void)
{
	return RUN_SUITE(cases, setup, teardown);
}
