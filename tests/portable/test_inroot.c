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
 *   test-inroot answers|reopen|mounts|refills
 *   test-inroot cloexec REPORT-INHERITED
 *
 * answers: a table of calls. Each runs twice on fresh copies of one tree,
 *   through the library in a forked child (the world made there), and as
 *   the kernel's call in a child chrooted to the copy, as root or, where
 *   the row says so, as uid and gid 65534; the two must give the same
 *   result and errno, the same file for an fd, with the same F_GETFL
 *   flags (inroot_same_fd_flags: O_LARGEFILE too) and close-on-exec flag
 *   (the kernel's opens are asked with O_CLOEXEC and O_NOCTTY, which
 *   inroot.h's add), the same link text, and leave the two copies alike,
 *   outside the root included (every tree has a victim beside its root
 *   that hostile links name).
 * reopen: inroot_reopen gives a new fd of the same file with the flags
 *   asked: through O_EMPTYPATH where the kernel has it (Linux 7.2), a
 *   directory's ".", or a proven /proc; with /proc hidden, a regular file
 *   gets EOPNOTSUPP before 7.2 and is reopened on 7.2. What the kernel
 *   refuses is refused alike in every world.
 * mounts: remove_all beside a tmpfs mounted in the tree and a directory
 *   from outside the root bound into it, and above tmpfs mounted deeper
 *   (two levels, and 300): EBUSY, none entered, every other entry of the
 *   tree removed, as rm -rf removes them; and of a tree 2,300 deep.
 * refills: remove_all of a tree where a directory beneath the top, and
 *   one 300 levels down, is refilled each time it is read (a fanotify
 *   permission event): ENOTEMPTY after a few refills, the rest removed.
 *   Both with their trees on a tmpfs and on a ramfs (deep_trees_on).
 * Exits 77 (SKIP) where a mount namespace, or for refills fanotify's
 *   permission events, cannot be had.
 * cloexec: an fd from each function that returns one, asked with flags
 *   without O_CLOEXEC, is closed by an exec (of tests/programs/
 *   report_inherited.c, which needs no /proc to start).
 *
 * Needs root (chroot, mount namespaces). Prints one line per case and
 * "N passed, N failed"; exits 1 if any failed.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/fanotify.h>
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
	mode_t mode;	   /* creat's, where not 0640 */
	bool nobody;	   /* asked as uid and gid 65534, not as root */
	bool shut_root;	   /* in root/shut, which uid 65534 may not search */
};

/* A flag bit that no kernel knows: open(2) drops it. */
#define UNKNOWN_OPEN_FLAG (1 << 30)

/* The tree: root/ and, beside it, outside/victim, which the hostile links
 * name and which nothing may touch. */
static const char *const tree_dirs[] = {
	"root", "outside", "root/dir", "root/dir/sub", "root/empty",
	"root/tree", "root/tree/a", "root/tree/a/b", "root/shut",
	"root/private", "root/search_only",
};
static const char *const tree_files[] = {
	"outside/victim", "root/file", "root/dir/file", "root/tree/a/b/c",
	"root/shut/x",
};
/* Directories that uid 65534 may not enter (shut, private) or read
 * (search_only), their modes set once the tree is made. */
static const struct {
	const char *path;
	mode_t mode;
} tree_modes[] = {
	{ "root/shut", 0 },
	{ "root/private", 0700 },
	{ "root/search_only", 0711 },
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
	{ "root/link_private", "private" },
};
#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct row rows[] = {
	{ OP_RESOLVE, "file", NULL, 0, 0, false, false },
	{ OP_RESOLVE, "link_dir/file", NULL, 0, 0, false, false },
	{ OP_RESOLVE, "up/file", NULL, 0, 0, false, false },
	{ OP_RESOLVE, "escape_dir/outside/victim", NULL, 0, 0, false, false },
	{ OP_RESOLVE, "escape_abs", NULL, 0, 0, false, false },
	{ OP_RESOLVE, "../../outside/victim", NULL, 0, 0, false, false },
	{ OP_RESOLVE, "/../dir/./sub/..", NULL, 0, 0, false, false },
	{ OP_RESOLVE, "loop", NULL, 0, 0, false, false },
	{ OP_RESOLVE, "file/", NULL, 0, 0, false, false },
	{ OP_RESOLVE, "", NULL, 0, 0, false, false },
	{ OP_RESOLVE_NOFOLLOW, "link_file", NULL, 0, 0, false, false },
	{ OP_RESOLVE_NOFOLLOW, "tree/a/l/file", NULL, 0, 0, false, false },
	{ OP_OPEN, "link_file", NULL, O_RDONLY, 0, false, false },
	{ OP_OPEN, "link_file", NULL, O_RDONLY | O_NOFOLLOW, 0, false, false },
	{ OP_OPEN, "link_dir", NULL, O_RDONLY | O_NOFOLLOW | O_DIRECTORY, 0,
	  false, false },
	{ OP_OPEN, "tree/a/updir/dir", NULL, O_RDONLY | O_DIRECTORY, 0, false, false },
	{ OP_OPEN, "file", NULL, O_WRONLY | O_APPEND, 0, false, false },
	/* What open(2) takes and openat2 refuses: O_PATH keeps only the
	 * flags it takes, an unknown bit is dropped. */
	{ OP_OPEN, "file", NULL, O_PATH | O_NOCTTY, 0, false, false },
	{ OP_OPEN, "file", NULL, O_PATH | O_NONBLOCK, 0, false, false },
	{ OP_OPEN, "file", NULL, O_PATH | O_RDWR, 0, false, false },
	{ OP_OPEN, "dir", NULL, O_PATH | O_CREAT, 0, false, false },
	{ OP_OPEN, "dir", NULL, O_PATH | O_TMPFILE | O_RDWR, 0, false, false },
	{ OP_OPEN, "file", NULL, O_RDONLY | UNKNOWN_OPEN_FLAG, 0, false, false },
	{ OP_OPEN, "file", NULL, O_PATH | UNKNOWN_OPEN_FLAG, 0, false, false },
	{ OP_CREAT, "dir/new", NULL, O_WRONLY, 0, false, false },
	{ OP_CREAT, "escape", NULL, O_WRONLY, 0, false, false },
	{ OP_CREAT, "dangling", NULL, O_WRONLY, 0, false, false },
	{ OP_CREAT, "dangling", NULL, O_WRONLY | O_NOFOLLOW, 0, false, false },
	{ OP_CREAT, "link_file", NULL, O_WRONLY | O_EXCL, 0, false, false },
	{ OP_CREAT, "up/../new", NULL, O_RDWR, 0, false, false },
	{ OP_CREAT, "dir/new", NULL, O_WRONLY, S_IFREG | 0644, false, false },
	{ OP_CREAT, "dir/new", NULL, O_WRONLY | UNKNOWN_OPEN_FLAG, 0600, false,
	  false },
	{ OP_CREAT, "dir/new", NULL, O_PATH, 0, false, false },
	{ OP_CREAT, "file", NULL, O_PATH | O_RDWR, 0600, false, false },
	{ OP_MKDIR, "dir/new", NULL, 0, 0, false, false },
	{ OP_MKDIR, "dir/new/", NULL, 0, 0, false, false },
	{ OP_MKDIR, "escape_dir/x", NULL, 0, 0, false, false },
	{ OP_MKDIR, "up/x", NULL, 0, 0, false, false },
	{ OP_MKDIR, "dir/..", NULL, 0, 0, false, false },
	{ OP_MKDIR, "/", NULL, 0, 0, false, false },
	{ OP_MKDIR, "dangling", NULL, 0, 0, false, false },
	{ OP_MKDIR, "file/x", NULL, 0, 0, false, false },
	{ OP_MKDIR_ALL, "dir/sub/x/y/z", NULL, 0, 0, false, false },
	{ OP_MKDIR_ALL, "up/a/../b/c", NULL, 0, 0, false, false },
	{ OP_MKDIR_ALL, "tree/a/l/new/deeper", NULL, 0, 0, false, false },
	{ OP_MKDIR_ALL, "escape_dir/outside/x", NULL, 0, 0, false, false },
	{ OP_MKDIR_ALL, "dangling/x", NULL, 0, 0, false, false },
	{ OP_MKDIR_ALL, "file/x", NULL, 0, 0, false, false },
	{ OP_MKDIR_ALL, "link_file/x", NULL, 0, 0, false, false },
	{ OP_MKDIR_ALL, "dir", NULL, 0, 0, false, false },
	{ OP_MKNOD, "dir/fifo", NULL, S_IFIFO | 0600, 0, false, false },
	{ OP_MKNOD, "escape", NULL, S_IFIFO | 0600, 0, false, false },
	{ OP_MKNOD, "up/node", NULL, S_IFREG | 0600, 0, false, false },
	{ OP_SYMLINK, "dir/new_link", "/outside/victim", 0, 0, false, false },
	{ OP_SYMLINK, "escape_dir/outside/l", "x", 0, 0, false, false },
	{ OP_SYMLINK, "dangling", "x", 0, 0, false, false },
	{ OP_SYMLINK, "dir/x/", "x", 0, 0, false, false },
	{ OP_HARDLINK, "dir/hard", "file", 0, 0, false, false },
	{ OP_HARDLINK, "dir/hard", "escape_abs", 0, 0, false, false },
	{ OP_HARDLINK, "dir/hard", "escape_dir/outside/victim", 0, 0, false, false },
	{ OP_HARDLINK, "up/hard", "link_file", 0, 0, false, false },
	{ OP_HARDLINK, "dir/hard", "dir", 0, 0, false, false },
	{ OP_HARDLINK, "dir/hard", "dir/..", 0, 0, false, false },
	{ OP_HARDLINK, "dir/hard", "link_dir/", 0, 0, false, false },
	/* A directory named with a slash, which the caller may not search:
	 * the kernel looks it up in its parent, and nothing inside it. */
	{ OP_HARDLINK, "c", "private/", 0, 0, true, false },
	{ OP_HARDLINK, "/", "private/", 0, 0, true, false },
	{ OP_HARDLINK, "c", "link_private/", 0, 0, true, false },
	{ OP_HARDLINK, "c", "private/.", 0, 0, true, false },
	{ OP_RENAME, "file", "dir/moved", 0, 0, false, false },
	{ OP_RENAME, "escape", "up/moved", 0, 0, false, false },
	{ OP_RENAME, "dir/file", "escape_dir/outside/victim", 0, 0, false, false },
	{ OP_RENAME, "tree/a", "up/tree/a/b/into_itself", 0, 0, false, false },
	{ OP_RENAME, "file", "dir/file", RENAME_NOREPLACE, 0, false, false },
	{ OP_RENAME, "file", "dir/file", RENAME_EXCHANGE, 0, false, false },
	{ OP_RENAME, "file", "link_dir/file", RENAME_EXCHANGE, 0, false, false },
	{ OP_RENAME, "dir/.", "x", 0, 0, false, false },
	{ OP_RENAME, "/", "x", 0, 0, false, false },
	/* Search permission on the old name's directory is checked before
	 * the new name is looked at. */
	{ OP_RENAME, "shut/x", "nowhere/y", 0, 0, true, false },
	{ OP_RENAME, "shut/.", "nowhere/y", 0, 0, true, false },
	{ OP_RENAME, "shut/x", "file/y", 0, 0, true, false },
	{ OP_RENAME, "dir/file", "nowhere/y", 0, 0, true, false },
	{ OP_UNLINK, "link_dir", NULL, 0, 0, false, false },
	{ OP_UNLINK, "link_dir/", NULL, 0, 0, false, false },
	{ OP_UNLINK, "escape_abs", NULL, 0, 0, false, false },
	{ OP_UNLINK, "escape_dir/outside/victim", NULL, 0, 0, false, false },
	{ OP_UNLINK, "up/file", NULL, 0, 0, false, false },
	{ OP_UNLINK, "dir", NULL, 0, 0, false, false },
	{ OP_UNLINK, "file/", NULL, 0, 0, false, false },
	{ OP_RMDIR, "empty", NULL, 0, 0, false, false },
	{ OP_RMDIR, "empty/", NULL, 0, 0, false, false },
	{ OP_RMDIR, "dir", NULL, 0, 0, false, false },
	{ OP_RMDIR, "link_dir/", NULL, 0, 0, false, false },
	{ OP_RMDIR, "empty/.", NULL, 0, 0, false, false },
	{ OP_RMDIR, "dir/..", NULL, 0, 0, false, false },
	{ OP_RMDIR, "/", NULL, 0, 0, false, false },
	{ OP_REMOVE_ALL, "tree", NULL, 0, 0, false, false },
	{ OP_REMOVE_ALL, "tree/a/l", NULL, 0, 0, false, false },
	{ OP_REMOVE_ALL, "link_dir", NULL, 0, 0, false, false },
	{ OP_REMOVE_ALL, "escape_dir/outside", NULL, 0, 0, false, false },
	{ OP_REMOVE_ALL, "up/tree/a/b", NULL, 0, 0, false, false },
	{ OP_REMOVE_ALL, "nothing/at/all", NULL, 0, 0, false, false },
	{ OP_REMOVE_ALL, "file/x", NULL, 0, 0, false, false },
	/* "." and ".." are looked up, as rm -rf's rmdir looks them up: in a
	 * directory that may be searched. */
	{ OP_REMOVE_ALL, "shut/.", NULL, 0, 0, true, false },
	{ OP_REMOVE_ALL, "shut/..", NULL, 0, 0, true, false },
	/* A path of slashes only names the root and looks nothing up in it:
	 * the answers of the kernel's calls for "/" in a root the caller
	 * may not search. */
	{ OP_MKDIR, "/", NULL, 0, 0, true, true },
	{ OP_MKNOD, "//", NULL, S_IFIFO | 0600, 0, true, true },
	{ OP_SYMLINK, "/", "x", 0, 0, true, true },
	{ OP_UNLINK, "/", NULL, 0, 0, true, true },
	{ OP_RMDIR, "/", NULL, 0, 0, true, true },
	{ OP_REMOVE_ALL, "/", NULL, 0, 0, true, true },
	{ OP_HARDLINK, "/", "/", 0, 0, true, true },
	{ OP_RENAME, "/", "//", 0, 0, true, true },
	{ OP_RENAME, "/", "/", RENAME_NOREPLACE, 0, true, true },
	{ OP_READLINK, "/", NULL, 64, 0, true, true },
	{ OP_READLINK, "escape_abs", NULL, 64, 0, false, false },
	{ OP_READLINK, "escape_abs", NULL, 4, 0, false, false },
	{ OP_READLINK, "up/tree/a/l", NULL, 64, 0, false, false },
	{ OP_READLINK, "file", NULL, 64, 0, false, false },
	{ OP_READLINK, "link_dir/", NULL, 64, 0, false, false },
	{ OP_READLINK, "tree/a/l/", NULL, 64, 0, false, false },
	{ OP_READLINK, "dir/..", NULL, 64, 0, false, false },
	{ OP_READLINK, "nothing", NULL, 64, 0, false, false },
};

/* What a call answered, as a child reports it through a pipe. */
struct outcome {
	long ret; /* >= 0: 0, a length, or 1 for "an fd" */
	int err;
	int flags; /* an fd's F_GETFL */
	int cloexec; /* an fd's F_GETFD & FD_CLOEXEC */
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
	for (size_t i = 0; i < N(tree_modes); i++) {
		snprintf(path, sizeof path, "%s/%s", at, tree_modes[i].path);
		if (chmod(path, tree_modes[i].mode) != 0)
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
	o->cloexec = fcntl(fd, F_GETFD) & FD_CLOEXEC;
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
		      r->op == OP_CREAT ? (r->mode != 0 ? r->mode : 0640) :
					  0750;

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

/* This process as uid and gid 65534, with no groups: 0, or -1. */
static int become_nobody(void)
{
	return setgroups(0, NULL) == 0 && setresgid(65534, 65534, 65534) == 0 &&
			       setresuid(65534, 65534, 65534) == 0 ?
		       0 :
		       -1;
}

/* Runs one side in a child, as the row's user: the library in world w
 * (w < WORLDS), or the kernel in a chroot (w == WORLDS). */
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
		snprintf(root, sizeof root, "%s/root%s", at,
			 r->shut_root ? "/shut" : "");
		if (w == WORLDS) {
			if (chroot(root) != 0 || chdir("/") != 0 ||
			    (r->nobody && become_nobody() != 0))
				_exit(3);
			record(r, kernel_call(r, o), "/", o);
		} else {
			int dir = open(root, O_PATH | O_DIRECTORY);

			if (make_world((enum world)w) != 0)
				_exit(2);
			if (r->nobody && become_nobody() != 0)
				_exit(3);
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
		snprintf(out, size, "%ld file=%s flags=%#o%s text=%.*s",
			 o->ret, o->file, (unsigned)o->flags,
			 o->cloexec ? " cloexec" : "", 64, o->text);
}

static bool world_not_made[WORLDS];

/* The two copies, kept from one row to the next while a row leaves them
 * as they were made (most rows that only look): making them is most of
 * a row's time. */
static bool trees_made;
static char pristine_tree[16384];

/* Whether the kernel takes an fd as linkat's source (AT_EMPTY_PATH) from
 * the process that opened it, without CAP_DAC_READ_SEARCH (Linux 6.10):
 * asked as uid 65534, in a child, with a new name that cannot be made. */
static bool kernel_links_by_fd(void)
{
	static int answer = -1;
	int status;
	pid_t pid;

	if (answer >= 0)
		return answer;
	pid = fork();
	if (pid == 0) {
		int fd = become_nobody() == 0 ? open("/", O_PATH) : -1;

		_exit(fd >= 0 && linkat(fd, "", -1, "x", AT_EMPTY_PATH) < 0 &&
		      errno == EBADF);
	}
	answer = waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		 WEXITSTATUS(status) == 1;
	return answer;
}

/*
 * The answer inroot.h documents where it differs from the kernel's: a
 * hardlink of a directory named with a trailing slash, which uid 65534
 * may not search, names it by "." before Linux 6.10 (EACCES). NULL where
 * the kernel's answer is the row's.
 */
static const char *documented_answer(const struct row *r, int *err)
{
	size_t n = r->other != NULL ? strlen(r->other) : 0;

	if (r->op != OP_HARDLINK || !r->nobody || n == 0 ||
	    r->other[n - 1] != '/' || strcmp(r->path, "/") == 0 ||
	    kernel_links_by_fd())
		return NULL;
	*err = EACCES;
	return "a directory the caller may not search, named with a slash, "
	       "as linkat's source before Linux 6.10 (inroot(3) NOTES)";
}

/* " flags 0101" for an open's or creat's row, else "". */
static const char *open_flags_text(const struct row *r, char *buf,
				   size_t size)
{
	buf[0] = '\0';
	if (r->op == OP_OPEN || r->op == OP_CREAT)
		snprintf(buf, size, " flags %#o", (unsigned)r->arg);
	if (r->mode != 0)
		snprintf(buf + strlen(buf), size - strlen(buf), " mode %#o",
			 (unsigned)r->mode);
	return buf;
}

static void check_row(const struct row *r, enum world w)
{
	static char lib_tree[16384], jail_tree[16384];
	char lib_at[sizeof top + 8], jail_at[sizeof top + 8], name[256];
	char detail[1024], a[300], b[300], flags[64];
	struct outcome lib, kernel;
	const char *documented;
	int documented_err;
	bool same;

	snprintf(lib_at, sizeof lib_at, "%s/lib", top);
	snprintf(jail_at, sizeof jail_at, "%s/jail", top);
	snprintf(name, sizeof name, "%s %s%s%s%s%s%s", inroot_op_name(r->op),
		 r->path, r->other ? " " : "", r->other ? r->other : "",
		 open_flags_text(r, flags, sizeof flags),
		 r->nobody ? " as uid 65534" : "",
		 r->shut_root ? " in a root it may not search" : "");
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
		       lib.cloexec == kernel.cloexec &&
		       strcmp(lib.file, kernel.file) == 0 &&
		       memcmp(lib.text, kernel.text, sizeof lib.text) == 0;
		if ((documented = documented_answer(r, &documented_err))) {
			printf("# %s (%s): %s\n", name, world_names[w],
			       documented);
			same = lib.ret == -1 && lib.err == documented_err;
		}
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

/* A reopen: of what inroot_resolve finds at path, with flags, as root
 * or with the effective ids 65534 (nobody). */
struct reopen_case {
	const char *what, *path;
	int flags;
	bool nobody;
};

/* The access an fd opened with flags has: open(2) keeps O_PATH alone. */
static int access_of(int flags)
{
	return flags & O_PATH ? O_PATH : flags & O_ACCMODE;
}

/* This process's effective ids 65534 (on) or back to root (off), the
 * saved ones kept: 0, or -1. */
static int effective_nobody(bool on)
{
	if (on)
		return setgroups(0, NULL) == 0 &&
				       setresgid(-1, 65534, -1) == 0 &&
				       setresuid(-1, 65534, -1) == 0 ?
			       0 :
			       -1;
	return setresuid(-1, 0, -1) == 0 && setresgid(-1, 0, -1) == 0 ? 0 : -1;
}

/* One reopen in world w, in a child: the new fd's file and flags, or
 * the errno, against want_err (0: the file itself, close-on-exec). */
static void check_reopen(const struct reopen_case *c, enum world w,
			 int want_err)
{
	struct outcome o;
	char root[PATH_MAX], detail[512], name[256], want[128];
	int fds[2], status;
	pid_t pid;

	snprintf(root, sizeof root, "%s/lib/root", top);
	snprintf(name, sizeof name, "reopen %s%s", c->what,
		 c->nobody ? " as uid 65534" : "");
	memset(&o, 0, sizeof o);
	if (pipe(fds) != 0 || (pid = fork()) < 0)
		return;
	if (pid == 0) {
		int dir = open(root, O_PATH | O_DIRECTORY);
		int fd = inroot_resolve(dir, c->path), r;

		close(fds[0]);
		if (make_world(w) != 0)
			_exit(2);
		if (c->nobody && effective_nobody(true) != 0)
			_exit(3);
		r = inroot_reopen(fd, c->flags);
		if (c->nobody && effective_nobody(false) != 0)
			_exit(3);
		record(&rows[0], r, root, &o);
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
	snprintf(want, sizeof want, "/%.120s", c->path);
	snprintf(detail, sizeof detail, "want %s, got %s (flags %#o%s)",
		 want_err != 0 ? strerror(want_err) : want,
		 o.ret < 0 ? strerror(o.err) : o.file, (unsigned)o.flags,
		 o.cloexec ? ", close-on-exec" : "");
	verdict(want_err != 0 ? o.ret < 0 && o.err == want_err :
				o.ret == 1 && strcmp(o.file, want) == 0 &&
					(o.flags & (O_ACCMODE | O_PATH)) ==
						access_of(c->flags) &&
					o.cloexec,
		name, world_names[w], detail);
}

/* What open(2) answers that no way of reopening may change: the same
 * in every world, where no way to reopen is needed to know it. */
static const struct {
	struct reopen_case c;
	int err;
} refused_alike[] = {
	{ { "a directory to write", "dir", O_WRONLY, false }, EISDIR },
	{ { "with O_CREAT", "file", O_RDONLY | O_CREAT, false }, EINVAL },
	{ { "a file with O_DIRECTORY", "file", O_RDONLY | O_DIRECTORY, false },
	  ENOTDIR },
	/* A directory uid 65534 may search but not read: its "." is found,
	 * and the open itself refused. */
	{ { "a directory that may not be read", "search_only", O_RDONLY,
	    true },
	  EACCES },
	{ { "a directory that may not be read, O_DIRECTORY", "search_only",
	    O_RDONLY | O_DIRECTORY, true },
	  EACCES },
	/* Nor searched: opened to write, a directory is EISDIR first. */
	{ { "a directory that may not be searched, to write", "private",
	    O_RDWR, true },
	  EISDIR },
	{ { "a directory that may not be searched, O_TRUNC", "private",
	    O_RDONLY | O_TRUNC, true },
	  EISDIR },
};

/* Flags that open(2) takes and openat2 refuses, on a directory, which
 * every world reopens. */
static const struct reopen_case directory_flags[] = {
	{ "a directory", "dir/sub", O_RDONLY | O_DIRECTORY, false },
	{ "a directory, O_PATH|O_RDWR", "dir/sub", O_PATH | O_RDWR, false },
	{ "a directory, O_PATH|O_NOCTTY|O_NONBLOCK", "dir/sub",
	  O_PATH | O_NOCTTY | O_NONBLOCK, false },
	{ "a directory, O_PATH|O_CREAT", "dir/sub", O_PATH | O_CREAT, false },
	{ "a directory, an unknown flag", "dir/sub",
	  O_RDONLY | UNKNOWN_OPEN_FLAG, false },
};

static void reopen(void)
{
	static const struct reopen_case read_file = { "a file to read",
						      "dir/file", O_RDONLY,
						      false };
	static const struct reopen_case write_file = {
		"a file to write", "file", O_WRONLY | O_APPEND, false
	};
	static const struct reopen_case fifo = {
		"a FIFO without a reader, O_NONBLOCK", "fifo",
		O_WRONLY | O_NONBLOCK, false
	};
	char lib_at[sizeof top + 8];
	bool empty_path = kernel_reopens_empty_path();

	snprintf(lib_at, sizeof lib_at, "%s/lib", top);
	if (make_tree(lib_at) != 0) {
		verdict(false, "reopen", "-", "the tree was not made");
		return;
	}
	for (int w = 0; w < WORLDS; w++) {
		bool no_way = w == NO_PROC && !empty_path;

		if (w == KERNEL && openat2_refusal() != 0)
			continue;
		check_reopen(&read_file, (enum world)w, no_way ? EOPNOTSUPP : 0);
		check_reopen(&write_file, (enum world)w,
			     no_way ? EOPNOTSUPP : 0);
		check_reopen(&fifo, (enum world)w, no_way ? EOPNOTSUPP : ENXIO);
		for (size_t i = 0; i < N(directory_flags); i++)
			check_reopen(&directory_flags[i], (enum world)w, 0);
		for (size_t i = 0; i < N(refused_alike); i++)
			check_reopen(&refused_alike[i].c, (enum world)w,
				     refused_alike[i].err);
	}
	printf("# O_EMPTYPATH: %s\n", empty_path ? "this kernel has it" :
						   "not on this kernel");
	remove_tree(lib_at);
}

/* Whether path in dirfd holds exactly the names listed (NULL-terminated):
 * read through an fd, so that no /proc is needed. */
static bool holds_only_at(int dirfd, const char *path,
			  const char *const *names)
{
	int fd = openat(dirfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *e;
	size_t seen = 0, listed = 0;
	bool only = d != NULL;

	if (d == NULL && fd >= 0)
		close(fd);
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

static bool holds_only(const char *at, const char *const *names)
{
	return holds_only_at(AT_FDCWD, at, names);
}

/* The file system the deep trees are made on (deep_trees_on), in the
 * verdicts' names. */
static const char *deep_fs;

static const char *world_on_fs(enum world w)
{
	static char name[96];

	snprintf(name, sizeof name, "%s, on %s", world_names[w], deep_fs);
	return name;
}

/* A directory of its own for world w's tree, in at: what one world's
 * failure leaves does not stop the next. */
static const char *world_dir(char *at, enum world w)
{
	snprintf(at, sizeof top + 8, "%s/lib%d", top, (int)w);
	return at;
}

/*
 * Two chains of levels directories in dir, "p/c/c/..." and "q/c/c/...",
 * each level with a file "x", an empty directory "e" and a directory "s"
 * holding a file beside the next, and a directory "m" at the bottom of
 * each: 0, or -1. Deeper than the levels remove_all holds open (256) and
 * than the places it keeps in its own structure (64), so that its walk
 * lets levels go and comes down to them again.
 */
static int make_chains(int dir, int levels)
{
	static const char *const first[] = { "p", "q" };

	for (int chain = 0; chain < 2; chain++) {
		int fd = mkdirat(dir, first[chain], 0755) == 0 ?
				 openat(dir, first[chain], O_PATH | O_DIRECTORY) :
				 -1;

		for (int i = 0; i < levels && fd >= 0; i++) {
			int next = -1, f;

			if (mkdirat(fd, "c", 0755) == 0 &&
			    mkdirat(fd, "e", 0755) == 0 &&
			    mkdirat(fd, "s", 0755) == 0 &&
			    (f = openat(fd, "x", O_WRONLY | O_CREAT, 0644)) >= 0 &&
			    close(f) == 0 &&
			    (f = openat(fd, "s/y", O_WRONLY | O_CREAT, 0644)) >= 0 &&
			    close(f) == 0)
				next = openat(fd, "c", O_PATH | O_DIRECTORY);
			close(fd);
			fd = next;
		}
		if (fd < 0 || mkdirat(fd, "m", 0755) != 0 || close(fd) != 0)
			return -1;
	}
	return 0;
}

/* Whether the chain of levels directories "c" in path (in dirfd) is all
 * that is left of it: each holding the next alone, the deepest holding
 * "m" alone. */
static bool chain_alone(int dirfd, const char *path, int levels)
{
	static const char *const next[] = { "c", NULL };
	static const char *const end[] = { "m", NULL };
	int fd = openat(dirfd, path, O_PATH | O_DIRECTORY);
	bool alone = true;

	for (int i = 0; i <= levels && alone && fd >= 0; i++) {
		int down;

		alone = holds_only_at(fd, ".", i < levels ? next : end);
		down = i < levels ? openat(fd, "c", O_PATH | O_DIRECTORY) : -1;
		close(fd);
		fd = down;
	}
	if (fd >= 0)
		close(fd);
	return alone && fd < 0;
}

#define CHAIN_LEVELS 300

/* A tmpfs mounted on path: 0, or -1. */
static int mount_tmpfs(const char *path)
{
	return mount("none", path, "tmpfs", 0, NULL);
}

/*
 * The mount points deeper in the tree: root/tree/a/m and root/tree/b/m,
 * each beside a directory y holding a file, and the bottoms of two chains
 * CHAIN_LEVELS deep in root/deep. Each directory that holds a mount point
 * has a sibling that holds one too, whatever order the file system lists
 * them in. 0, or -1.
 */
static int mount_deeper(const char *at)
{
	static const char *const sides[] = { "a", "b" };
	char path[PATH_MAX];
	int fd, r = 0;

	for (size_t i = 0; i < N(sides) && r == 0; i++) {
		snprintf(path, sizeof path, "%s/root/tree/%s", at, sides[i]);
		mkdir(path, 0755);
		strcat(path, "/m");
		r = mkdir(path, 0755) == 0 ? mount_tmpfs(path) : -1;
		snprintf(path, sizeof path, "%s/root/tree/%s/y", at, sides[i]);
		if (r == 0 && mkdir(path, 0755) == 0 &&
		    (fd = open(strcat(path, "/z"), O_WRONLY | O_CREAT, 0644)) >= 0)
			r = close(fd);
	}
	snprintf(path, sizeof path, "%s/root/deep", at);
	if (r != 0 || mkdir(path, 0755) != 0 ||
	    (fd = open(path, O_PATH | O_DIRECTORY)) < 0 ||
	    make_chains(fd, CHAIN_LEVELS) != 0 || close(fd) != 0)
		return -1;
	for (int chain = 0; chain < 2 && r == 0; chain++) {
		snprintf(path, sizeof path, "%s/root/deep/%s", at,
			 chain == 0 ? "p" : "q");
		for (int i = 0; i < CHAIN_LEVELS; i++)
			strcat(path, "/c");
		r = mount_tmpfs(strcat(path, "/m"));
	}
	return r;
}

/* root/deeper: two chains DEEPER_LEVELS deep, with no mount in them, which
 * remove_all removes whole (its places for them outgrow their first
 * mapping, 2,048 levels). 0, or -1. */
#define DEEPER_LEVELS 2300

static int make_deeper(const char *root)
{
	int dir = open(root, O_PATH | O_DIRECTORY), fd, r;

	if (dir < 0 || mkdirat(dir, "deeper", 0755) != 0 ||
	    (fd = openat(dir, "deeper", O_PATH | O_DIRECTORY)) < 0)
		return -1;
	r = make_chains(fd, DEEPER_LEVELS);
	close(fd);
	close(dir);
	return r;
}

/*
 * remove_all over mounts, in a child's own mount namespace: a tmpfs on
 * root/dir/m and outside/ bound on root/dir/bound are neither entered nor
 * removed (EBUSY), what they hold stays, and every other entry of dir is
 * removed all the same, as `rm -rf` does; and so is every other entry of
 * a tree with mount points deeper in it (mount_deeper), the directories
 * above a mount point left, and nothing else; a tree deeper still with
 * none is removed whole.
 */
static int remove_all_over_mounts(const char *at, enum world w)
{
	char dir[PATH_MAX], m[PATH_MAX], bound[PATH_MAX], outside[PATH_MAX];
	char kept[PATH_MAX], root[PATH_MAX];
	static const char *const left[] = { "m", "bound", NULL };
	static const char *const victim[] = { "victim", NULL };
	static const char *const sides[] = { "a", "b", NULL };
	static const char *const m_only[] = { "m", NULL };
	static const char *const chains[] = { "p", "q", NULL };
	int fd, r;

	snprintf(root, sizeof root, "%s/root", at);
	snprintf(dir, sizeof dir, "%s/root/dir", at);
	snprintf(m, sizeof m, "%s/root/dir/m", at);
	snprintf(bound, sizeof bound, "%s/root/dir/bound", at);
	snprintf(outside, sizeof outside, "%s/outside", at);
	snprintf(kept, sizeof kept, "%s/root/dir/m/kept", at);
	if (private_mount_namespace() != 0 || mkdir(m, 0755) != 0 ||
	    mkdir(bound, 0755) != 0 || mount_tmpfs(m) != 0 ||
	    mount(outside, bound, NULL, MS_BIND, NULL) != 0 ||
	    (fd = open(kept, O_WRONLY | O_CREAT, 0644)) < 0 || close(fd) != 0 ||
	    mount_deeper(at) != 0 || make_deeper(root) != 0)
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
	r = inroot_remove_all(fd, "tree");
	if (r != -1 || errno != EBUSY)
		return 10;
	if (!holds_only_at(fd, "tree", sides) ||
	    !holds_only_at(fd, "tree/a", m_only) ||
	    !holds_only_at(fd, "tree/b", m_only))
		return 13;
	r = inroot_remove_all(fd, "deep");
	if (r != -1 || errno != EBUSY)
		return 10;
	if (!holds_only_at(fd, "deep", chains) ||
	    !chain_alone(fd, "deep/p", CHAIN_LEVELS) ||
	    !chain_alone(fd, "deep/q", CHAIN_LEVELS))
		return 14;
	if (inroot_remove_all(fd, "deeper") != 0 ||
	    faccessat(fd, "deeper", F_OK, AT_SYMLINK_NOFOLLOW) == 0)
		return 15;
	return 0;
}

/* Always true: mounts runs wherever the mount namespace was made. */
static bool mounts(void)
{
	static const char *const why[] = {
		[10] = "remove_all did not answer EBUSY",
		[11] = "dir holds more than its two mount points",
		[12] = "a mount's own files were removed",
		[13] = "tree holds more than a/m and b/m: the rest was left",
		[14] = "deep holds more than its chains down to m",
		[15] = "deeper (2300 levels) was not removed whole",
	};
	char at[sizeof top + 8];

	for (int w = 0; w < WORLDS; w++) {
		int status;
		pid_t pid;

		if (w == KERNEL && openat2_refusal() != 0)
			continue;
		if (make_tree(world_dir(at, (enum world)w)) != 0) {
			verdict(false, "remove_all over mounts",
				world_on_fs((enum world)w),
				"the tree was not made");
			return true;
		}
		pid = fork();
		if (pid == 0)
			_exit(remove_all_over_mounts(at, (enum world)w));
		waitpid(pid, &status, 0);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 2)
			printf("# remove_all over mounts (%s): the world could "
			       "not be made here\n", world_on_fs((enum world)w));
		else
			verdict(WIFEXITED(status) && WEXITSTATUS(status) == 0,
				"remove_all over mounts",
				world_on_fs((enum world)w),
				WIFEXITED(status) && WEXITSTATUS(status) >= 10 &&
						WEXITSTATUS(status) <= 15 ?
					why[WEXITSTATUS(status)] :
					"the child failed");
		remove_tree(at);
	}
	return true;
}

/*
 * refills: a directory that another process refills each time it is
 * read, beneath the top of remove_all's path (root/tree/sub) and 300
 * levels below it (the bottom of root/deep/p, below the levels the call
 * holds open). A fanotify permission event (FAN_ACCESS_PERM) holds each
 * getdents64 of the directory until a file is added to it, which makes
 * the refill certain. The call must return, ENOTEMPTY, after at most
 * REFILLS_AT_MOST refills, with everything else removed and only the
 * directories above the refilled one left. Needs fanotify's permission
 * events (CONFIG_FANOTIFY_ACCESS_PERMISSIONS) and root.
 */
#define REFILLS_AT_MOST 8 /* two emptyings of two reads each, twice over */
#define REFILLS_GIVEN_UP 1000 /* where the refilling stops */

/* In a child: refills dir each time it is read, one byte down report for
 * each file added; the first byte says the mark is set ('m'), or why not
 * ('e': errno follows). Runs until killed. */
static void refill_on_read(const char *dir, int report)
{
	char buf[4096], name[32];
	int group = fanotify_init(FAN_CLASS_CONTENT | FAN_CLOEXEC, O_RDONLY);
	int at = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC), added = 0;
	ssize_t n;

	if (group < 0 || at < 0 ||
	    fanotify_mark(group, FAN_MARK_ADD, FAN_ACCESS_PERM | FAN_ONDIR,
			  AT_FDCWD, dir) != 0) {
		int err = errno;

		if (write(report, "e", 1) != 1 ||
		    write(report, &err, sizeof err) != sizeof err)
			_exit(1);
		_exit(0);
	}
	if (write(report, "m", 1) != 1)
		_exit(1);
	while ((n = read(group, buf, sizeof buf)) > 0) {
		struct fanotify_event_metadata *e = (void *)buf;

		for (; FAN_EVENT_OK(e, n); e = FAN_EVENT_NEXT(e, n)) {
			struct fanotify_response allow = { .fd = e->fd,
							   .response = FAN_ALLOW };
			int fd;

			snprintf(name, sizeof name, "refill%d", added);
			if (added < REFILLS_GIVEN_UP &&
			    (fd = openat(at, name, O_WRONLY | O_CREAT, 0644)) >= 0 &&
			    close(fd) == 0 && write(report, "+", 1) == 1)
				added++;
			if (write(group, &allow, sizeof allow) != sizeof allow)
				_exit(1);
			close(e->fd);
		}
	}
	_exit(0);
}

/* What the call answered, from the child that made it. */
struct refill_outcome {
	int ret, err;
	bool left_right; /* only the directories above the refilled one left */
};

/* In a child: the call in world w, ended by SIGALRM where it does not
 * return. */
static void remove_refilled(const char *root, const char *path, enum world w,
			    int out)
{
	static const char *const sub_only[] = { "sub", NULL };
	static const char *const p_only[] = { "p", NULL };
	struct refill_outcome o = { 0 };
	int fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (make_world(w) != 0)
		_exit(2);
	alarm(60);
	o.ret = inroot_remove_all(fd, path);
	o.err = errno;
	alarm(0);
	o.left_right = strcmp(path, "tree") == 0 ?
			       holds_only_at(fd, "tree", sub_only) :
			       holds_only_at(fd, "deep", p_only) &&
				       chain_alone(fd, "deep/p", CHAIN_LEVELS);
	_exit(write(out, &o, sizeof o) == sizeof o ? 0 : 3);
}

/* Makes root/tree/sub and root/deep's chains, each refilled directory
 * holding a file (so that it is entered), in the tree at: the path of
 * the one refilled into dir, or NULL. */
static const char *make_refilled(const char *at, const char *path, char *dir,
				 size_t size)
{
	int fd;

	snprintf(dir, size, "%s/root/tree/sub", at);
	if (strcmp(path, "deep") == 0) {
		snprintf(dir, size, "%s/root/deep", at);
		if (mkdir(dir, 0755) != 0 ||
		    (fd = open(dir, O_PATH | O_DIRECTORY)) < 0 ||
		    make_chains(fd, CHAIN_LEVELS) != 0 || close(fd) != 0)
			return NULL;
		strcat(dir, "/p");
		for (int i = 0; i < CHAIN_LEVELS; i++)
			strcat(dir, "/c");
		strcat(dir, "/m");
	} else if (mkdir(dir, 0755) != 0) {
		return NULL;
	}
	snprintf(dir + strlen(dir), size - strlen(dir), "/first");
	if ((fd = open(dir, O_WRONLY | O_CREAT, 0644)) < 0 || close(fd) != 0)
		return NULL;
	*strrchr(dir, '/') = '\0';
	return dir;
}

/* One case: 1 where it was asked, 0 where fanotify is not there. */
static int check_refilled(const char *path, enum world w)
{
	char at[sizeof top + 8], root[PATH_MAX], dir[PATH_MAX], name[64];
	char detail[256], first;
	int report[2], result[2], status = 0, err = 0, refills = 0;
	struct refill_outcome o = { .ret = NOT_MADE };
	pid_t responder, caller = -1;

	snprintf(name, sizeof name, "remove_all of %s, refilled", path);
	if (make_tree(world_dir(at, w)) != 0 ||
	    make_refilled(at, path, dir, sizeof dir) == NULL ||
	    pipe(report) != 0 || pipe(result) != 0) {
		verdict(false, name, world_on_fs(w), "the tree was not made");
		return 1;
	}
	snprintf(root, sizeof root, "%s/root", at);
	fflush(stdout);
	if ((responder = fork()) == 0) {
		close(report[0]);
		refill_on_read(dir, report[1]);
	}
	close(report[1]);
	if (read(report[0], &first, 1) != 1 ||
	    (first == 'e' && read(report[0], &err, sizeof err) != sizeof err)) {
		first = 'e';
		err = EIO;
	}
	if (first == 'm' && (caller = fork()) == 0) {
		close(result[0]);
		remove_refilled(root, path, w, result[1]);
	}
	close(result[1]);
	if (first == 'm') {
		waitpid(caller, &status, 0);
		if (read(result[0], &o, sizeof o) != sizeof o)
			o.ret = WIFSIGNALED(status) ? -2 : NOT_MADE;
	}
	kill(responder, SIGKILL);
	waitpid(responder, NULL, 0);
	while (read(report[0], &first, 1) == 1)
		refills += first == '+';
	close(report[0]);
	close(result[0]);
	remove_tree(at);
	if (err != 0) {
		printf("# %s: no fanotify permission events here (%s)\n", name,
		       strerror(err));
		return 0;
	}
	if (o.ret == NOT_MADE && WIFEXITED(status) && WEXITSTATUS(status) == 2)
		return 1; /* the world could not be made here */
	snprintf(detail, sizeof detail, "%s after %d refills%s",
		 o.ret == -2 ? "did not return" :
		 o.ret == 0   ? "returned 0" :
				strerror(o.err),
		 refills, o.left_right ? "" : ", the tree not left as it should");
	printf("# %s (%s): %s\n", name, world_on_fs(w), detail);
	verdict(o.ret == -1 && o.err == ENOTEMPTY &&
			refills <= REFILLS_AT_MOST && o.left_right,
		name, world_on_fs(w), detail);
	return 1;
}

static bool refills(void)
{
	bool asked = false;

	for (int w = 0; w < WORLDS; w++) {
		if (w == KERNEL && openat2_refusal() != 0)
			continue;
		asked |= check_refilled("tree", (enum world)w) != 0;
		asked |= check_refilled("deep", (enum world)w) != 0;
	}
	return asked;
}

/*
 * refills: remove_all of a tree where a directory beneath the top, and
 *   one 300 levels down, is refilled each time it is read (a fanotify
 *   permission event): ENOTEMPTY after a few refills, the rest removed.
 * cloexec: an fd from each function that returns one, asked with flags
 * that do not say O_CLOEXEC, in each world, must not survive an exec:
 * report-inherited, exec'd with its number, says whether it did.
 */
static const struct {
	enum inroot_op op;
	const char *path;
	int flags;
} cloexec_cases[] = {
	{ OP_RESOLVE, "file", 0 },
	{ OP_RESOLVE_NOFOLLOW, "link_file", 0 },
	{ OP_OPEN, "file", O_RDONLY },
	{ OP_OPEN, "dir", O_RDONLY | O_DIRECTORY },
	{ OP_OPEN, "file", O_PATH },
	{ OP_OPEN, "fifo", O_RDWR | O_NONBLOCK },
	{ OP_CREAT, "dir/new", O_WRONLY },
	{ OP_CREAT, "dir", O_TMPFILE | O_RDWR },
	{ OP_MKDIR_ALL, "dir/x/y", 0 },
	{ OP_REOPEN, "dir", O_RDONLY },
	{ OP_REOPEN, "dir", O_PATH },
	{ OP_REOPEN, "file", O_RDWR },
};

static const char *report_inherited; /* the program cloexec execs */

/* In a child of its own: the call in world w, then an exec of
 * report-inherited, which answers 0 where the fd is closed (1 where it
 * was inherited); or 2 (the world could not be made), 4 (no fd:
 * EOPNOTSUPP, no way to reopen here), 5 (the call failed), 6 (no exec). */
static int call_then_exec(size_t i, enum world w, const char *root)
{
	struct inroot_call c = { .op = cloexec_cases[i].op,
				 .path = cloexec_cases[i].path,
				 .flags = cloexec_cases[i].flags,
				 .mode = 0640 };
	int dir = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	char number[24];
	long fd;

	if (make_world(w) != 0)
		return 2;
	fd = library_side_call(dir, &c);
	if (fd < 0)
		return c.op == OP_REOPEN && errno == EOPNOTSUPP ? 4 : 5;
	snprintf(number, sizeof number, "%ld", fd);
	execl(report_inherited, report_inherited, number, (char *)NULL);
	return 6;
}

static void cloexec(void)
{
	static const char *const why[] = {
		[1] = "the fd survived the exec",
		[5] = "the call failed",
		[6] = "could not exec report-inherited",
	};
	char at[sizeof top + 8], root[PATH_MAX], name[128];

	for (int w = 0; w < WORLDS; w++) {
		if (w == KERNEL && openat2_refusal() != 0)
			continue;
		for (size_t i = 0; i < N(cloexec_cases); i++) {
			int status;
			pid_t pid;

			if (make_tree(top_child(at, "lib")) != 0) {
				verdict(false, "cloexec", world_names[w],
					"the tree was not made");
				return;
			}
			snprintf(root, sizeof root, "%s/root", at);
			snprintf(name, sizeof name, "%s %s flags %#o, exec",
				 inroot_op_name(cloexec_cases[i].op),
				 cloexec_cases[i].path,
				 (unsigned)cloexec_cases[i].flags);
			fflush(stdout);
			pid = fork();
			if (pid == 0)
				_exit(call_then_exec(i, (enum world)w, root));
			waitpid(pid, &status, 0);
			remove_tree(at);
			if (!WIFEXITED(status)) {
				verdict(false, name, world_names[w],
					"the child died");
			} else if (WEXITSTATUS(status) == 4) {
				printf("# %s (%s): no way to reopen here\n",
				       name, world_names[w]);
			} else if (WEXITSTATUS(status) != 2) {
				int e = WEXITSTATUS(status);

				verdict(e == 0, name, world_names[w],
					e < (int)N(why) && why[e] ? why[e] :
								    "?");
			}
		}
	}
}

/*
 * mounts and refills make trees 300 levels deep, two per world, which
 * takes a minute of mkdirs on a disk shared with other work: on a file
 * system of this process's own mount namespace instead, fs, mounted on
 * top. Both kinds of positions in a directory are met so: tmpfs's, which
 * stay (Linux 6.6 and later), and ramfs's, counts of the entries before,
 * which move down when one is removed (tmpfs's before 6.6 too). 0, or an
 * errno.
 */
static int deep_trees_on(const char *fs)
{
	static bool private;
	int err = private ? 0 : private_mount_namespace();

	private = err == 0;
	if (err == 0 && mount("inroot-deep", top, fs, 0, "mode=0700") != 0)
		err = errno;
	deep_fs = fs;
	return err;
}

/* mounts or refills (run) on each kind of file system: NULL, or why
 * not. */
static const char *on_each_fs(bool (*run)(void))
{
	static const char *const kinds[] = { "tmpfs", "ramfs" };

	for (size_t i = 0; i < N(kinds); i++) {
		if (deep_trees_on(kinds[i]) != 0)
			return "needs a mount namespace and a tmpfs and ramfs "
			       "of its own";
		if (!run())
			return "no fanotify permission events here";
		umount2(top, MNT_DETACH);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	bool cloexec_asked = argc == 3 && strcmp(argv[1], "cloexec") == 0;
	const char *skipped = NULL;

	if (!cloexec_asked && (argc != 2 || (strcmp(argv[1], "answers") != 0 &&
					     strcmp(argv[1], "reopen") != 0 &&
					     strcmp(argv[1], "mounts") != 0 &&
					     strcmp(argv[1], "refills") != 0))) {
		fprintf(stderr, "usage: %s answers|reopen|mounts|refills\n"
				"       %s cloexec REPORT-INHERITED\n",
			argv[0], argv[0]);
		return 2;
	}
	report_inherited = argv[2];
	if (geteuid() != 0) {
		printf("SKIP: needs root (chroot, mount namespaces)\n");
		return 77;
	}
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	umask(022);
	if (strcmp(argv[1], "answers") == 0) {
		answers();
	} else if (strcmp(argv[1], "cloexec") == 0) {
		cloexec();
	} else if (strcmp(argv[1], "reopen") == 0) {
		reopen();
	} else {
		skipped = on_each_fs(strcmp(argv[1], "mounts") == 0 ? mounts :
								      refills);
		umount2(top, MNT_DETACH); /* where a run stopped */
	}
	rmdir(top);
	if (skipped != NULL) {
		printf("SKIP: %s\n", skipped);
		return 77;
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
