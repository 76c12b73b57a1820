/*
 * openat2's fallback, step by step: each test drives one step of the walk
 * (a name, a "..", a link, a jump to the root, the last component) through
 * libexecveat_resolve_open and asserts the kernel's answer, which
 * openat2(2) documents and the kernel's own openat2 gives here too. Where
 * an answer is compared with the kernel's, the walk is asked as openat2's
 * fallback asks it (libexecveat_resolve_open_as_openat2), with the flags
 * the system call adds: a 32-bit program's fd carries O_LARGEFILE from
 * either.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
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
#include "refuse_call.h"
#include "resolve/resolve.h"

#define B RESOLVE_BENEATH
#define R RESOLVE_IN_ROOT
#define DEEP 2000 /* directories in the deep chain: d/d/.../d */
#define F_DEPTH 900 /* where it holds f; g is at its bottom */

static char top[] = "/tmp/test-resolve-XXXXXX";
static int root = -1; /* top/root */

static int resolve(const char *path, uint64_t flags, uint64_t resolve_flags)
{
	struct open_how how = { .flags = flags, .resolve = resolve_flags };

	if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE)
		how.mode = 0600;
	return openat2_resolver_side(root, path, &how);
}

/* The question, asked of the resolver and of the kernel's openat2
 * (openat2_oracle.h). */
static struct openat2_answers both_answers_at(int dirfd, const char *path,
					      uint64_t flags, uint64_t res)
{
	struct open_how how = { .flags = flags, .resolve = res };

	if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE)
		how.mode = 0600;
	return openat2_oracle(openat2_resolver_side, dirfd, path, &how);
}

/* A kernel before 5.6 has no openat2 to ask, and renames without a pause
 * elsewhere keep a scoped ".." from any answer (openat2_again.h): the
 * resolver alone is judged then, by what openat2(2) documents. */
static bool kernel_answered(const struct openat2_answers *a, const char *path)
{
	char what[80];

	snprintf(what, sizeof what, "%.60s%s", path,
		 strlen(path) > 60 ? "..." : "");
	return openat2_kernel_judges(a, what) && a->kernel.err != ENOSYS;
}

/* The resolver opens what `expected` (relative to the root, not
 * followed) is, and the kernel agrees (openat2_compare). */
static void assert_opens(const char *path, uint64_t flags, uint64_t res,
			 const char *expected)
{
	struct openat2_answers a = both_answers_at(root, path, flags, res);
	struct stat want;
	char said[256];

	assert_int_equal(fstatat(root, expected, &want, AT_SYMLINK_NOFOLLOW), 0);
	openat2_answers_describe(said, sizeof said, &a);
	if (a.fallback.err != 0 || a.fallback.dev != want.st_dev ||
	    a.fallback.ino != want.st_ino)
		fail_msg("%.60s...: %s, expected %.60s (ino %ju)", path, said,
			 expected, (uintmax_t)want.st_ino);
	if (kernel_answered(&a, path) && !openat2_agree(&a, flags))
		fail_msg("%.60s...: %s", path, said);
}

/* Both refuse, with expected. */
static void assert_refused_at(int dirfd, const char *path, uint64_t flags,
			      uint64_t res, int expected)
{
	struct openat2_answers a = both_answers_at(dirfd, path, flags, res);
	bool judged = kernel_answered(&a, path);
	char said[256];

	if (a.fallback.err != expected || (judged && a.kernel.err != expected))
		fail_msg("%s: %s, expected %s", path,
			 openat2_answers_describe(said, sizeof said, &a),
			 openat2_errno_name(expected));
}

static void assert_refused(const char *path, uint64_t flags, uint64_t res,
			   int expected)
{
	assert_refused_at(root, path, flags, res, expected);
}

static void at(int dfd, const char *what, int rc)
{
	if (rc < 0)
		fail_msg("%s: %s", what, strerror(errno));
	(void)dfd;
}

static int make_tree(void **state)
{
	int t;

	(void)state;
	if (mkdtemp(top) == NULL)
		return -1;
	t = open(top, O_PATH | O_DIRECTORY | O_CLOEXEC);
	at(t, "mkdir root", mkdirat(t, "root", 0755));
	root = openat(t, "root", O_PATH | O_DIRECTORY | O_CLOEXEC);
	at(t, "outside", close(openat(t, "outside", O_CREAT | O_WRONLY, 0644)));
	at(root, "d1", mkdirat(root, "d1", 0755));
	at(root, "d1/d2", mkdirat(root, "d1/d2", 0755));
	at(root, "file", close(openat(root, "file", O_CREAT | O_WRONLY, 0644)));
	at(root, "d1/d2/f", close(openat(root, "d1/d2/f", O_CREAT | O_WRONLY,
					 0644)));
	at(root, "abs", symlinkat("/d1", root, "abs"));
	at(root, "up", symlinkat("..", root, "up"));
	at(root, "d1/up2", symlinkat("../..", root, "d1/up2"));
	at(root, "loop1", symlinkat("loop2", root, "loop1"));
	at(root, "loop2", symlinkat("loop1", root, "loop2"));
	at(root, "dangling", symlinkat("d1/new", root, "dangling"));
	at(root, "dir_slash", symlinkat("d1/", root, "dir_slash"));
	at(root, "file_link", symlinkat("file", root, "file_link"));
	at(root, "link_link", symlinkat("file_link", root, "link_link"));
	at(root, "to_outside", symlinkat("../outside", root, "to_outside"));
	/* A chain of 41 links: l0 -> l1 -> ... -> l40 -> file. */
	for (int i = 0; i <= 40; i++) {
		char name[16], target[16];

		snprintf(name, sizeof name, "l%d", i);
		snprintf(target, sizeof target, i == 40 ? "file" : "l%d", i + 1);
		at(root, name, symlinkat(target, root, name));
	}
	/* The deep chain, and a file halfway down it. */
	int d = dup(root);

	for (int i = 0; i < DEEP; i++) {
		int next;

		at(d, "deep", mkdirat(d, "d", 0755));
		next = openat(d, "d", O_PATH | O_DIRECTORY | O_CLOEXEC);
		close(d);
		d = next;
		if (i + 1 == F_DEPTH || i + 1 == DEEP)
			at(d, "deep file",
			   close(openat(d, i + 1 == DEEP ? "g" : "f",
					O_CREAT | O_WRONLY, 0644)));
	}
	close(d);
	close(t);
	return 0;
}

static int remove_tree(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	close(root);
	snprintf(cmd, sizeof cmd, "rm -rf %s", top);
	return system(cmd) == 0 ? 0 : -1;
}

static void name_steps_into_directories(void **state)
{
	(void)state;
	assert_opens("d1/d2/f", O_RDONLY, B, "d1/d2/f");
	assert_opens("d1//d2/./f", O_RDONLY, R, "d1/d2/f");
	assert_refused("d1/missing/f", O_RDONLY, B, ENOENT);
	assert_refused("file/f", O_RDONLY, B, ENOTDIR);
}

static void dotdot_returns_to_the_directory_walked_through(void **state)
{
	(void)state;
	assert_opens("d1/d2/../../file", O_RDONLY, B, "file");
	assert_opens("d1/d2/..", O_RDONLY | O_DIRECTORY, B, "d1");
	assert_opens("d1/../d1/d2/../d2/f", O_PATH, R, "d1/d2/f");
}

static void dotdot_above_the_root(void **state)
{
	(void)state;
	assert_refused("..", O_RDONLY, B, EXDEV);
	assert_refused("d1/../../outside", O_RDONLY, B, EXDEV);
	/* IN_ROOT: ".." at the root stays there. */
	assert_opens("../../file", O_RDONLY, R, "file");
	assert_opens("..", O_RDONLY | O_DIRECTORY, R, ".");
}

static void absolute_paths_jump_to_the_root(void **state)
{
	(void)state;
	assert_refused("/d1", O_RDONLY, B, EXDEV);
	assert_opens("/d1/d2/f", O_RDONLY, R, "d1/d2/f");
	assert_opens("/", O_PATH, R, ".");
	assert_opens("//file", O_RDONLY, R, "file");
}

static void links_are_walked_under_the_same_rules(void **state)
{
	(void)state;
	assert_opens("abs/d2/f", O_RDONLY, R, "d1/d2/f");
	assert_refused("abs/d2/f", O_RDONLY, B, EXDEV);
	assert_refused("up/outside", O_RDONLY, B, EXDEV);
	assert_opens("up/file", O_RDONLY, R, "file");
	assert_opens("d1/up2/file", O_RDONLY, R, "file");
	assert_refused("to_outside", O_RDONLY, B, EXDEV);
	assert_refused("to_outside", O_RDONLY, R, ENOENT);
	assert_opens("file_link", O_RDONLY, B, "file");
}

static void forty_links_and_no_more(void **state)
{
	(void)state;
	assert_opens("l1", O_RDONLY, B, "file"); /* 40 links */
	assert_refused("l0", O_RDONLY, B, ELOOP); /* 41 */
	assert_refused("loop1", O_RDONLY, R, ELOOP);
	assert_refused("loop1/x", O_RDONLY, R, ELOOP);
}

static void no_symlinks_refuses_every_link_but_an_unfollowed_last(void **state)
{
	(void)state;
	assert_refused("file_link", O_RDONLY, RESOLVE_NO_SYMLINKS, ELOOP);
	assert_refused("abs/d2", O_PATH, RESOLVE_NO_SYMLINKS, ELOOP);
	assert_opens("file_link", O_PATH | O_NOFOLLOW, RESOLVE_NO_SYMLINKS,
		     "file_link");
	assert_refused("file_link", O_RDONLY | O_NOFOLLOW, B, ELOOP);
}

static void trailing_slash_wants_a_directory_and_follows(void **state)
{
	(void)state;
	assert_refused("file/", O_RDONLY, B, ENOTDIR);
	assert_refused("file_link/", O_PATH | O_NOFOLLOW, B, ENOTDIR);
	/* For the rest of the lookup: the link its text names too. */
	assert_refused("link_link/", O_PATH | O_NOFOLLOW, B, ENOTDIR);
	assert_opens("link_link", O_PATH | O_NOFOLLOW, B, "link_link");
	assert_opens("dir_slash", O_RDONLY, B, "d1");
	assert_opens("abs/", O_PATH | O_NOFOLLOW, R, "d1");
	assert_refused("newdir/", O_CREAT | O_WRONLY, B, EISDIR);
	assert_refused(".", O_CREAT | O_WRONLY, B, EISDIR);
}

static void creating_lands_where_the_kernel_puts_it(void **state)
{
	struct stat st;
	int fd;

	(void)state;
	/* Through a dangling link: its target, inside the root. */
	fd = resolve("dangling", O_CREAT | O_WRONLY, B);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(fstatat(root, "d1/new", &st, AT_SYMLINK_NOFOLLOW), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(unlinkat(root, "d1/new", 0), 0);
	/* O_EXCL never follows: the link exists. */
	assert_refused("dangling", O_CREAT | O_EXCL | O_WRONLY, B, EEXIST);
	assert_int_equal(fstatat(root, "d1/new", &st, 0), -1);
	/* An absolute link under IN_ROOT: from the root. */
	assert_int_equal(symlinkat("/d1/made", root, "abs_new"), 0);
	fd = resolve("abs_new", O_CREAT | O_WRONLY, R);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(unlinkat(root, "d1/made", 0), 0);
	assert_int_equal(unlinkat(root, "abs_new", 0), 0);
	/* O_TMPFILE: in the directory the path resolves to, ".." too. */
	fd = resolve("abs", O_TMPFILE | O_RDWR, R);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	close(fd);
	fd = resolve("d1/d2/..", O_TMPFILE | O_RDWR, B);
	assert_true(fd >= 0);
	close(fd);
	assert_refused("d1/..", O_CREAT | O_WRONLY, B, EISDIR);
	assert_refused("d1/..", O_CREAT | O_EXCL | O_WRONLY, B, EEXIST);
}

static void magic_links_are_refused_where_the_kernel_refuses(void **state)
{
	struct open_how how = { .flags = O_RDONLY,
				.resolve = RESOLVE_NO_MAGICLINKS };
	int proc = open("/proc/self", O_PATH | O_DIRECTORY | O_CLOEXEC);
	int fd;

	(void)state;
	if (proc < 0)
		skip();
	fd = openat2_resolver_side(proc, "fd/0", &how);
	assert_int_equal(fd, -1);
	assert_int_equal(errno, ELOOP);
	how.resolve = RESOLVE_BENEATH;
	fd = openat2_resolver_side(proc, "cwd", &how);
	assert_int_equal(fd, -1);
	assert_int_equal(errno, EXDEV);
	/* The link itself, not followed: allowed. */
	how = (struct open_how){ .flags = O_PATH | O_NOFOLLOW,
				 .resolve = RESOLVE_NO_MAGICLINKS };
	fd = openat2_resolver_side(proc, "exe", &how);
	assert_true(fd >= 0);
	close(fd);
	/* /proc/self is a plain link: followed. */
	how = (struct open_how){ .flags = O_PATH,
				 .resolve = RESOLVE_NO_MAGICLINKS };
	fd = openat2_resolver_side(AT_FDCWD, "/proc/self/fd", &how);
	assert_true(fd >= 0);
	close(fd);
	close(proc);
}

/* Under RESOLVE_NO_XDEV a magic link out of procfs is refused as it is
 * followed (EXDEV), before the last step asks what its target is: a
 * file's fd through O_DIRECTORY is EXDEV too, not ENOTDIR. */
static void a_magic_link_across_a_mount_is_refused_before_its_type(
	void **state)
{
	int proc = open("/proc/self", O_PATH | O_DIRECTORY | O_CLOEXEC);
	int file = openat(root, "file", O_RDONLY | O_CLOEXEC);
	char name[32];

	(void)state;
	if (proc < 0)
		skip();
	assert_true(file >= 0);
	snprintf(name, sizeof name, "fd/%d", file);
	assert_refused_at(proc, name, O_PATH | O_DIRECTORY, RESOLVE_NO_XDEV,
			  EXDEV);
	assert_refused_at(proc, name, O_RDONLY | O_DIRECTORY, RESOLVE_NO_XDEV,
			  EXDEV);
	close(file);
	close(proc);
}

/* A path of "d/" * n then "../" * up then name, relative to the root. */
static char *deep_path(int n, int up, const char *name)
{
	static char path[PATH_MAX + 8];
	size_t len = 0;

	for (int i = 0; i < n; i++)
		len += (size_t)sprintf(path + len, "d/");
	for (int i = 0; i < up; i++)
		len += (size_t)sprintf(path + len, "../");
	sprintf(path + len, "%s", name);
	return path;
}

/* The fd limit the deep walks run under (a handful free beside the test's
 * own), and the one the test process had: a fixture, so that the limit
 * comes back even when a test fails. */
#define SMALL_FD_LIMIT 16
static struct rlimit fd_limit_before;

static int lower_fd_limit(void **state)
{
	struct rlimit low;

	(void)state;
	if (getrlimit(RLIMIT_NOFILE, &fd_limit_before) != 0)
		return -1;
	low = (struct rlimit){ SMALL_FD_LIMIT, fd_limit_before.rlim_max };
	return setrlimit(RLIMIT_NOFILE, &low);
}

static int restore_fd_limit(void **state)
{
	(void)state;
	return setrlimit(RLIMIT_NOFILE, &fd_limit_before);
}

/* The kernel's walk has no limit of fds; the resolver holds a few and
 * proves the rest again on the way up (run under lower_fd_limit). */
static void deep_paths_under_a_small_fd_limit(void **state)
{
	struct rlimit now;
	char expected[PATH_MAX + 8];

	(void)state;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &now), 0);
	assert_int_equal(now.rlim_cur, SMALL_FD_LIMIT);
	/* 2,001 components, down only. */
	snprintf(expected, sizeof expected, "%s", deep_path(DEEP, 0, "g"));
	assert_opens(expected, O_RDONLY, B, expected);
	/* 1,200 down, 300 up: 1,501 components. */
	snprintf(expected, sizeof expected, "%s", deep_path(F_DEPTH, 0, "f"));
	assert_opens(deep_path(1200, 300, "f"), O_RDONLY, B, expected);
	assert_opens(deep_path(1200, 300, "f"), O_PATH, R, expected);
	/* All the way back up, and one more. */
	assert_opens(deep_path(800, 800, "file"), O_RDONLY, B, "file");
	assert_refused(deep_path(800, 801, "file"), O_RDONLY, B, EXDEV);
	assert_opens(deep_path(800, 801, "file"), O_RDONLY, R, "file");
}

/* PATH_MAX counts the NUL: 4,095 bytes are a path, 4,096 are too long. */
static void path_max_as_the_kernel_counts_it(void **state)
{
	char path[PATH_MAX + 1];
	size_t n = PATH_MAX - 1 - strlen("file");

	(void)state;
	for (size_t i = 0; i < n; i += 2)
		memcpy(path + i, "./", 2);
	if (n % 2)
		path[n - 1] = '/';
	strcpy(path + n, "file");
	assert_int_equal(strlen(path), PATH_MAX - 1);
	assert_opens(path, O_RDONLY, B, "file");
	memmove(path + 1, path, PATH_MAX);
	path[0] = '/';
	path[1] = '.';
	assert_int_equal(strlen(path), PATH_MAX);
	assert_refused(path + 0, O_RDONLY, R, ENAMETOOLONG);
	assert_refused("", O_RDONLY, B, ENOENT);
}

static void bad_dirfds_as_the_kernel(void **state)
{
	struct open_how how = { .flags = O_RDONLY, .resolve = B };
	int file = openat(root, "file", O_RDONLY | O_CLOEXEC);

	(void)state;
	assert_int_equal(openat2_resolver_side(-1, "file", &how), -1);
	assert_int_equal(errno, EBADF);
	assert_int_equal(openat2_resolver_side(file, "x", &how), -1);
	assert_int_equal(errno, ENOTDIR);
	assert_int_equal(openat2_resolver_side(-1, "/x", &how), -1);
	assert_int_equal(errno, EXDEV);
	close(file);
}

static char *deep_path(int n, int up, const char *name);

/* Whether a side's answer is the file expected names (relative to the
 * root, not followed), or, for a NULL expected, the errno err. */
static bool answer_is(const struct openat2_answer *a, const char *expected,
		      int err)
{
	struct stat want;

	if (expected == NULL)
		return a->err == err;
	return a->err == 0 &&
	       fstatat(root, expected, &want, AT_SYMLINK_NOFOLLOW) == 0 &&
	       a->dev == want.st_dev && a->ino == want.st_ino;
}

/* The answer each case means (a file, or an errno), and the same answer
 * as the kernel's openat2 (not refused by the filter, which takes statx
 * only): fds to the same file, or the same errno. */
static int statx_less_mismatches(void)
{
	static const struct {
		const char *path;
		uint64_t resolve;
		const char *file; /* NULL: err */
		int err;
	} cases[] = {
		{ "d1/d2/f", B, "d1/d2/f", 0 },
		{ "d1/d2/../../file", B, "file", 0 },
		{ "..", B, NULL, EXDEV },
		{ "../../file", R, "file", 0 },
		{ "abs/d2/f", R, "d1/d2/f", 0 },
		{ "abs/d2/f", B, NULL, EXDEV },
		{ "up/file", R, "file", 0 },
		{ "l0", B, NULL, ELOOP },
		{ "l1", B, "file", 0 },
		{ "file/", B, NULL, ENOTDIR },
		{ "d1/missing", R, NULL, ENOENT },
	};
	char deep_f[PATH_MAX + 8];
	int mismatches = 0;
	size_t n = sizeof cases / sizeof *cases;

	snprintf(deep_f, sizeof deep_f, "%s", deep_path(F_DEPTH, 0, "f"));
	/* And one past the fds the walk holds, proven again with fstat. */
	for (size_t i = 0; i <= n; i++) {
		const char *path = i < n ? cases[i].path :
					   deep_path(1200, 300, "f");
		uint64_t res = i < n ? cases[i].resolve : B;
		const char *file = i < n ? cases[i].file : deep_f;
		struct openat2_answers got =
			both_answers_at(root, path, O_RDONLY, res);

		if (!answer_is(&got.fallback, file, i < n ? cases[i].err : 0) ||
		    (kernel_answered(&got, path) &&
		     !openat2_agree(&got, O_RDONLY))) {
			char said[256];

			printf("%.60s: %s\n", path,
			       openat2_answers_describe(said, sizeof said,
							&got));
			mismatches++;
		}
	}
	return mismatches;
}

/* Where statx is refused (a seccomp policy, a kernel before 4.11), the
 * walk identifies directories with fstat: the same answers. */
static void without_statx_the_same_answers(void **state)
{
	pid_t pid;
	int status;

	(void)state;
	fflush(stdout); /* what the child prints, printed once */
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int mismatches;

		if (refuse_call(SYS_statx, ENOSYS) != 0)
			_exit(2);
		mismatches = statx_less_mismatches();
		fflush(stdout);
		_exit(mismatches);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* The new fd is close-on-exec exactly when the caller asked, whichever
 * way the last step opened it (the walk's own fds always are). */
static void close_on_exec_as_asked(void **state)
{
	static const struct {
		const char *path;
		uint64_t flags;
	} cases[] = {
		{ "file_link", O_RDONLY },   { "file_link", O_PATH },
		{ "d1", O_RDONLY },	     { "dir_slash", O_RDONLY },
		{ "d1/", O_PATH },	     { "file", O_RDONLY | O_NOFOLLOW },
		{ ".", O_RDONLY },	     { "dangling", O_CREAT | O_WRONLY },
		{ "abs", O_TMPFILE | O_RDWR },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		for (int cloexec = 0; cloexec < 2; cloexec++) {
			uint64_t flags = cases[i].flags |
					 (cloexec ? O_CLOEXEC : 0);
			int fd = resolve(cases[i].path, flags, R);

			if (fd < 0)
				fail_msg("%s: %s", cases[i].path, strerror(errno));
			assert_int_equal(fcntl(fd, F_GETFD),
					 cloexec ? FD_CLOEXEC : 0);
			close(fd);
		}
	}
	unlinkat(root, "d1/new", 0);
}

/* No call sets errno to this: it is not an errno. */
#define UNTOUCHED 0x5eed

/* The walk meets failures on its way to an answer (the O_NOFOLLOW open
 * of a link: ELOOP) and opens it all the same: errno stays as the caller
 * had it, for openat2 to leave it so where it succeeds (src/answer.h). */
static void success_leaves_errno_untouched(void **state)
{
	struct open_how how = { .flags = O_RDONLY | O_CLOEXEC, .resolve = B };
	int fd;

	(void)state;
	errno = UNTOUCHED;
	fd = libexecveat_resolve_open(root, "link_link", &how);
	assert_true(fd >= 0);
	assert_int_equal(errno, UNTOUCHED);
	close(fd);
}

/* A POSIX record lock of this process's on path (relative to the root),
 * through an fd that holds it and stays open: the fd. */
static int lock_file(const char *path)
{
	struct flock lock = { .l_type = F_RDLCK, .l_whence = SEEK_SET };
	int fd = openat(root, path, O_RDONLY | O_CLOEXEC);

	assert_true(fd >= 0);
	assert_int_equal(fcntl(fd, F_SETLK, &lock), 0);
	return fd;
}

/* Whether the process still holds a POSIX lock on the file of fd: an
 * open file description's lock (F_OFD_GETLK) has another owner than the
 * process's, so the process's own lock is reported as a conflict. */
static bool lock_held(int fd)
{
	struct flock probe = { .l_type = F_WRLCK, .l_whence = SEEK_SET };

	assert_int_equal(fcntl(fd, F_OFD_GETLK, &probe), 0);
	return probe.l_type != F_UNLCK;
}

/*
 * Closing any fd of a file but an O_PATH one drops every POSIX lock the
 * process holds on it (and SQLite's locks are such): the resolver never
 * closes an fd of the answer's file, whichever step opened it.
 */
static void the_callers_record_locks_survive(void **state)
{
	static const struct {
		const char *path;
		uint64_t flags, resolve;
	} cases[] = {
		{ "d1/d2/f", O_RDONLY, B },
		{ "d1/d2/f", O_RDWR | O_NOFOLLOW, R },
		{ "abs/d2/f", O_RDONLY, R },
		{ "d1/d2/../../file", O_WRONLY, B },
		{ "link_link", O_RDONLY, RESOLVE_NO_XDEV },
		{ "l1", O_RDONLY | O_CLOEXEC, B },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		int f = lock_file("d1/d2/f"), file = lock_file("file");
		int fd = resolve(cases[i].path, cases[i].flags, cases[i].resolve);

		if (fd < 0)
			fail_msg("%s: %s", cases[i].path, strerror(errno));
		if (!lock_held(f) || !lock_held(file))
			fail_msg("%s: the lock on the file it opened is gone",
				 cases[i].path);
		/* The caller's own closes drop them, as they should. */
		close(fd);
		close(f);
		close(file);
	}
}

/* The number the next fd takes: the lowest free. */
static int lowest_free_fd(void)
{
	int fd = fcntl(root, F_DUPFD_CLOEXEC, 0);

	assert_true(fd >= 0);
	close(fd);
	return fd;
}

static void assert_lowest(int dirfd, const char *path, uint64_t flags,
			  uint64_t res)
{
	struct open_how how = { .flags = flags, .resolve = res };
	int lowest = lowest_free_fd();
	int fd = openat2_resolver_side(dirfd, path, &how);

	if (fd < 0)
		fail_msg("%s: %s", path, strerror(errno));
	if (fd != lowest)
		fail_msg("%s: fd %d, the lowest free is %d", path, fd, lowest);
	close(fd);
}

/*
 * The answer takes the lowest free number, as the kernel's would (POSIX;
 * close(1) then an open for stdout relies on it), whatever the walk held
 * while it opened it: a ".." judged above the bottom, a magic link's
 * target, a link to "..".
 */
static void the_answer_takes_the_lowest_free_fd(void **state)
{
	int d1 = openat(root, "d1", O_PATH | O_DIRECTORY | O_CLOEXEC);
	int fd_dir = open("/proc/self/fd", O_PATH | O_DIRECTORY | O_CLOEXEC);
	int comm = open("/proc/self/comm", O_RDONLY | O_CLOEXEC);
	char name[16];

	(void)state;
	assert_true(d1 >= 0 && fd_dir >= 0 && comm >= 0);
	assert_lowest(root, "d1/d2/f", O_RDONLY, B);
	assert_lowest(root, "d1/d2/../../file", O_RDONLY, R);
	assert_lowest(root, "abs/d2/f", O_PATH, R);
	assert_lowest(d1, "..", O_RDONLY, RESOLVE_NO_XDEV);
	assert_lowest(d1, "d2/..", O_RDONLY, RESOLVE_NO_XDEV);
	assert_lowest(d1, "up2", O_RDONLY, RESOLVE_NO_XDEV);
	assert_lowest(d1, "..", O_TMPFILE | O_RDWR, RESOLVE_NO_XDEV);
	snprintf(name, sizeof name, "%d", comm);
	assert_lowest(fd_dir, name, O_RDONLY, RESOLVE_NO_XDEV);
	assert_lowest(fd_dir, name, O_PATH, RESOLVE_NO_XDEV);
	close(comm);
	close(fd_dir);
	close(d1);
}

static int count_fds(void)
{
	int n = 0;

	for (int fd = 0; fd < 4096; fd++)
		n += fcntl(fd, F_GETFD) >= 0;
	return n;
}

/* Every path, failing or not, closes what it opened. */
static void no_fd_is_left_open(void **state)
{
	int before = count_fds();

	name_steps_into_directories(state);
	dotdot_above_the_root(state);
	links_are_walked_under_the_same_rules(state);
	forty_links_and_no_more(state);
	trailing_slash_wants_a_directory_and_follows(state);
	deep_paths_under_a_small_fd_limit(state);
	bad_dirfds_as_the_kernel(state);
	assert_int_equal(count_fds(), before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(name_steps_into_directories),
		cmocka_unit_test(dotdot_returns_to_the_directory_walked_through),
		cmocka_unit_test(dotdot_above_the_root),
		cmocka_unit_test(absolute_paths_jump_to_the_root),
		cmocka_unit_test(links_are_walked_under_the_same_rules),
		cmocka_unit_test(forty_links_and_no_more),
		cmocka_unit_test(
			no_symlinks_refuses_every_link_but_an_unfollowed_last),
		cmocka_unit_test(trailing_slash_wants_a_directory_and_follows),
		cmocka_unit_test(creating_lands_where_the_kernel_puts_it),
		cmocka_unit_test(
			magic_links_are_refused_where_the_kernel_refuses),
		cmocka_unit_test(
			a_magic_link_across_a_mount_is_refused_before_its_type),
		cmocka_unit_test_setup_teardown(deep_paths_under_a_small_fd_limit,
						lower_fd_limit, restore_fd_limit),
		cmocka_unit_test(path_max_as_the_kernel_counts_it),
		cmocka_unit_test(bad_dirfds_as_the_kernel),
		cmocka_unit_test(without_statx_the_same_answers),
		cmocka_unit_test(close_on_exec_as_asked),
		cmocka_unit_test(success_leaves_errno_untouched),
		cmocka_unit_test(the_callers_record_locks_survive),
		cmocka_unit_test(the_answer_takes_the_lowest_free_fd),
		cmocka_unit_test_setup_teardown(no_fd_is_left_open,
						lower_fd_limit, restore_fd_limit),
	};

	return cmocka_run_group_tests(tests, make_tree, remove_tree);
}
