/*
 * openat2's fallback against an attacker who acts between two system
 * calls of one step. The resolver is built here with a call-out at those
 * moments (EXECVEAT_RESOLVE_TEST_HOOKS, src/resolve/moment.h), and each
 * test makes its move there, every time, instead of hoping a race lands
 * in the window. Each asserts what the kernel's openat2 would answer in
 * the world the move leaves, and that nothing outside the answer was
 * opened, truncated or changed. Needs root (chown, uids).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "openat2_oracle.h"
#include "scratch_dir.h"
#include "resolve/walk.h"

#define NOBODY 65534
#define DEPTH 70 /* deeper than the levels the walk holds (HELD_MAX) */

static char top[] = "/tmp/resolve-attacks-XXXXXX";
static int top_fd = -1;

/* The move a test makes, and where. */
static enum resolve_moment move_at;
static const char *move_on_name; /* NULL: any name */
static void (*move)(int dirfd, const char *name);
static int moves;

void libexecveat_resolve_test_hook(enum resolve_moment moment, int dirfd,
				   const char *name)
{
	if (move == NULL || moment != move_at ||
	    (move_on_name != NULL && strcmp(name, move_on_name) != 0))
		return;
	moves++;
	move(dirfd, name);
}

static void arm(enum resolve_moment moment, const char *name,
		void (*what)(int dirfd, const char *name))
{
	move_at = moment;
	move_on_name = name;
	move = what;
	moves = 0;
}

static int resolve(int dirfd, const char *path, int flags,
		   unsigned int resolve_flags)
{
	struct open_how how = { .flags = (uint64_t)flags,
				.resolve = resolve_flags };

	return openat2_resolver_side(dirfd, path, &how);
}

/* The resolver's answer (the hook armed makes its move), then the
 * kernel's in the world the move left (openat2_oracle.h). */
static struct openat2_answers both_answers(int dirfd, const char *path,
					   int flags,
					   unsigned int resolve_flags)
{
	struct open_how how = { .flags = (uint64_t)flags,
				.resolve = resolve_flags };

	return openat2_oracle(openat2_resolver_side, dirfd, path, &how);
}

static void run(const char *what)
{
	if (system(what) != 0)
		fail_msg("%s: failed", what);
}

static int make_top(void **state)
{
	(void)state;
	top_fd = scratch_dir_make(top);
	return top_fd < 0 ? -1 : 0;
}

static int remove_top(void **state)
{
	(void)state;
	return scratch_dir_remove(top, top_fd);
}

/* Each test's tree is made afresh and removed after. */
static int empty_tree(void **state)
{
	char cmd[2 * sizeof top + 32];

	(void)state;
	move = NULL;
	snprintf(cmd, sizeof cmd, "rm -rf %s/* && chmod 0755 %s", top, top);
	return system(cmd) == 0 ? 0 : -1;
}

/* Runs body as nobody in a child, which an alarm ends if it hangs:
 * its exit status, or 128 + the signal. */
static int as_nobody(int (*body)(void))
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		alarm(10);
		if (setgroups(0, NULL) < 0 ||
		    setresgid(NOBODY, NOBODY, NOBODY) < 0 ||
		    setresuid(NOBODY, NOBODY, NOBODY) < 0)
			_exit(99);
		_exit(body());
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) :
				   128 + WTERMSIG(status);
}

static void exchange(int dirfd, const char *a, const char *b)
{
	if (renameat2(dirfd, a, dirfd, b, RENAME_EXCHANGE) < 0) {
		perror("exchange");
		_exit(98);
	}
}

/*
 *   p/          nobody's
 *   p/dir/      root's, 0744: nobody may open it, not search it
 *   p/fifo      put in dir's place, as the last step opens "p/dir/"
 *   p/file      the same, a file holding "keep"
 */
static void make_unsearchable_dir(void)
{
	char cmd[4 * sizeof top + 256];

	snprintf(cmd, sizeof cmd,
		 "cd %s && mkdir p p/dir && chown %d p && chmod 0744 p/dir && "
		 "mkfifo -m 0666 p/fifo && printf keep >p/file && "
		 "chmod 0666 p/file",
		 top, NOBODY);
	run(cmd);
}

static void fifo_into_place(int dirfd, const char *name)
{
	exchange(dirfd, "fifo", name);
}

static void file_into_place(int dirfd, const char *name)
{
	exchange(dirfd, "file", name);
}

static int open_slash_dir_with_fifo_there(void)
{
	struct openat2_answers a;

	arm(BEFORE_LAST_OPEN, "dir", fifo_into_place);
	a = both_answers(top_fd, "p/dir/", O_RDONLY, RESOLVE_BENEATH);
	if (moves != 1 || a.fallback.err != ENOTDIR)
		return 1;
	/* And the kernel, in the world the move left: the same. */
	return a.kernel.err == ENOTDIR ? 0 : 2;
}

/* A directory named with a trailing slash is opened O_DIRECTORY: a FIFO
 * put in its place is refused, not opened (which would hang here). */
static void a_trailing_slash_refuses_a_fifo_put_in_the_directorys_place(
	void **state)
{
	(void)state;
	make_unsearchable_dir();
	assert_int_equal(as_nobody(open_slash_dir_with_fifo_there), 0);
}

static int truncate_slash_dir_with_file_there(void)
{
	struct openat2_answers a;
	struct stat st;

	arm(BEFORE_LAST_OPEN, "dir", file_into_place);
	a = both_answers(top_fd, "p/dir/", O_WRONLY | O_TRUNC,
			 RESOLVE_BENEATH);
	if (moves != 1 || a.fallback.err != ENOTDIR)
		return 1;
	/* Neither side opened it, so neither truncated it. */
	if (fstatat(top_fd, "p/dir", &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    !S_ISREG(st.st_mode) || st.st_size != 4)
		return 2; /* the file was opened, and truncated */
	return a.kernel.err == ENOTDIR ? 0 : 3;
}

/* The same with O_WRONLY|O_TRUNC: a file put in the directory's place is
 * refused, and keeps its bytes. */
static void a_trailing_slash_never_truncates_a_file_put_in_its_place(
	void **state)
{
	(void)state;
	make_unsearchable_dir();
	assert_int_equal(as_nobody(truncate_slash_dir_with_file_there), 0);
}

/*
 *   s -> gone   a link, exchanged for sdir, a directory holding f, between
 *               the step's open (ENOTDIR: a link) and its readlinkat
 */
static void link_into_directory(int dirfd, const char *name)
{
	exchange(dirfd, "sdir", name);
}

/* The kernel sees a link or a directory there, never "not a directory":
 * the walk looks again and goes into the directory. */
static void a_link_turned_directory_is_walked_into(void **state)
{
	struct stat want, got;
	int fd;

	(void)state;
	assert_int_equal(symlinkat("gone", top_fd, "s"), 0);
	assert_int_equal(mkdirat(top_fd, "sdir", 0755), 0);
	fd = openat(top_fd, "sdir/f", O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &want), 0);
	close(fd);
	arm(BEFORE_READLINK, "s", link_into_directory);
	fd = resolve(top_fd, "s/f", O_RDONLY, RESOLVE_BENEATH);
	if (fd < 0)
		fail_msg("s/f: %s, expected the file in the directory",
			 strerror(errno));
	assert_int_equal(moves, 1);
	assert_int_equal(fstat(fd, &got), 0);
	assert_int_equal(got.st_ino, want.st_ino);
	close(fd);
}

/*
 * A magic link's target, judged under RESOLVE_NO_XDEV (procfs, the link's
 * own mount), is what is opened, whatever the link names by then: another
 * thread moves a file of another mount onto the fd number.
 */
static int magic_fd = -1, victim_fd = -1;

static void victim_onto_magic_fd(int dirfd, const char *name)
{
	(void)dirfd, (void)name;
	if (dup2(victim_fd, magic_fd) < 0)
		_exit(97);
}

static void no_xdev_opens_the_magic_links_target_that_was_judged(
	void **state)
{
	struct stat judged, got, victim;
	char name[16];
	int fd, fd_dir = open("/proc/self/fd", O_PATH | O_DIRECTORY | O_CLOEXEC);

	(void)state;
	if (fd_dir < 0)
		skip();
	magic_fd = open("/proc/self/comm", O_RDONLY | O_CLOEXEC);
	victim_fd = openat(top_fd, "victim", O_CREAT | O_RDWR | O_CLOEXEC, 0644);
	assert_true(magic_fd >= 0 && victim_fd >= 0);
	assert_int_equal(write(victim_fd, "keep", 4), 4);
	assert_int_equal(fstat(magic_fd, &judged), 0);
	snprintf(name, sizeof name, "%d", magic_fd);
	arm(BEFORE_MAGIC_REOPEN, NULL, victim_onto_magic_fd);
	fd = resolve(fd_dir, name, O_WRONLY | O_TRUNC | O_CLOEXEC,
		     RESOLVE_NO_XDEV);
	if (fd < 0)
		fail_msg("fd/%s: %s, expected the file judged", name,
			 strerror(errno));
	assert_int_equal(moves, 1);
	assert_int_equal(fstat(fd, &got), 0);
	assert_int_equal(got.st_dev, judged.st_dev);
	assert_int_equal(got.st_ino, judged.st_ino);
	assert_int_equal(fstat(victim_fd, &victim), 0);
	assert_int_equal(victim.st_size, 4);
	close(fd);
	close(magic_fd);
	close(victim_fd);
	close(fd_dir);
}

/*
 *   root/a/x1/.../x70   deeper than the walk holds
 *   out/                outside root, exchanged with x5, the directory
 *                       from which ".." must fetch a level let go
 *   secret              beside root
 */
static ino_t moved_ino;

static void level_out_of_root(int dirfd, const char *name)
{
	struct stat st;

	(void)name;
	if (fstat(dirfd, &st) < 0 || st.st_ino != moved_ino)
		return;
	/* dirfd is root/a/x1/.../x5: put it where out was. */
	char from[32];
	int parent = openat(top_fd, "root/a/x1/x2/x3/x4",
			    O_PATH | O_DIRECTORY | O_CLOEXEC);

	snprintf(from, sizeof from, "x5");
	if (parent < 0 ||
	    renameat2(parent, from, top_fd, "out", RENAME_EXCHANGE) < 0)
		_exit(96);
	close(parent);
}

static char *deep_then_up(int up, const char *then)
{
	static char path[4 * (DEPTH + 70) + 16];
	size_t len = (size_t)sprintf(path, "a");

	for (int i = 1; i <= DEPTH; i++)
		len += (size_t)sprintf(path + len, "/x%d", i);
	for (int i = 0; i < up; i++)
		len += (size_t)sprintf(path + len, "/..");
	sprintf(path + len, "%s", then);
	return path;
}

/* The tree above; top/secret beside root. The fd of root. */
static int make_deep_tree(void)
{
	char cmd[2 * sizeof top + 64];
	struct stat st;
	int root, d;

	snprintf(cmd, sizeof cmd, "mkdir -p %s/out %s/root/a && touch %s/secret",
		 top, top, top);
	run(cmd);
	root = openat(top_fd, "root", O_PATH | O_DIRECTORY | O_CLOEXEC);
	d = openat(root, "a", O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_true(root >= 0 && d >= 0);
	for (int i = 1; i <= DEPTH; i++) {
		char name[8];
		int next;

		snprintf(name, sizeof name, "x%d", i);
		assert_int_equal(mkdirat(d, name, 0755), 0);
		next = openat(d, name, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (i == 5) {
			assert_int_equal(fstat(next, &st), 0);
			moved_ino = st.st_ino;
		}
		close(d);
		d = next;
	}
	close(d);
	return root;
}

/* Up to x4 (level 5 from the root), which the walk let go on the way down
 * (it holds HELD_MAX levels): so many "..". */
#define UP_TO_X4 (DEPTH + 1 - 5)

/*
 * ".." on the way back to a level the walk let go: the kernel's ".."
 * from the directory the walk stands in, accepted only if it is that
 * level. The directory is moved out of the root just before, and its ".."
 * is then the directory that holds secret: EAGAIN, never secret.
 */
static void dotdot_to_a_level_let_go_never_leaves_the_root(void **state)
{
	int root = make_deep_tree(), fd;

	(void)state;
	arm(BEFORE_REFETCH, NULL, level_out_of_root);
	fd = resolve(root, deep_then_up(UP_TO_X4, "/secret"), O_RDONLY,
		     RESOLVE_BENEATH);
	if (fd >= 0)
		fail_msg("opened a file outside the root");
	assert_int_equal(errno, EAGAIN);
	assert_int_equal(moves, UP_TO_X4 - (HELD_MAX - 1));
	close(root);
}

/*
 * The same as the last component: the directory outside is never opened
 * with the caller's flags on the way (inotify sees no open of it), not
 * even to be refused after.
 */
static void a_last_dotdot_never_opens_outside(void **state)
{
	char events[4096] __attribute__((aligned(8)));
	int root = make_deep_tree(), watch, fd;
	ssize_t n;

	(void)state;
	watch = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	assert_true(watch >= 0);
	assert_true(inotify_add_watch(watch, top, IN_OPEN) >= 0);
	arm(BEFORE_LAST_OPEN, "..", level_out_of_root);
	fd = resolve(root, deep_then_up(UP_TO_X4, ""), O_RDONLY | O_DIRECTORY,
		     RESOLVE_BENEATH);
	if (fd >= 0)
		fail_msg("opened a level no longer on the way down");
	assert_int_equal(errno, EAGAIN);
	assert_int_equal(moves, 1);
	/* An event without a name is an open of top itself. */
	n = read(watch, events, sizeof events);
	for (ssize_t at = 0; at < n;) {
		const struct inotify_event *e =
			(const struct inotify_event *)(events + at);

		if (e->len == 0)
			fail_msg("the directory outside the root was opened");
		at += (ssize_t)(sizeof *e + e->len);
	}
	close(watch);
	close(root);
}

/* The move: another thread's chdir, to the tree's "other". */
static void chdir_to_other(int dirfd, const char *name)
{
	(void)dirfd, (void)name;
	if (fchdir(top_fd) != 0 || chdir("other") != 0)
		fail_msg("chdir");
}

/*
 * The kernel resolves a relative path in the cwd the call began with; a
 * chdir in the middle of the walk (before its last open) must not move
 * the rest of it: "sub/../f" is the first cwd's f, for every resolve
 * flag, and never the f of the new cwd. The process's cwd is put back.
 */
static void a_chdir_in_the_middle_moves_nothing(void **state)
{
	static const unsigned int flags[] = { RESOLVE_BENEATH, RESOLVE_IN_ROOT,
					      RESOLVE_NO_SYMLINKS };
	int old_cwd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	struct stat want, got;

	(void)state;
	assert_true(old_cwd >= 0);
	assert_int_equal(mkdirat(top_fd, "first", 0755), 0);
	assert_int_equal(mkdirat(top_fd, "first/sub", 0755), 0);
	assert_int_equal(mkdirat(top_fd, "other", 0755), 0);
	assert_int_equal(mkdirat(top_fd, "other/sub", 0755), 0);
	close(openat(top_fd, "first/f", O_CREAT | O_WRONLY | O_CLOEXEC, 0644));
	close(openat(top_fd, "other/f", O_CREAT | O_WRONLY | O_CLOEXEC, 0644));
	assert_int_equal(fstatat(top_fd, "first/f", &want, 0), 0);
	for (size_t i = 0; i < sizeof flags / sizeof *flags; i++) {
		int fd;

		assert_int_equal(fchdir(top_fd), 0);
		assert_int_equal(chdir("first"), 0);
		arm(BEFORE_LAST_OPEN, "f", chdir_to_other);
		fd = resolve(AT_FDCWD, "sub/../f", O_RDONLY | O_CLOEXEC, flags[i]);
		assert_int_equal(moves, 1);
		assert_true(fd >= 0);
		assert_int_equal(fstat(fd, &got), 0);
		if (got.st_ino != want.st_ino || got.st_dev != want.st_dev)
			fail_msg("resolve %#x: opened the new cwd's f", flags[i]);
		close(fd);
	}
	move = NULL;
	assert_int_equal(fchdir(old_cwd), 0);
	close(old_cwd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(
			a_trailing_slash_refuses_a_fifo_put_in_the_directorys_place,
			empty_tree),
		cmocka_unit_test_setup(
			a_trailing_slash_never_truncates_a_file_put_in_its_place,
			empty_tree),
		cmocka_unit_test_setup(a_link_turned_directory_is_walked_into,
				       empty_tree),
		cmocka_unit_test_setup(
			no_xdev_opens_the_magic_links_target_that_was_judged,
			empty_tree),
		cmocka_unit_test_setup(
			dotdot_to_a_level_let_go_never_leaves_the_root,
			empty_tree),
		cmocka_unit_test_setup(a_last_dotdot_never_opens_outside,
				       empty_tree),
		cmocka_unit_test_setup(a_chdir_in_the_middle_moves_nothing,
				       empty_tree),
	};

	if (geteuid() != 0) {
		printf("SKIP: needs root (other users' files, uids)\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, make_top, remove_top);
}
