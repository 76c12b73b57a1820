/*
 * The operations beneath a root (include/inroot.h) through the public
 * header only, judged by the kernel's own system calls inside a chroot to
 * a copy of the same tree, in the worlds they exist for: openat2 allowed
 * (where the kernel has it), refused with ENOSYS or EPERM (a filter of
 * this test's own, or the refusal already there: kernels before 5.6,
 * qemu-user), and refused with /proc hidden. Libc-neutral (no cmocka, no
 * libseccomp): musl, the qemu-user builds and every kernel of the matrix
 * run it.
 *
 *   test-inroot answers|reopen|mounts
 *
 * answers: a table of calls. Each runs twice on fresh copies of one tree,
 *   through the library in a forked child (the world made there), and as
 *   the kernel's call in a child chrooted to the copy; the two must give
 *   the same result and errno, the same file for an fd with the same
 *   F_GETFL flags (inroot_same_fd_flags: O_LARGEFILE too), the same link
 *   text, and leave the two copies alike, outside the root included
 *   (every tree has a victim beside its root that hostile links name).
 * reopen: inroot_reopen gives a new fd of the same file with the flags
 *   asked: through O_EMPTYPATH where the kernel has it (Linux 7.2), a
 *   directory's ".", or a proven /proc; with /proc hidden, a regular file
 *   gets EOPNOTSUPP before 7.2 and is reopened on 7.2.
 * mounts: remove_all beside a tmpfs mounted in the tree and a directory
 *   from outside the root bound into it: EBUSY, neither entered, every
 *   other entry removed.
 *
 * Needs root (chroot, mount namespaces). Prints one line per case and
 * "N passed, N failed"; exits 1 if any failed.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "inroot.h"

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#define RENAME_EXCHANGE (1 << 1)
#endif
#include "inroot_call.h"
#include "kernel_env.h"
#include "kernel_side.h"
#include "library_side.h"
#include "proc_mounts.h"
#include "verdicts.h"

struct row {
	enum inroot_op op;
	const char *path;
	const char *other; /* symlink's text, hardlink's and rename's other */
	int arg;	   /* open flags, rename flags, readlink size */
};

/* The tree: root/ and, beside it, outside/victim, which the hostile links
 * name and which nothing may touch. */
static const char *const tree_dirs[] = {
	"root", "outside", "root/dir", "root/dir/sub", "root/empty",
	"root/tree", "root/tree/a", "root/tree/a/b",
};
static const char *const tree_files[] = {
	"outside/victim", "root/file", "root/dir/file", "root/tree/a/b/c",
};
static const char *const tree_links[][2] = {
	{ "root/link_dir", "dir" },
	{ "root/link_file", "file" },
	{ "root/abs_dir", "/dir" },
	{ "root/up", "../../../.." },
	{ "root/escape", "../outside" },
	{ "root/escape_abs", "/outside/victim" },
	{ "root/escape_dir", "../../outside" },
	{ "root/dangling", "nothing" },
	{ "root/loop", "loop" },
	{ "root/tree/a/l", "/dir" },
	{ "root/tree/a/updir", "../../.." },
};
#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct row rows[] = {
	{ OP_RESOLVE, "file", NULL, 0 },
	{ OP_RESOLVE, "link_dir/file", NULL, 0 },
	{ OP_RESOLVE, "up/file", NULL, 0 },
	{ OP_RESOLVE, "escape_dir/outside/victim", NULL, 0 },
	{ OP_RESOLVE, "escape_abs", NULL, 0 },
	{ OP_RESOLVE, "../../outside/victim", NULL, 0 },
	{ OP_RESOLVE, "/../dir/./sub/..", NULL, 0 },
	{ OP_RESOLVE, "loop", NULL, 0 },
	{ OP_RESOLVE, "file/", NULL, 0 },
	{ OP_RESOLVE, "", NULL, 0 },
	{ OP_RESOLVE_NOFOLLOW, "link_file", NULL, 0 },
	{ OP_RESOLVE_NOFOLLOW, "tree/a/l/file", NULL, 0 },
	{ OP_OPEN, "link_file", NULL, O_RDONLY },
	{ OP_OPEN, "link_file", NULL, O_RDONLY | O_NOFOLLOW },
	{ OP_OPEN, "link_dir", NULL, O_RDONLY | O_NOFOLLOW | O_DIRECTORY },
	{ OP_OPEN, "tree/a/updir/dir", NULL, O_RDONLY | O_DIRECTORY },
	{ OP_OPEN, "file", NULL, O_WRONLY | O_APPEND },
	{ OP_CREAT, "dir/new", NULL, O_WRONLY },
	{ OP_CREAT, "escape", NULL, O_WRONLY },
	{ OP_CREAT, "dangling", NULL, O_WRONLY },
	{ OP_CREAT, "dangling", NULL, O_WRONLY | O_NOFOLLOW },
	{ OP_CREAT, "link_file", NULL, O_WRONLY | O_EXCL },
	{ OP_CREAT, "up/../new", NULL, O_RDWR },
	{ OP_MKDIR, "dir/new", NULL, 0 },
	{ OP_MKDIR, "dir/new/", NULL, 0 },
	{ OP_MKDIR, "escape_dir/x", NULL, 0 },
	{ OP_MKDIR, "up/x", NULL, 0 },
	{ OP_MKDIR, "dir/..", NULL, 0 },
	{ OP_MKDIR, "/", NULL, 0 },
	{ OP_MKDIR, "dangling", NULL, 0 },
	{ OP_MKDIR, "file/x", NULL, 0 },
	{ OP_MKDIR_ALL, "dir/sub/x/y/z", NULL, 0 },
	{ OP_MKDIR_ALL, "up/a/../b/c", NULL, 0 },
	{ OP_MKDIR_ALL, "tree/a/l/new/deeper", NULL, 0 },
	{ OP_MKDIR_ALL, "escape_dir/outside/x", NULL, 0 },
	{ OP_MKDIR_ALL, "dangling/x", NULL, 0 },
	{ OP_MKDIR_ALL, "file/x", NULL, 0 },
	{ OP_MKDIR_ALL, "link_file/x", NULL, 0 },
	{ OP_MKDIR_ALL, "dir", NULL, 0 },
	{ OP_MKNOD, "dir/fifo", NULL, S_IFIFO | 0600 },
	{ OP_MKNOD, "escape", NULL, S_IFIFO | 0600 },
	{ OP_MKNOD, "up/node", NULL, S_IFREG | 0600 },
	{ OP_SYMLINK, "dir/new_link", "/outside/victim", 0 },
	{ OP_SYMLINK, "escape_dir/outside/l", "x", 0 },
	{ OP_SYMLINK, "dangling", "x", 0 },
	{ OP_SYMLINK, "dir/x/", "x", 0 },
	{ OP_HARDLINK, "dir/hard", "file", 0 },
	{ OP_HARDLINK, "dir/hard", "escape_abs", 0 },
	{ OP_HARDLINK, "dir/hard", "escape_dir/outside/victim", 0 },
	{ OP_HARDLINK, "up/hard", "link_file", 0 },
	{ OP_HARDLINK, "dir/hard", "dir", 0 },
	{ OP_HARDLINK, "dir/hard", "dir/..", 0 },
	{ OP_HARDLINK, "dir/hard", "link_dir/", 0 },
	{ OP_RENAME, "file", "dir/moved", 0 },
	{ OP_RENAME, "escape", "up/moved", 0 },
	{ OP_RENAME, "dir/file", "escape_dir/outside/victim", 0 },
	{ OP_RENAME, "tree/a", "up/tree/a/b/into_itself", 0 },
	{ OP_RENAME, "file", "dir/file", RENAME_NOREPLACE },
	{ OP_RENAME, "file", "dir/file", RENAME_EXCHANGE },
	{ OP_RENAME, "file", "link_dir/file", RENAME_EXCHANGE },
	{ OP_RENAME, "dir/.", "x", 0 },
	{ OP_RENAME, "/", "x", 0 },
	{ OP_UNLINK, "link_dir", NULL, 0 },
	{ OP_UNLINK, "link_dir/", NULL, 0 },
	{ OP_UNLINK, "escape_abs", NULL, 0 },
	{ OP_UNLINK, "escape_dir/outside/victim", NULL, 0 },
	{ OP_UNLINK, "up/file", NULL, 0 },
	{ OP_UNLINK, "dir", NULL, 0 },
	{ OP_UNLINK, "file/", NULL, 0 },
	{ OP_RMDIR, "empty", NULL, 0 },
	{ OP_RMDIR, "empty/", NULL, 0 },
	{ OP_RMDIR, "dir", NULL, 0 },
	{ OP_RMDIR, "link_dir/", NULL, 0 },
	{ OP_RMDIR, "empty/.", NULL, 0 },
	{ OP_RMDIR, "dir/..", NULL, 0 },
	{ OP_RMDIR, "/", NULL, 0 },
	{ OP_REMOVE_ALL, "tree", NULL, 0 },
	{ OP_REMOVE_ALL, "tree/a/l", NULL, 0 },
	{ OP_REMOVE_ALL, "link_dir", NULL, 0 },
	{ OP_REMOVE_ALL, "escape_dir/outside", NULL, 0 },
	{ OP_REMOVE_ALL, "up/tree/a/b", NULL, 0 },
	{ OP_REMOVE_ALL, "nothing/at/all", NULL, 0 },
	{ OP_REMOVE_ALL, "file/x", NULL, 0 },
	{ OP_READLINK, "escape_abs", NULL, 64 },
	{ OP_READLINK, "escape_abs", NULL, 4 },
	{ OP_READLINK, "up/tree/a/l", NULL, 64 },
	{ OP_READLINK, "file", NULL, 64 },
	{ OP_READLINK, "link_dir/", NULL, 64 },
	{ OP_READLINK, "tree/a/l/", NULL, 64 },
	{ OP_READLINK, "dir/..", NULL, 64 },
	{ OP_READLINK, "nothing", NULL, 64 },
};

/* What a call answered, as a child reports it through a pipe. */
struct outcome {
	long ret; /* >= 0: 0, a length, or 1 for "an fd" */
	int err;
	int flags; /* an fd's F_GETFL */
	char file[128]; /* an fd's file, as a path in the root */
	char text[64]; /* readlink's text */
};

static char top[] = "/tmp/test-inroot.XXXXXX";

static int make_tree(const char *at)
{
	char path[PATH_MAX];
	int fd;

	if (mkdir(at, 0755) != 0)
		return -1;
	for (size_t i = 0; i < N(tree_dirs); i++) {
		snprintf(path, sizeof path, "%s/%s", at, tree_dirs[i]);
		if (mkdir(path, 0755) != 0)
			return -1;
	}
	for (size_t i = 0; i < N(tree_files); i++) {
		snprintf(path, sizeof path, "%s/%s", at, tree_files[i]);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd < 0 || write(fd, tree_files[i], 4) != 4 || close(fd))
			return -1;
	}
	for (size_t i = 0; i < N(tree_links); i++) {
		snprintf(path, sizeof path, "%s/%s", at, tree_links[i][0]);
		if (symlink(tree_links[i][1], path) != 0)
			return -1;
	}
	snprintf(path, sizeof path, "%s/root/fifo", at);
	return mkfifo(path, 0644);
}

/* Appends one line per file under dir (relative name rel) to out: name,
 * type, mode, link text. Sorted by readdir's order; both trees are
 * listed alike and compared as sorted sets by the caller. */
static void list_tree(const char *dir, const char *rel, char *out, size_t size)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		char path[PATH_MAX], name[PATH_MAX], text[128] = "";
		struct stat st;
		size_t used = strlen(out);

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		snprintf(name, sizeof name, "%s/%s", rel, e->d_name);
		if (lstat(path, &st) != 0)
			continue;
		if (S_ISLNK(st.st_mode) &&
		    readlink(path, text, sizeof text - 1) < 0)
			text[0] = '\0';
		snprintf(out + used, size - used, "%s %o %s\n", name,
			 (unsigned)st.st_mode, text);
		if (S_ISDIR(st.st_mode))
			list_tree(path, name, out, size);
	}
	closedir(d);
}

static int compare_lines(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* list_tree, its lines sorted, so that two trees compare as text. */
static void sorted_listing(const char *dir, char *out, size_t size)
{
	char *raw = calloc(1, size), *lines[512], *save = NULL, *line;
	size_t n = 0, used = 0;

	list_tree(dir, "", raw, size);
	for (line = strtok_r(raw, "\n", &save); line != NULL && n < N(lines);
	     line = strtok_r(NULL, "\n", &save))
		lines[n++] = line;
	qsort(lines, n, sizeof lines[0], compare_lines);
	out[0] = '\0';
	for (size_t i = 0; i < n; i++)
		used += (size_t)snprintf(out + used, size - used, "%s\n",
					 lines[i]);
	free(raw);
}

/* The path under root of the file with st's identity, or "" (not in the
 * root: an fd of a file outside it would be an escape). */
static bool find_file(const char *dir, const char *rel, const struct stat *st,
		      char *out, size_t size)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool found = false;

	if (d == NULL)
		return false;
	while (!found && (e = readdir(d)) != NULL) {
		char path[PATH_MAX], name[PATH_MAX];
		struct stat here;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		snprintf(name, sizeof name, "%s/%s", rel, e->d_name);
		if (lstat(path, &here) != 0)
			continue;
		if (here.st_dev == st->st_dev && here.st_ino == st->st_ino) {
			snprintf(out, size, "%.127s", name);
			found = true;
		} else if (S_ISDIR(here.st_mode)) {
			found = find_file(path, name, st, out, size);
		}
	}
	closedir(d);
	return found;
}

static void describe_fd(int fd, const char *root, struct outcome *o)
{
	struct stat st, root_st;

	o->ret = 1;
	o->flags = fcntl(fd, F_GETFL);
	if (fstat(fd, &st) != 0)
		snprintf(o->file, sizeof o->file, "(fstat failed)");
	else if (stat(root, &root_st) == 0 && root_st.st_ino == st.st_ino &&
		 root_st.st_dev == st.st_dev)
		snprintf(o->file, sizeof o->file, "/");
	else if (!find_file(root, "", &st, o->file, sizeof o->file))
		snprintf(o->file, sizeof o->file, "(not in the root)");
}

/* The row as both sides are asked it: what it makes made 0750 (a file
 * 0640), readlink's text read into text, size bytes. */
static struct inroot_call call_of(const struct row *r, char *text, size_t size)
{
	mode_t mode = r->op == OP_MKNOD ? (mode_t)r->arg :
		      r->op == OP_CREAT ? 0640 : 0750;

	return (struct inroot_call){ .op = r->op, .path = r->path,
				     .other = r->other, .flags = r->arg,
				     .mode = mode, .buf = text, .size = size };
}

/* The library's call, in root (a path of the tree's copy). */
static long library_call(const struct row *r, int root, struct outcome *o)
{
	struct inroot_call c = call_of(r, o->text, (size_t)r->arg);

	return library_side_call(root, &c);
}

static void remove_tree(const char *at)
{
	if (kernel_remove_all(at) != 0)
		fprintf(stderr, "could not remove %s: %s\n", at,
			strerror(errno));
}

/* The kernel's own call, in a chroot to the tree's copy: readlink's
 * text read whole, then copied as the library copies it. */
static long kernel_call(const struct row *r, struct outcome *o)
{
	char text[PATH_MAX];
	struct inroot_call c = call_of(r, text, sizeof text);
	long n = kernel_side_call(&c);

	if (r->op == OP_READLINK && n >= 0)
		memcpy(o->text, text,
		       (size_t)n < (size_t)r->arg ? (size_t)n : (size_t)r->arg);
	return n;
}

static void record(const struct row *r, long ret, const char *root,
		   struct outcome *o)
{
	o->err = ret < 0 ? errno : 0;
	o->ret = ret < 0 ? -1 : ret;
	if (ret >= 0 && inroot_op_returns_fd(r->op))
		describe_fd((int)ret, root, o);
}

enum world { KERNEL, REFUSED_ENOSYS, REFUSED_EPERM, NO_PROC, WORLDS };
static const char *const world_names[] = {
	"openat2 allowed", "openat2 refused, ENOSYS",
	"openat2 refused, EPERM", "ENOSYS, no /proc",
};

/* 0, or an errno where the world cannot be made here. */
static int make_world(enum world w)
{
	int err = 0;

	if (w == NO_PROC)
		err = hide_proc();
	if (err == 0 && w != KERNEL)
		err = openat2_refusal() == ENOSYS ?
			      0 :
			      block_openat2(w == REFUSED_EPERM ? EPERM : ENOSYS);
	return err;
}

#define NOT_MADE (-2)

/* Runs one side in a child: the library in world w (w < WORLDS), or the
 * kernel in a chroot (w == WORLDS). */
static int run_side(const struct row *r, int w, const char *at,
		    struct outcome *o)
{
	int fds[2], status;
	pid_t pid;

	memset(o, 0, sizeof *o);
	if (pipe(fds) != 0 || (pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		char root[PATH_MAX];

		close(fds[0]);
		snprintf(root, sizeof root, "%s/root", at);
		if (w == WORLDS) {
			if (chroot(root) != 0 || chdir("/") != 0)
				_exit(3);
			record(r, kernel_call(r, o), "/", o);
		} else {
			int dir = open(root, O_PATH | O_DIRECTORY);

			if (make_world((enum world)w) != 0)
				_exit(2);
			record(r, library_call(r, dir, o), root, o);
		}
		_exit(write(fds[1], o, sizeof *o) == sizeof *o ? 0 : 3);
	}
	close(fds[1]);
	if (read(fds[0], o, sizeof *o) != sizeof *o)
		o->ret = NOT_MADE;
	close(fds[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) && WEXITSTATUS(status) == 2 ? NOT_MADE : 0;
}

static void describe(const struct outcome *o, char *out, size_t size)
{
	if (o->ret < 0)
		snprintf(out, size, "%s", strerror(o->err));
	else
		snprintf(out, size, "%ld file=%s flags=%#o text=%.*s", o->ret,
			 o->file, (unsigned)o->flags, 64, o->text);
}

static bool world_not_made[WORLDS];

/* The two copies, kept from one row to the next while a row leaves them
 * as they were made (most rows that only look): making them is most of
 * a row's time. */
static bool trees_made;
static char pristine_tree[16384];

static void check_row(const struct row *r, enum world w)
{
	static char lib_tree[16384], jail_tree[16384];
	char lib_at[sizeof top + 8], jail_at[sizeof top + 8], name[256];
	char detail[1024], a[300], b[300];
	struct outcome lib, kernel;
	bool same;

	snprintf(lib_at, sizeof lib_at, "%s/lib", top);
	snprintf(jail_at, sizeof jail_at, "%s/jail", top);
	snprintf(name, sizeof name, "%s %s%s%s", inroot_op_name(r->op), r->path,
		 r->other ? " " : "", r->other ? r->other : "");
	if (!trees_made) {
		if (make_tree(lib_at) != 0 || make_tree(jail_at) != 0) {
			verdict(false, name, world_names[w],
				"the tree was not made");
			return;
		}
		sorted_listing(lib_at, pristine_tree, sizeof pristine_tree);
		trees_made = true;
	}
	if (run_side(r, (int)w, lib_at, &lib) == NOT_MADE) {
		world_not_made[w] = true;
	} else {
		run_side(r, WORLDS, jail_at, &kernel);
		sorted_listing(lib_at, lib_tree, sizeof lib_tree);
		sorted_listing(jail_at, jail_tree, sizeof jail_tree);
		same = lib.ret == kernel.ret && lib.err == kernel.err &&
		       inroot_same_fd_flags(r->op, kernel.flags, lib.flags) &&
		       strcmp(lib.file, kernel.file) == 0 &&
		       memcmp(lib.text, kernel.text, sizeof lib.text) == 0;
		describe(&lib, a, sizeof a);
		describe(&kernel, b, sizeof b);
		snprintf(detail, sizeof detail,
			 "library: %s; kernel in a chroot: %s%s", a, b,
			 strcmp(lib_tree, jail_tree) == 0 ?
				 "" :
				 "; the trees differ afterwards");
		verdict(same && strcmp(lib_tree, jail_tree) == 0, name,
			world_names[w], detail);
		if (strcmp(lib_tree, pristine_tree) == 0 &&
		    strcmp(jail_tree, pristine_tree) == 0)
			return;
	}
	remove_tree(lib_at);
	remove_tree(jail_at);
	trees_made = false;
}

static const char *top_child(char *at, const char *name)
{
	snprintf(at, sizeof top + 8, "%s/%s", top, name);
	return at;
}

static void answers(void)
{
	char lib_at[sizeof top + 8], jail_at[sizeof top + 8];

	for (int w = 0; w < WORLDS; w++) {
		if (w == KERNEL && openat2_refusal() != 0) {
			printf("# %s: not on this kernel (openat2 answers %s)\n",
			       world_names[w], strerror(openat2_refusal()));
			continue;
		}
		for (size_t i = 0; i < N(rows) && !world_not_made[w]; i++)
			check_row(&rows[i], (enum world)w);
		if (world_not_made[w])
			printf("# %s: could not be made here (no seccomp "
			       "filter or mount namespace); the other worlds "
			       "were checked\n", world_names[w]);
	}
	if (trees_made) {
		remove_tree(top_child(lib_at, "lib"));
		remove_tree(top_child(jail_at, "jail"));
	}
}

/* One reopen in world w, in a child: the new fd's file and flags, or
 * the errno. */
static void check_reopen(const char *what, const char *path, int flags,
			 enum world w, int want_err)
{
	struct outcome o;
	char root[PATH_MAX], detail[512], name[256], want[128];
	int fds[2], status;
	pid_t pid;

	snprintf(root, sizeof root, "%s/lib/root", top);
	snprintf(name, sizeof name, "reopen %s", what);
	memset(&o, 0, sizeof o);
	if (pipe(fds) != 0 || (pid = fork()) < 0)
		return;
	if (pid == 0) {
		int dir = open(root, O_PATH | O_DIRECTORY);
		int fd = inroot_resolve(dir, path);

		close(fds[0]);
		if (make_world(w) != 0)
			_exit(2);
		record(&rows[0], inroot_reopen(fd, flags), root, &o);
		if (o.ret >= 0)
			o.ret = 1;
		_exit(write(fds[1], &o, sizeof o) == sizeof o ? 0 : 3);
	}
	close(fds[1]);
	if (read(fds[0], &o, sizeof o) != sizeof o)
		o.ret = NOT_MADE;
	close(fds[0]);
	waitpid(pid, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 2)
		return;
	snprintf(want, sizeof want, "/%.120s", path);
	snprintf(detail, sizeof detail, "want %s, got %s (flags %#o)",
		 want_err != 0 ? strerror(want_err) : want,
		 o.ret < 0 ? strerror(o.err) : o.file, (unsigned)o.flags);
	verdict(want_err != 0 ? o.ret < 0 && o.err == want_err :
				o.ret == 1 && strcmp(o.file, want) == 0 &&
					(o.flags & (O_ACCMODE | O_PATH)) ==
						(flags & O_ACCMODE),
		name, world_names[w], detail);
}

static void reopen(void)
{
	char lib_at[sizeof top + 8];
	bool empty_path = kernel_reopens_empty_path();

	snprintf(lib_at, sizeof lib_at, "%s/lib", top);
	if (make_tree(lib_at) != 0) {
		verdict(false, "reopen", "-", "the tree was not made");
		return;
	}
	for (int w = 0; w < WORLDS; w++) {
		if (w == KERNEL && openat2_refusal() != 0)
			continue;
		check_reopen("a file to read", "dir/file", O_RDONLY,
			     (enum world)w,
			     w == NO_PROC && !empty_path ? EOPNOTSUPP : 0);
		check_reopen("a file to write", "file", O_WRONLY | O_APPEND,
			     (enum world)w,
			     w == NO_PROC && !empty_path ? EOPNOTSUPP : 0);
		check_reopen("a directory", "dir/sub", O_RDONLY | O_DIRECTORY,
			     (enum world)w, 0);
		check_reopen("a directory to write", "dir", O_WRONLY,
			     (enum world)w, EISDIR);
		check_reopen("with O_CREAT", "file", O_RDONLY | O_CREAT,
			     (enum world)w, EINVAL);
		check_reopen("a FIFO without a reader, O_NONBLOCK", "fifo",
			     O_WRONLY | O_NONBLOCK, (enum world)w,
			     w == NO_PROC && !empty_path ? EOPNOTSUPP : ENXIO);
	}
	printf("# O_EMPTYPATH: %s\n", empty_path ? "this kernel has it" :
						   "not on this kernel");
	remove_tree(lib_at);
}

/* Whether at holds exactly the names listed (NULL-terminated). */
static bool holds_only(const char *at, const char *const *names)
{
	DIR *d = opendir(at);
	struct dirent *e;
	size_t seen = 0, listed = 0;
	bool only = d != NULL;

	while (names[listed] != NULL)
		listed++;
	while (only && (e = readdir(d)) != NULL) {
		bool known = false;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		for (size_t i = 0; i < listed; i++)
			known = known || strcmp(e->d_name, names[i]) == 0;
		only = known;
		seen++;
	}
	if (d != NULL)
		closedir(d);
	return only && seen == listed;
}

/*
 * remove_all over mounts, in a child's own mount namespace: a tmpfs on
 * root/dir/m and outside/ bound on root/dir/bound are neither entered nor
 * removed (EBUSY), what they hold stays, and every other entry of dir is
 * removed all the same, as `rm -rf` does.
 */
static int remove_all_over_mounts(const char *at, enum world w)
{
	char dir[PATH_MAX], m[PATH_MAX], bound[PATH_MAX], outside[PATH_MAX];
	char kept[PATH_MAX], root[PATH_MAX];
	static const char *const left[] = { "m", "bound", NULL };
	static const char *const victim[] = { "victim", NULL };
	int fd, r;

	snprintf(root, sizeof root, "%s/root", at);
	snprintf(dir, sizeof dir, "%s/root/dir", at);
	snprintf(m, sizeof m, "%s/root/dir/m", at);
	snprintf(bound, sizeof bound, "%s/root/dir/bound", at);
	snprintf(outside, sizeof outside, "%s/outside", at);
	snprintf(kept, sizeof kept, "%s/root/dir/m/kept", at);
	if (private_mount_namespace() != 0 || mkdir(m, 0755) != 0 ||
	    mkdir(bound, 0755) != 0 ||
	    mount("none", m, "tmpfs", 0, NULL) != 0 ||
	    mount(outside, bound, NULL, MS_BIND, NULL) != 0 ||
	    (fd = open(kept, O_WRONLY | O_CREAT, 0644)) < 0 || close(fd) != 0)
		return 2;
	if (make_world(w) != 0)
		return 2;
	fd = open(root, O_PATH | O_DIRECTORY);
	r = inroot_remove_all(fd, "dir");
	if (r != -1 || errno != EBUSY)
		return 10;
	if (!holds_only(dir, left))
		return 11;
	if (access(kept, F_OK) != 0 || !holds_only(outside, victim))
		return 12;
	return 0;
}

static void mounts(void)
{
	static const char *const why[] = {
		[10] = "remove_all did not answer EBUSY",
		[11] = "dir holds more than its two mount points",
		[12] = "a mount's own files were removed",
	};
	char at[sizeof top + 8];

	for (int w = 0; w < WORLDS; w++) {
		int status;
		pid_t pid;

		if (w == KERNEL && openat2_refusal() != 0)
			continue;
		if (make_tree(top_child(at, "lib")) != 0) {
			verdict(false, "remove_all over mounts", world_names[w],
				"the tree was not made");
			return;
		}
		pid = fork();
		if (pid == 0)
			_exit(remove_all_over_mounts(at, (enum world)w));
		waitpid(pid, &status, 0);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 2)
			printf("# remove_all over mounts (%s): the world could "
			       "not be made here\n", world_names[w]);
		else
			verdict(WIFEXITED(status) && WEXITSTATUS(status) == 0,
				"remove_all over mounts", world_names[w],
				WIFEXITED(status) && WEXITSTATUS(status) >= 10 &&
						WEXITSTATUS(status) <= 12 ?
					why[WEXITSTATUS(status)] :
					"the child failed");
		remove_tree(at);
	}
}

int main(int argc, char **argv)
{
	if (argc != 2 || (strcmp(argv[1], "answers") != 0 &&
			  strcmp(argv[1], "reopen") != 0 &&
			  strcmp(argv[1], "mounts") != 0)) {
		fprintf(stderr, "usage: %s answers|reopen|mounts\n", argv[0]);
		return 2;
	}
	if (geteuid() != 0) {
		printf("SKIP: needs root (chroot, mount namespaces)\n");
		return 77;
	}
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	umask(022);
	if (strcmp(argv[1], "answers") == 0)
		answers();
	else if (strcmp(argv[1], "mounts") == 0)
		mounts();
	else
		reopen();
	rmdir(top);
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
