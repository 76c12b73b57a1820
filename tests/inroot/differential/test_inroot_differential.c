/*
 * Every operation of inroot.h against the kernel's own call in a chroot
 * to the same root: the same return (an fd of the same file with the
 * same flags, 0, or a length), the same errno, and the same tree
 * afterwards.
 *
 * The trees (question_set.c) hold files, directories, a FIFO, relative
 * and absolute symlinks ("/", "/etc", "/a/b"), links that climb out with
 * "..", dangling links, chains, loops and links with a trailing slash,
 * and a procfs (whose magic links the library refuses, documented[]);
 * the paths go through each, and include "", ".", "..", "/", names that
 * are files (ENOTDIR), names that do not exist, and paths of PATH_MAX.
 * Each question is asked twice, of two fresh copies of its tree: first
 * of the kernel, in a forked child chrooted to its copy (mkdir_all as
 * `mkdir -p` makes each prefix, remove_all as `rm -rf` removes, without
 * following the last name: tests/inroot/common/kernel_side.c), then of
 * the library, beneath an fd of its copy. A copy is compared with its
 * twin by a canonical listing (tree.h); an fd by the path of its file in
 * the listing (dev/ino), its F_GETFL flags (inroot_same_fd_flags) and
 * its close-on-exec flag (the kernel's opens are asked with O_CLOEXEC
 * and O_NOCTTY, which inroot.h's add).
 *
 * The library answers in four worlds, each a forked child: openat2
 * there (the kernel walks), openat2 refused with ENOSYS, refused with
 * EPERM (the library's own walk), and refused with ENOSYS under a /proc
 * hidden by a tmpfs. The kernel's answers are taken once, by the
 * unfiltered test process, before the worlds start. The library is not
 * called in the test process itself, so each world's probe of openat2
 * is its own.
 *
 * 2.1's operations (metadata, checked nodes, mounts: metadata_sides.h)
 * are asked the same way; the listing then holds each file's owner, the
 * times a question set, and its user.* attributes (each file and
 * directory of a tree holds user.t, its own path), and a question that
 * mounts is asked, on each side, in a child with a mount namespace of
 * its own.
 *
 * A difference the library cannot help (documented[] below, with the
 * reason) is counted apart; any other fails the test. A world that
 * leaves an fd open after a question differs too.
 *
 *   INROOT_DIFFERENTIAL_SEED    the random trees' seed (default below)
 *   INROOT_DIFFERENTIAL_TREES   how many random trees (default 6)
 *   INROOT_DIFFERENTIAL_PATHS   random paths per random tree (default 20)
 *   INROOT_DIFFERENTIAL_OPS     operations per random path (default 6)
 *   INROOT_DIFFERENTIAL_PRINT_TREES  print each tree's entries
 *   INROOT_DIFFERENTIAL_WORLD   run this world only (its name as printed)
 *   INROOT_DIFFERENTIAL_STRIDE  ask every Nth question only (memcheck)
 *
 * The copies live on a tmpfs of the test's own mount namespace.
 * Needs root (chroot, mounts). Skips (77) without it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "execveat.h"
#include "metadata_sides.h"
#include "openat2_nr.h"
#include "proc_mounts.h"
#include "question.h"
#include "question_set.h"
#include "refuse_call.h"
#include "scratch_dir.h"
#include "tree.h"

#define DEFAULT_SEED UINT64_C(20261207)

/* Differences printed with both trees' differing lines, per world; the
 * rest on one line each. */
#define DETAILED_DIFFERENCES 20

/*
 * The differences that are not the library's to remove: each matches
 * an operation (or any), a tree (or any), a path found in either of the
 * question's names (or any), and the two answers as answer_describe
 * prints them (or any), and says why.
 */
static const struct documented {
	enum inroot_op op;
	bool any_op;
	const char *tree, *path;
	const char *kernel, *library;
	bool trees_differ;
	const char *reason;
} documented[] = {
	{ .any_op = true, .tree = "hand-made-with-proc", .path = "proc/",
	  .library = "-1 ELOOP", .trees_differ = true,
	  .reason = "a magic link: the kernel in a chroot follows "
		    "/proc/self/root and /proc/self/cwd (to its own root), "
		    "the library refuses them (RESOLVE_NO_MAGICLINKS)" },
	{ .any_op = true, .tree = "hand-made-with-proc", .path = "me",
	  .library = "-1 ELOOP", .trees_differ = true,
	  .reason = "a symlink to the magic link /proc/self/root" },
	{ .any_op = true, .tree = "hand-made-with-proc", .path = "cwdlink",
	  .library = "-1 ELOOP", .trees_differ = true,
	  .reason = "a symlink through the magic link /proc/self/cwd" },
	{ .op = OP_BIND, .kernel = "0", .library = "-1 EINVAL",
	  .trees_differ = true,
	  .reason = "a mount's target must be a name (inroot(3)): its "
		    "directory held and the name looked up again there is "
		    "the proof that the mount landed; the kernel mounts "
		    "over \".\", \"..\" and the root, and a link to one" },
	{ .op = OP_MASK, .kernel = "0", .library = "-1 EINVAL",
	  .trees_differ = true,
	  .reason = "a mount's target must be a name, as for bind" },
	{ .op = OP_FSETXATTR, .library = "-1 EOPNOTSUPP",
	  .trees_differ = true,
	  .reason = "an attribute of a file other than a directory through "
		    "an O_PATH fd: the kernel takes none there, and without "
		    "a proven /proc entry the library will not open the file "
		    "(inroot_statx(3)), whatever the kernel's call on the "
		    "path answers (its EPERM for a FIFO's user.* too)" },
};
#define DOCUMENTED (sizeof(documented) / sizeof(documented[0]))

static char scratch[] = "/tmp/test-inroot-differential-XXXXXX";
static int scratch_fd = -1;

/* The kernel's answer to a question, and its tree afterwards. */
struct expected {
	struct answer answer;
	char *listing;
};

static unsigned env_number(const char *name, unsigned fallback)
{
	const char *value = getenv(name);

	return value != NULL && *value ? (unsigned)strtoul(value, NULL, 0) :
					 fallback;
}

/* The answer's file by its path in the copy's listing. */
static void name_file(struct answer *a, const struct question *q,
		      const struct listing *l)
{
	const char *name;

	if (a->rc < 0 || !answer_names_file(q->op))
		return;
	name = listing_name(l, a->dev, a->ino);
	if (name != NULL)
		snprintf(a->file, sizeof(a->file), "%s", name);
	else
		snprintf(a->file, sizeof(a->file), "(not in the tree: %jx:%ju)",
			 (uintmax_t)a->dev, (uintmax_t)a->ino);
}

/*
 * A copy of a tree, made again only where a question changed it: its
 * listing afterwards, dev/ino included, is the one it had when made.
 */
struct copy {
	int fd; /* its root, O_PATH */
	char path[PATH_MAX]; /* by which a new mount namespace opens it */
	const struct tree *tree; /* what it holds; NULL: remake it */
	struct listing made;
};

static void copy_start(struct copy *c, const char *name)
{
	snprintf(c->path, sizeof(c->path), "%s/%s", scratch, name);
	if (mkdirat(scratch_fd, name, 0755) < 0 ||
	    (c->fd = openat(scratch_fd, name,
			    O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0) {
		perror("making a copy's directory");
		exit(1);
	}
	c->tree = NULL;
	memset(&c->made, 0, sizeof(c->made));
}

static void copy_of(struct copy *c, const struct tree *tree)
{
	if (c->tree == tree)
		return;
	listing_free(&c->made);
	if (tree_fill(c->fd, tree) < 0 || listing_of(c->fd, &c->made) < 0) {
		fprintf(stderr, "making a copy of %s: %s\n", tree->name,
			strerror(errno));
		exit(1);
	}
	c->tree = tree;
}

static bool same_files(const struct listing *a, const struct listing *b)
{
	if (a->count != b->count || strcmp(a->text, b->text) != 0)
		return false;
	for (size_t i = 0; i < a->count; i++)
		if (a->files[i].ino != b->files[i].ino)
			return false;
	return true;
}

/* The copy's listing after a question, the answer's file named in it. */
static char *copy_after(struct copy *c, struct answer *a,
			const struct question *q)
{
	struct listing l;
	char *text;

	if (listing_of(c->fd, &l) < 0) {
		perror("listing a copy");
		exit(1);
	}
	name_file(a, q, &l);
	if (!same_files(&l, &c->made))
		c->tree = NULL;
	text = strdup(l.text);
	listing_free(&l);
	return text;
}

/* The lowest fd free: where the next fd would go. */
static int lowest_free_fd(void)
{
	int fd = fcntl(scratch_fd, F_DUPFD_CLOEXEC, 0);

	close(fd);
	return fd;
}

/* The question asked of one side in c (kernel: this process's root is
 * the copy), whether it left an fd open, and c's listing after. */
static char *ask_here(struct copy *c, const struct question *q, bool kernel,
		      struct answer *a, bool *leaked)
{
	int free_fd = lowest_free_fd();

	*a = kernel ? answer_of_kernel(q) : answer_of_library(c->fd, q);
	*leaked = lowest_free_fd() != free_fd;
	return copy_after(c, a, q);
}

/* All of count bytes through a pipe: 0, or -1. */
static int write_all(int fd, const void *buf, size_t count)
{
	for (size_t done = 0; done < count;) {
		ssize_t n = write(fd, (const char *)buf + done, count - done);

		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	return 0;
}

static int read_all(int fd, void *buf, size_t count)
{
	for (size_t done = 0; done < count;) {
		ssize_t n = read(fd, (char *)buf + done, count - done);

		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	return 0;
}

static bool mounting(const struct question *q)
{
	return q->op == OP_BIND || q->op == OP_MASK ||
	       q->op == OP_REMOUNT_RDONLY;
}

/*
 * ask_here, but a question that mounts is asked in a child with a mount
 * namespace of its own, which takes the mount with it: the copy stays as
 * made (an fd from before the namespace names the old one's mounts,
 * onto which mount(2) refuses to mount: the copy is opened again there).
 */
static char *ask(struct copy *c, const struct question *q, bool kernel,
		 struct answer *a, bool *leaked)
{
	char *listing = NULL;
	int pipefd[2], status;
	size_t length;
	pid_t pid;

	if (!mounting(q))
		return ask_here(c, q, kernel, a, leaked);
	if (pipe2(pipefd, O_CLOEXEC) < 0 || (pid = fork()) < 0) {
		perror("asking in a namespace of its own");
		exit(1);
	}
	if (pid == 0) {
		close(pipefd[0]);
		if (kernel)
			kernel_side_clone_dev_null();
		if (unshare(CLONE_NEWNS) < 0 ||
		    (c->fd = open(c->path, O_PATH | O_DIRECTORY |
				  O_CLOEXEC)) < 0)
			_exit(2);
		listing = ask_here(c, q, kernel, a, leaked);
		length = strlen(listing);
		_exit(write_all(pipefd[1], a, sizeof(*a)) < 0 ||
		      write_all(pipefd[1], leaked, sizeof(*leaked)) < 0 ||
		      write_all(pipefd[1], &length, sizeof(length)) < 0 ||
		      write_all(pipefd[1], listing, length) < 0 ? 3 : 0);
	}
	close(pipefd[1]);
	if (read_all(pipefd[0], a, sizeof(*a)) < 0 ||
	    read_all(pipefd[0], leaked, sizeof(*leaked)) < 0 ||
	    read_all(pipefd[0], &length, sizeof(length)) < 0 ||
	    (listing = calloc(1, length + 1)) == NULL ||
	    read_all(pipefd[0], listing, length) < 0 ||
	    waitpid(pid, &status, 0) != pid || status != 0) {
		fprintf(stderr, "a mounting question's child failed\n");
		exit(1);
	}
	close(pipefd[0]);
	return listing;
}

/*
 * The kernel's side, in a child chrooted to its copy: every question in
 * turn, each answer and listing written down the pipe as it comes. The
 * copy is remade in place, its root being the chroot's.
 */
static void kernel_side(const char *root, const struct question_set *set,
			bool mounts, int out)
{
	struct copy copy = { .tree = NULL, .path = "/" };

	if (kernel_side_hold_dev_null() < 0 || chroot(root) < 0 ||
	    chdir("/") < 0 ||
	    (copy.fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		_exit(2);
	for (size_t i = 0; i < set->count; i++) {
		const struct question *q = &set->questions[i];
		struct answer a;
		char *listing;
		size_t length;
		bool leaked;

		if (tree_has_mounts(&set->trees[q->tree]) != mounts)
			continue;
		copy_of(&copy, &set->trees[q->tree]);
		listing = ask(&copy, q, true, &a, &leaked);
		length = strlen(listing);
		if (write_all(out, &a, sizeof(a)) < 0 ||
		    write_all(out, &length, sizeof(length)) < 0 ||
		    write_all(out, listing, length) < 0)
			_exit(3);
		free(listing);
	}
	listing_free(&copy.made);
	_exit(0);
}

/* The kernel's answers to the questions asked in trees with mounts, or
 * in those without, into e: 0, or -1. */
static int kernel_pass(const struct question_set *set, bool mounts,
		       struct expected *e)
{
	char root[PATH_MAX];
	int pipefd[2], status;
	pid_t pid;

	snprintf(root, sizeof(root), "%s/kernel-%d", scratch, (int)mounts);
	if (mkdir(root, 0755) < 0 || pipe2(pipefd, O_CLOEXEC) < 0)
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(pipefd[0]);
		kernel_side(root, set, mounts, pipefd[1]);
	}
	close(pipefd[1]);
	for (size_t i = 0; i < set->count; i++) {
		size_t length;

		if (tree_has_mounts(&set->trees[set->questions[i].tree]) !=
		    mounts)
			continue;
		if (read_all(pipefd[0], &e[i].answer, sizeof(e[i].answer)) ||
		    read_all(pipefd[0], &length, sizeof(length)) ||
		    (e[i].listing = calloc(1, length + 1)) == NULL ||
		    read_all(pipefd[0], e[i].listing, length)) {
			fprintf(stderr, "the chrooted child stopped at "
				"question %zu\n", i);
			return -1;
		}
	}
	close(pipefd[0]);
	return waitpid(pid, &status, 0) == pid && status == 0 ? 0 : -1;
}

/* Where the kernel's answers are kept: reachable from here while the
 * worlds' children run, which _exit without freeing them. */
static struct expected *kernel_answers;

static struct expected *ask_the_kernel(const struct question_set *set)
{
	struct expected *e = calloc(set->count, sizeof(*e));

	kernel_answers = e;

	if (e == NULL || kernel_pass(set, false, e) < 0 ||
	    kernel_pass(set, true, e) < 0)
		return NULL;
	return e;
}

static bool matches(const char *pattern, const char *text)
{
	return pattern == NULL || strcmp(pattern, text) == 0;
}

static const struct documented *
find_documented(const struct tree *tree, const struct question *q,
		const char *kernel,
		const char *library, bool trees_differ)
{
	for (size_t i = 0; i < DOCUMENTED; i++) {
		const struct documented *d = &documented[i];

		if ((d->any_op || d->op == q->op) &&
		    matches(d->tree, tree->name) &&
		    (d->path == NULL || strstr(q->a, d->path) != NULL ||
		     (q->b != NULL && strstr(q->b, d->path) != NULL)) &&
		    matches(d->kernel, kernel) &&
		    matches(d->library, library) &&
		    (d->trees_differ || !trees_differ))
			return d;
	}
	return NULL;
}

/* Each line of a that b does not have, prefixed. */
static size_t lines_missing(char *out, size_t size, const char *a,
			    const char *b, const char *prefix)
{
	size_t n = 0;

	for (const char *line = a; *line && n < size;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line + 1) : strlen(line);
		bool found = false;

		for (const char *o = b; *o && !found;) {
			const char *oend = strchr(o, '\n');
			size_t olen = oend ? (size_t)(oend - o + 1) : strlen(o);

			found = olen == len && memcmp(o, line, len) == 0;
			o += olen;
		}
		if (!found)
			n += (size_t)snprintf(out + n, size - n, "    %s %.*s",
					      prefix, (int)len, line);
		line += len;
	}
	return n < size ? n : size - 1;
}

struct world_counts {
	unsigned cases, differences, documented;
};

/* Prints one difference, in one write: worlds print at once. */
static void report(const char *world, const struct question_set *set,
		   const struct question *q, const char *kernel,
		   const char *library, const struct expected *e,
		   const char *listing, bool leaked, const char *reason,
		   bool detailed)
{
	static char out[65536];
	char what[600];
	size_t n;

	n = (size_t)snprintf(out, sizeof(out),
			     "%s %s: %s in %s: kernel %s, library %s%s%s%s%s\n",
			     reason ? "documented" : "DIFFERENCE", world,
			     question_describe(what, sizeof(what), q),
			     set->trees[q->tree].name, kernel, library,
			     strcmp(e->listing, listing) ?
				     ", trees differ" : "",
			     leaked ? ", an fd left open" : "",
			     reason ? ": " : "", reason ? reason : "");
	if (detailed && strcmp(e->listing, listing) != 0) {
		n += lines_missing(out + n, sizeof(out) - n, e->listing,
				   listing, "kernel: ");
		n += lines_missing(out + n, sizeof(out) - n, listing,
				   e->listing, "library:");
	}
	fflush(stdout);
	if (write(STDOUT_FILENO, out, n) < 0)
		perror("write");
}

static void ask_the_library(const char *world, int number,
			    const struct question_set *set,
			    const struct expected *expected,
			    struct world_counts *counts)
{
	struct copy copies[2];

	for (int mounts = 0; mounts < 2; mounts++) {
		char name[32];

		snprintf(name, sizeof(name), "library-%d-%d", number, mounts);
		copy_start(&copies[mounts], name);
	}
	for (size_t i = 0; i < set->count; i++) {
		const struct question *q = &set->questions[i];
		const struct expected *e = &expected[i];
		char kernel[400], library[400], *listing;
		const struct documented *d;
		struct answer a;
		bool same, leaked, trees_differ;

		const struct tree *tree = &set->trees[q->tree];
		struct copy *copy = &copies[tree_has_mounts(tree)];

		copy_of(copy, tree);
		listing = ask(copy, q, false, &a, &leaked);
		counts->cases++;
		trees_differ = strcmp(e->listing, listing) != 0;
		same = answers_agree(q, &e->answer, &a) && !leaked &&
		       !trees_differ;
		if (!same) {
			answer_describe(kernel, sizeof(kernel), q, &e->answer);
			answer_describe(library, sizeof(library), q, &a);
			d = leaked ? NULL : find_documented(tree, q, kernel,
							    library,
							    trees_differ);
			if (d != NULL)
				counts->documented++;
			else
				counts->differences++;
			report(world, set, q, kernel, library, e, listing,
			       leaked, d ? d->reason : NULL,
			       d == NULL && counts->differences <=
				       DETAILED_DIFFERENCES);
		}
		free(listing);
	}
	for (int mounts = 0; mounts < 2; mounts++) {
		close(copies[mounts].fd);
		listing_free(&copies[mounts].made);
	}
}

enum world { KERNEL, REFUSED_ENOSYS, REFUSED_EPERM, ENOSYS_NO_PROC, WORLDS };

static const char *const world_names[WORLDS] = {
	"openat2", "openat2-ENOSYS", "openat2-EPERM",
	"openat2-ENOSYS-no-proc",
};

/* The world made in this (child) process: 0, or an errno. */
static int make_world(enum world w)
{
	int err;

	switch (w) {
	case KERNEL:
		return 0;
	case REFUSED_ENOSYS:
		return refuse_call(OPENAT2_NR, ENOSYS);
	case REFUSED_EPERM:
		return refuse_call(OPENAT2_NR, EPERM);
	case ENOSYS_NO_PROC:
		err = hide_proc();
		return err != 0 ? err : refuse_call(OPENAT2_NR, ENOSYS);
	case WORLDS:
		break;
	}
	return EINVAL;
}

/* A child per world; its counts come back through a pipe. */
static pid_t start_world(enum world w, const struct question_set *set,
			 const struct expected *expected, int *counts_fd)
{
	int pipefd[2];
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct world_counts counts = { 0 };
		int err = make_world(w);

		/* The scratch fd from before a new mount namespace names the
		 * old one's mount, where mount(2) refuses to mount (EINVAL):
		 * the world's own, by its path. */
		if (err == 0) {
			close(scratch_fd);
			scratch_fd = open(scratch, O_PATH | O_DIRECTORY |
					  O_CLOEXEC);
			err = scratch_fd < 0 ? errno : 0;
		}

		if (err != 0) {
			printf("world %s: not made here (%s), skipped\n",
			       world_names[w], strerror(err));
			fflush(stdout);
			_exit(77);
		}
		ask_the_library(world_names[w], (int)w, set, expected, &counts);
		_exit(write(pipefd[1], &counts, sizeof(counts)) ==
		      sizeof(counts) ? 0 : 1);
	}
	close(pipefd[1]);
	*counts_fd = pipefd[0];
	return pid;
}

/* What openat2 answers here: 0 where the kernel has it, else ENOSYS
 * (an old kernel, valgrind, qemu-user) or EPERM. */
static int openat2_here(void)
{
	struct open_how how = { .flags = O_PATH | O_CLOEXEC };
	long fd = syscall(OPENAT2_NR, AT_FDCWD, "/", &how, sizeof(how));

	if (fd >= 0) {
		close((int)fd);
		return 0;
	}
	return errno;
}

/*
 * The copies are made and removed tens of thousands of times: on a tmpfs
 * of this process's own mount namespace, whose mount the machine never
 * sees, rather than on whatever disk holds /tmp. 0, or an errno.
 */
static int copies_on_tmpfs(void)
{
	int err = private_mount_namespace();

	if (err != 0)
		return err;
	if (mount("inroot-differential", scratch, "tmpfs", 0, "mode=0755") < 0)
		return errno;
	close(scratch_fd);
	scratch_fd = open(scratch, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return scratch_fd < 0 ? errno : 0;
}

static void print_trees(const struct question_set *set)
{
	for (size_t t = 0; t < set->tree_count; t++) {
		const struct tree *tree = &set->trees[t];

		printf("tree %s:\n", tree->name);
		for (size_t i = 0; i < tree->count; i++) {
			const struct tree_entry *e = &tree->entries[i];

			if (e->type == 'l')
				printf("  %s -> \"%s\"\n", e->path, e->target);
			else
				printf("  %c %04o %s\n", e->type,
				       (unsigned)e->mode, e->path);
		}
	}
}

/* Every stride-th question only: a shorter run that still reaches each
 * operation and tree. */
static void keep_every(struct question_set *set, unsigned stride)
{
	size_t kept = 0;

	if (stride <= 1)
		return;
	for (size_t i = 0; i < set->count; i += stride)
		set->questions[kept++] = set->questions[i];
	set->count = kept;
}

static double seconds_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) +
	       (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

/* Runs the worlds, prints each one's counts: the number of undocumented
 * differences, or -1 where a world failed. */
static long run_worlds(const struct question_set *set,
		       const struct expected *expected,
		       unsigned long *documented_count)
{
	const char *only = getenv("INROOT_DIFFERENTIAL_WORLD");
	pid_t pids[WORLDS];
	int fds[WORLDS];
	long differences = 0;
	unsigned made = 0;

	for (int w = 0; w < WORLDS; w++)
		pids[w] = only != NULL && strcmp(only, world_names[w]) != 0 ?
			  0 : start_world((enum world)w, set, expected,
					  &fds[w]);
	for (int w = 0; w < WORLDS; w++) {
		struct world_counts c = { 0 };
		ssize_t n = pids[w] <= 0 ? -1 : read(fds[w], &c, sizeof(c));
		int status = -1;

		if (pids[w] == 0)
			continue;
		if (pids[w] > 0) {
			close(fds[w]);
			waitpid(pids[w], &status, 0);
		}
		if (WIFEXITED(status) && WEXITSTATUS(status) == 77)
			continue;
		if (status != 0 || n != sizeof(c)) {
			printf("world %s: FAILED (status %#x)\n",
			       world_names[w], status);
			differences = -1;
			continue;
		}
		made++;
		printf("world %s: %u cases, %u differences, %u documented\n",
		       world_names[w], c.cases, c.differences, c.documented);
		if (differences >= 0)
			differences += c.differences;
		*documented_count += c.documented;
	}
	return made == 0 ? -1 : differences;
}

int main(void)
{
	uint64_t seed = DEFAULT_SEED;
	const char *seed_text = getenv("INROOT_DIFFERENTIAL_SEED");
	/* Static: a forked world ends in _exit with the set still in use,
	 * where an optimised main may hold its pointers in no memory that a
	 * leak check reads. */
	static struct question_set set;
	struct expected *expected;
	struct timespec start;
	unsigned long documented_count = 0;
	long differences;
	int here;

	setvbuf(stdout, NULL, _IOLBF, 0);
	clock_gettime(CLOCK_MONOTONIC, &start);
	if (geteuid() != 0) {
		printf("SKIP: needs root, for chroot and a mount namespace\n");
		return 77;
	}
	if (seed_text != NULL && *seed_text)
		seed = strtoull(seed_text, NULL, 0);
	umask(022);
	if (question_set_make(&set, seed,
			      env_number("INROOT_DIFFERENTIAL_TREES", 6),
			      env_number("INROOT_DIFFERENTIAL_PATHS", 20),
			      env_number("INROOT_DIFFERENTIAL_OPS", 6)) < 0) {
		perror("making the questions");
		return 1;
	}
	keep_every(&set, env_number("INROOT_DIFFERENTIAL_STRIDE", 1));
	printf("seed %" PRIu64 " (INROOT_DIFFERENTIAL_SEED), %zu trees, "
	       "%zu questions\n", seed, set.tree_count, set.count);
	if (getenv("INROOT_DIFFERENTIAL_PRINT_TREES") != NULL)
		print_trees(&set);
	here = openat2_here();
	if (here != 0)
		printf("openat2 answers %s here: the world \"openat2\" is the "
		       "library's own walk too\n", strerror(here));
	scratch_fd = scratch_dir_make(scratch);
	if (scratch_fd < 0) {
		perror("scratch directory");
		return 1;
	}
	if (copies_on_tmpfs() != 0) {
		printf("SKIP: needs a mount namespace of its own\n");
		scratch_dir_remove(scratch, scratch_fd);
		return 77;
	}
	expected = ask_the_kernel(&set);
	if (expected == NULL) {
		perror("asking the kernel");
		umount2(scratch, MNT_DETACH);
		scratch_dir_remove(scratch, scratch_fd);
		return 1;
	}
	printf("the kernel's answers: %.1f s\n", seconds_since(&start));
	differences = run_worlds(&set, expected, &documented_count);
	for (size_t i = 0; i < set.count; i++)
		free(kernel_answers[i].listing);
	free(kernel_answers);
	umount2(scratch, MNT_DETACH);
	scratch_dir_remove(scratch, scratch_fd);
	printf("summary: %zu cases per world, %ld undocumented differences, "
	       "%lu documented differences (%zu kinds), %.1f s\n",
	       set.count, differences, documented_count, DOCUMENTED,
	       seconds_since(&start));
	question_set_free(&set);
	return differences == 0 ? 0 : 1;
}
