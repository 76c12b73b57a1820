/*
 * The peers' cases (peer_cases.h: libpathrs's and filepath-securejoin's
 * tests of their operations beneath a root), asked of the library and of
 * the kernel in a chroot to a copy of the same tree. The kernel's answer
 * is asked once per row (in one child, whose root moves to each tree for
 * the call); the library's four times, each world in a child of its own:
 * with openat2, and
 * with openat2 refused by a seccomp filter (ENOSYS, EPERM, and ENOSYS
 * with /proc hidden), where its own walk answers. A row passes where the
 * library answers as the kernel does (the same errno, or the same file
 * with the same open flags and close-on-exec flag, or the same link text)
 * and leaves its tree as the kernel's call left the kernel's.
 *
 * Where the peer expects other than the kernel answers, a line says so,
 * with the row's reason: that is the peer's own choice, which the
 * library's contract (the kernel's answer) does not make, and is no
 * failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "openat2_nr.h"
#include "peer_cases.h"
#include "peer_sides.h"
#include "peer_tree.h"
#include "proc_mounts.h"
#include "refuse_call.h"
#include "scratch_dir.h"
#include "suite.h"

static char top[] = "/tmp/test-inroot-peers-XXXXXX";
static int top_fd = -1;

/* Every row, libpathrs's then securejoin's. */
static const struct peer_case **rows;
static size_t row_count;

/* One side's answer to a row, and what it left. */
struct truth {
	int harness_err; /* the question could not be asked */
	bool leaked;     /* the library left an fd open */
	/* fs.protected_symlinks while it was asked (-1: it changed). */
	int protected_symlinks;
	struct peer_answer answer;
	char file[PATH_MAX]; /* the name of the file it answered */
	char *tree;          /* its tree afterwards */
};
static struct truth *truths;

static double seconds_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * fs.protected_symlinks decides whether another user's link in a sticky
 * directory is followed, and programs on this machine may set it while
 * the test runs (resolve-kernel-rules does, alone in a meson run): read
 * through an fd opened at the start, which still reads the setting where
 * a world hides /proc. Where it changed between the kernel's answer and
 * the library's to a row that follows such a link, the row is not
 * judged.
 */
static int protected_symlinks_fd = -1;

static int protected_symlinks_now(void)
{
	char buf[16] = "";

	if (protected_symlinks_fd < 0 ||
	    pread(protected_symlinks_fd, buf, sizeof buf - 1, 0) <= 0)
		return -1;
	return atoi(buf);
}

static const char *errno_name(int err, char *buf, size_t size)
{
	static const struct {
		int err;
		const char *name;
	} names[] = {
		{ ENOENT, "ENOENT" },	 { ENOTDIR, "ENOTDIR" },
		{ ELOOP, "ELOOP" },	 { EEXIST, "EEXIST" },
		{ EISDIR, "EISDIR" },	 { EINVAL, "EINVAL" },
		{ EPERM, "EPERM" },	 { EACCES, "EACCES" },
		{ ENOTEMPTY, "ENOTEMPTY" }, { EBUSY, "EBUSY" },
		{ EXDEV, "EXDEV" },	 { EOPNOTSUPP, "EOPNOTSUPP" },
		{ ENOSYS, "ENOSYS" },	 { EAGAIN, "EAGAIN" },
		{ ENAMETOOLONG, "ENAMETOOLONG" },
	};

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].err == err)
			return names[i].name;
	snprintf(buf, size, "errno %d", err);
	return buf;
}

static const char *type_name(mode_t type)
{
	switch (type) {
	case S_IFDIR:
		return "directory";
	case S_IFREG:
		return "regular file";
	case S_IFLNK:
		return "symlink";
	case S_IFIFO:
		return "fifo";
	case S_IFSOCK:
		return "socket";
	case S_IFCHR:
		return "character device";
	case S_IFBLK:
		return "block device";
	}
	return "unknown type";
}

/* An answer in words: "ENOENT", "/b/c/file (regular file, flags 0x..)",
 * "\"text\"", "0". */
static const char *describe(const struct peer_case *c,
			    const struct peer_answer *a, const char *file,
			    char *buf, size_t size)
{
	char name[32];

	if (a->err != 0)
		snprintf(buf, size, "%s", errno_name(a->err, name, sizeof name));
	else if (a->has_file)
		snprintf(buf, size, "%s (%s, flags %#o%s)", file,
			 type_name(a->type), (unsigned)a->flags,
			 a->cloexec ? ", close-on-exec" : "");
	else if (c->op == OP_READLINK)
		snprintf(buf, size, "\"%s\" (%ld bytes)", a->text, a->value);
	else
		snprintf(buf, size, "%ld", a->value);
	return buf;
}

static const char *expectation(const struct peer_case *c, char *buf,
			       size_t size)
{
	char name[32];

	if (c->expects.err != 0)
		snprintf(buf, size, "%s",
			 errno_name(c->expects.err, name, sizeof name));
	else if (c->expects.file != NULL)
		snprintf(buf, size, "success, %s", c->expects.file);
	else
		snprintf(buf, size, "success");
	return buf;
}

static void describe_row(const struct peer_case *c, char *buf, size_t size)
{
	snprintf(buf, size, "%s %s: %s(\"%s\"%s%s%s)", c->peer, c->name,
		 inroot_op_name(c->op), c->path, c->other ? ", \"" : "",
		 c->other ? c->other : "", c->other ? "\"" : "");
}

/* One row asked of one side in a fresh copy of its tree at top/dir_name:
 * the answer, the name of its file, the tree afterwards. */
static int ask_in_tree(const struct peer_case *c, const char *dir_name,
		       bool kernel, struct truth *t)
{
	char dir[PATH_MAX];
	int err, setting;

	snprintf(dir, sizeof dir, "%s/%s", top, dir_name);
	memset(t, 0, sizeof *t);
	/* What a child the library killed left. */
	err = peer_tree_remove(dir);
	if (err == 0)
		err = peer_tree_build(dir, c->tree);
	setting = protected_symlinks_now();
	if (err == 0)
		err = kernel ? peer_kernel_side(c, dir, &t->answer) :
			       peer_library_side(c, dir, &t->answer,
						 &t->leaked);
	t->protected_symlinks =
		protected_symlinks_now() == setting ? setting : -1;
	if (err == 0 &&
	    (t->tree = peer_tree_describe(
		     dir, t->answer.dev, t->answer.ino,
		     t->answer.has_file ? t->file : NULL, sizeof t->file)) ==
		    NULL)
		err = ENOMEM;
	t->harness_err = err;
	if (kernel && err == 0 && c->expects.err == 0 &&
	    c->expects.file != NULL && !inroot_op_returns_fd(c->op) &&
	    c->op != OP_READLINK) {
		/* A name the peer expects made: look for it while the
		 * tree is still here (file holds the result). */
		char made[2 * PATH_MAX];
		struct stat st;

		snprintf(made, sizeof made, "%s%s", dir, c->expects.file);
		snprintf(t->file, sizeof t->file, "%s",
			 lstat(made, &st) == 0 ? c->expects.file : "");
	}
	int rm = peer_tree_remove(dir);

	return err != 0 ? err : rm;
}

/* Whether the kernel answered what the peer expects. */
static bool peer_agrees(const struct peer_case *c, const struct truth *t)
{
	if (c->expects.err != t->answer.err)
		return false;
	if (c->expects.err != 0 || c->expects.file == NULL)
		return true;
	if (c->op == OP_READLINK)
		return strcmp(t->answer.text, c->expects.file) == 0;
	return strcmp(t->file, c->expects.file) == 0;
}

static void report_peer(const struct peer_case *c, const struct truth *t)
{
	char row[3 * PATH_MAX], peer[PATH_MAX + 32], kernel[PATH_MAX + 64];
	bool agrees = peer_agrees(c, t);

	if (agrees && c->why == NULL)
		return;
	describe_row(c, row, sizeof row);
	expectation(c, peer, sizeof peer);
	describe(c, &t->answer, t->file, kernel, sizeof kernel);
	if (agrees)
		printf("# note: %s has a reason to differ, but the kernel "
		       "answers %s as the peer expects\n",
		       row, kernel);
	else
		printf("# peer differs: %s: the peer expects %s, the kernel "
		       "answers %s: %s\n",
		       row, peer, kernel,
		       c->why ? c->why : "(no reason written for this row)");
}

/* What the kernel's child sends of each row: the truth, less the tree,
 * whose tree_len bytes follow. */
struct truth_record {
	struct truth truth;
	size_t tree_len;
};

static bool write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

static bool read_all(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len > 0) {
		ssize_t n = read(fd, p, len);

		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

/* In the kernel's child: every row asked, each record written to fd. */
static void kernel_child(int fd)
{
	for (size_t i = 0; i < row_count; i++) {
		struct truth_record r;
		bool ok;

		r.truth.harness_err =
			ask_in_tree(rows[i], "kernel", true, &r.truth);
		r.tree_len = r.truth.tree ? strlen(r.truth.tree) : 0;
		ok = write_all(fd, &r, sizeof r) &&
		     write_all(fd, r.truth.tree ? r.truth.tree : "",
			       r.tree_len);
		free(r.truth.tree);
		if (!ok)
			_exit(1);
	}
	_exit(0);
}

/* The kernel's records, one per row, into truths: 0, or an errno. */
static int read_truths(int fd)
{
	for (size_t i = 0; i < row_count; i++) {
		struct truth_record r;

		if (!read_all(fd, &r, sizeof r))
			return EPIPE;
		truths[i] = r.truth;
		truths[i].tree = malloc(r.tree_len + 1);
		if (truths[i].tree == NULL ||
		    !read_all(fd, truths[i].tree, r.tree_len))
			return EPIPE;
		truths[i].tree[r.tree_len] = '\0';
	}
	return 0;
}

/*
 * The kernel's answers to every row, asked once, in one child: its root
 * moves to each tree for each call, and one process for all the rows
 * keeps the test fast on a loaded machine, where each fork costs more
 * than a row. 0, or an errno.
 */
static int kernel_truths(void)
{
	int pipefd[2], status, err;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC) != 0)
		return errno;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return errno;
	if (pid == 0) {
		close(pipefd[0]);
		kernel_child(pipefd[1]);
	}
	close(pipefd[1]);
	err = read_truths(pipefd[0]);
	close(pipefd[0]);
	if (waitpid(pid, &status, 0) != pid)
		return errno;
	if (err == 0 && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
		err = ECHILD;
	return err;
}

/* The kernel's answers, and where the peers expect otherwise. 0, or the
 * number of rows that could not be asked (-1: none could). */
static int ask_kernel(void)
{
	double start = seconds_now();
	int failures = 0, differ = 0, err;

	truths = calloc(row_count, sizeof *truths);
	if (truths == NULL)
		return -1;
	if ((err = kernel_truths()) != 0) {
		printf("# the kernel's answers could not be had: %s\n",
		       strerror(err));
		return -1;
	}
	for (size_t i = 0; i < row_count; i++) {
		const struct truth *t = &truths[i];

		if (t->harness_err != 0) {
			char row[3 * PATH_MAX];

			describe_row(rows[i], row, sizeof row);
			printf("# %s: the kernel could not be asked: %s\n",
			       row, strerror(t->harness_err));
			failures++;
			continue;
		}
		report_peer(rows[i], t);
		differ += !peer_agrees(rows[i], t);
	}
	printf("# %zu rows: libpathrs %zu, securejoin %zu; the peer expects "
	       "other than the kernel answers in %d (%.1f s)\n",
	       row_count, libpathrs_case_count, securejoin_case_count,
	       differ, seconds_now() - start);
	return failures;
}

/* The first line where two tree descriptions differ, both sides. */
static void print_tree_difference(const char *k, const char *l)
{
	while (*k != '\0' && *l != '\0') {
		size_t kn = strcspn(k, "\n"), ln = strcspn(l, "\n");

		if (kn != ln || memcmp(k, l, kn) != 0)
			break;
		k += kn + (k[kn] == '\n');
		l += ln + (l[ln] == '\n');
	}
	printf("#   kernel's tree: %.*s\n", (int)strcspn(k, "\n"),
	       *k ? k : "(ends)");
	printf("#   library's tree: %.*s\n", (int)strcspn(l, "\n"),
	       *l ? l : "(ends)");
}

static bool same_answer(const struct peer_case *c, const struct truth *k,
			const struct truth *l)
{
	const struct peer_answer *ka = &k->answer, *la = &l->answer;

	if (ka->err != la->err || ka->has_file != la->has_file)
		return false;
	if (ka->has_file)
		return strcmp(k->file, l->file) == 0 && ka->type == la->type &&
		       inroot_same_fd_flags(c->op, ka->flags, la->flags) &&
		       ka->cloexec == la->cloexec;
	return ka->value == la->value && strcmp(ka->text, la->text) == 0;
}

/* Makes the world the library is asked in: 0, or an errno. */
typedef int world_fn(void);

struct world {
	const char *name;
	world_fn *make;    /* NULL: openat2 as the kernel has it */
	bool without_proc; /* make hides /proc */
};

/* The library's documented answer in place of the kernel's: the row's
 * without_proc_err where /proc is hidden (whatever the kernel answers),
 * its fallback_err where openat2 is refused and the kernel succeeds. The
 * documentation's words, or NULL. */
static const char *documented(const struct peer_case *c,
			      const struct truth *k, const struct truth *l,
			      const struct world *w)
{
	int err = l->answer.err;

	if (err == 0)
		return NULL;
	if (w->without_proc && err == c->without_proc_err)
		return c->without_proc_why;
	if (w->make != NULL && k->answer.err == 0 && err == c->fallback_err)
		return c->fallback_why;
	return NULL;
}

/* One row in one world: true where the library agrees with the kernel. */
static bool row_agrees(size_t i, const struct world *w)
{
	const char *world_name = w->name, *why;
	const struct peer_case *c = rows[i];
	const struct truth *k = &truths[i];
	char row[3 * PATH_MAX], kd[PATH_MAX + 64], ld[PATH_MAX + 64];
	struct truth l;
	bool same_tree, answers;
	int err;

	if (k->harness_err != 0)
		return false;
	describe_row(c, row, sizeof row);
	err = ask_in_tree(c, "library", false, &l);
	if (err != 0) {
		printf("not ok %s (%s): the library could not be asked: %s\n",
		       row, world_name, strerror(err));
		free(l.tree);
		return false;
	}
	if (c->protected_link && (l.protected_symlinks < 0 ||
				  l.protected_symlinks != k->protected_symlinks)) {
		printf("# not judged: %s (%s): fs.protected_symlinks changed "
		       "while it was asked\n",
		       row, world_name);
		free(l.tree);
		return true;
	}
	if (l.leaked)
		printf("not ok %s (%s): the library left an fd open\n", row,
		       world_name);
	same_tree = strcmp(k->tree, l.tree) == 0;
	if ((why = documented(c, k, &l, w)) != NULL && same_tree) {
		printf("# documented: %s (%s): the kernel answers %s, the "
		       "library %s: %s\n",
		       row, world_name,
		       describe(c, &k->answer, k->file, kd, sizeof kd),
		       describe(c, &l.answer, l.file, ld, sizeof ld), why);
		free(l.tree);
		return !l.leaked;
	}
	answers = same_answer(c, k, &l);
	if (!answers || !same_tree) {
		printf("not ok %s (%s): the kernel answers %s, the library "
		       "%s%s\n",
		       row, world_name,
		       describe(c, &k->answer, k->file, kd, sizeof kd),
		       describe(c, &l.answer, l.file, ld, sizeof ld),
		       same_tree ? "" : "; their trees differ");
		if (!same_tree)
			print_tree_difference(k->tree, l.tree);
	}
	free(l.tree);
	return answers && same_tree && !l.leaked;
}

/* The exit status of a world's child that could not make its world. */
#define WORLD_MISSING 77

/* The row a world's child is asking, shared with the test: where the
 * child dies, the row that killed it. */
static size_t *asking;

/* In a child: the world made, then every row asked of the library in it;
 * exits 0 where each agrees with the kernel. */
static void world_child(const struct world *w)
{
	double start = seconds_now();
	int failures = 0, err = w->make != NULL ? w->make() : 0;

	if (err != 0) {
		printf("# skipped: the world \"%s\" cannot be made here: %s\n",
		       w->name, strerror(err));
		fflush(stdout);
		_exit(WORLD_MISSING);
	}
	for (size_t i = 0; i < row_count; i++) {
		*asking = i;
		failures += !row_agrees(i, w);
	}
	printf("# %s: %zu rows, %d where the library is not the kernel "
	       "(%.1f s)\n",
	       w->name, row_count, failures, seconds_now() - start);
	fflush(stdout);
	_exit(failures == 0 ? 0 : 1);
}

/*
 * One world's rows in a child of their own: its seccomp filter and mount
 * namespace stay there, and one child for all the rows keeps the test
 * fast on a busy machine, where each fork costs. A row that kills the
 * child fails the world, with the signal said.
 */
static void run_world(const struct world *w)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		world_child(w);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (WIFEXITED(status) && WEXITSTATUS(status) == WORLD_MISSING)
		skip();
	if (WIFSIGNALED(status)) {
		char row[3 * PATH_MAX];

		describe_row(rows[*asking], row, sizeof row);
		printf("not ok %s (%s): the library's process ended by "
		       "signal %d\n",
		       row, w->name, WTERMSIG(status));
	}
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static int refuse_with_enosys(void)
{
	return refuse_call(OPENAT2_NR, ENOSYS);
}

static int refuse_with_eperm(void)
{
	return refuse_call(OPENAT2_NR, EPERM);
}

static int refuse_with_enosys_and_hide_proc(void)
{
	int err = hide_proc();

	return err != 0 ? err : refuse_call(OPENAT2_NR, ENOSYS);
}

static void peer_cases_agree_with_kernel_where_openat2_answers(void **state)
{
	static const struct world w = { "openat2", NULL, false };

	(void)state;
	run_world(&w);
}

static void peer_cases_agree_with_kernel_where_openat2_is_enosys(void **state)
{
	static const struct world w = { "openat2 ENOSYS", refuse_with_enosys,
					false };

	(void)state;
	run_world(&w);
}

static void peer_cases_agree_with_kernel_where_openat2_is_eperm(void **state)
{
	static const struct world w = { "openat2 EPERM", refuse_with_eperm,
					false };

	(void)state;
	run_world(&w);
}

static void peer_cases_agree_with_kernel_without_openat2_and_proc(void **state)
{
	static const struct world w = { "openat2 ENOSYS, /proc hidden",
					refuse_with_enosys_and_hide_proc,
					true };

	(void)state;
	run_world(&w);
}

static int gather_rows(void)
{
	row_count = libpathrs_case_count + securejoin_case_count;
	rows = calloc(row_count, sizeof *rows);
	if (rows == NULL)
		return -1;
	for (size_t i = 0; i < libpathrs_case_count; i++)
		rows[i] = &libpathrs_cases[i];
	for (size_t i = 0; i < securejoin_case_count; i++)
		rows[libpathrs_case_count + i] = &securejoin_cases[i];
	return 0;
}

/*
 * The trees are made and removed some two thousand times: in a tmpfs
 * mounted over the scratch directory in the test's own mount namespace,
 * where a disk's file system takes ten times as long, and which goes
 * with the process.
 */
static void use_private_tmpfs(void)
{
	int err = private_mount_namespace();

	if (err == 0 && mount("inroot-peers", top, "tmpfs", 0, "mode=0755") != 0)
		err = errno;
	if (err != 0)
		printf("# no tmpfs of its own here (%s): the trees are made "
		       "on %s's file system, more slowly\n",
		       strerror(err), top);
}

static void release(void)
{
	for (size_t i = 0; truths != NULL && i < row_count; i++)
		free(truths[i].tree);
	free(truths);
	free(rows);
	if (protected_symlinks_fd >= 0)
		close(protected_symlinks_fd);
	if (top_fd >= 0) {
		umount2(top, MNT_DETACH);
		scratch_dir_remove(top, top_fd);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			peer_cases_agree_with_kernel_where_openat2_answers),
		cmocka_unit_test(
			peer_cases_agree_with_kernel_where_openat2_is_enosys),
		cmocka_unit_test(
			peer_cases_agree_with_kernel_where_openat2_is_eperm),
		cmocka_unit_test(
			peer_cases_agree_with_kernel_without_openat2_and_proc),
	};
	int rc;

	if (geteuid() != 0) {
		printf("skipped: the kernel's answers are asked in a chroot, "
		       "and the trees hold devices and other owners' files: "
		       "this needs root\n");
		return 77;
	}
	/* Lines as they come: a child's last ones are not lost where the
	 * library kills it. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* The modes of what both sides make are compared: one umask. */
	umask(022);
	asking = mmap(NULL, sizeof *asking, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (asking == MAP_FAILED) {
		perror("test-inroot-peer-cases: mmap");
		return 1;
	}
	top_fd = scratch_dir_make(top);
	protected_symlinks_fd = open("/proc/sys/fs/protected_symlinks",
				     O_RDONLY | O_CLOEXEC);
	if (top_fd >= 0)
		use_private_tmpfs();
	if (top_fd < 0 || gather_rows() != 0) {
		perror("test-inroot-peer-cases: setup");
		release();
		return 1;
	}
	if (ask_kernel() != 0) {
		release();
		return 1;
	}
	rc = RUN_SUITE(tests, NULL, NULL);
	release();
	return rc;
}
