#define _GNU_SOURCE
#include "question_set.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Every operation, as asked of each path: the path is the operation's
 * first name, or (path_second) the other name is, and the path the
 * second. */
static const struct variant {
	enum inroot_op op;
	int flags;
	mode_t mode;
	const char *other;
	bool path_second;
	size_t size;
} variants[] = {
	{ .op = OP_RESOLVE },
	{ .op = OP_RESOLVE_NOFOLLOW },
	/* O_NONBLOCK wherever a FIFO would wait for its other end: an
	 * answer (an fd, or ENXIO) instead of a hang. */
	{ .op = OP_OPEN, .flags = O_RDONLY | O_NONBLOCK },
	{ .op = OP_OPEN, .flags = O_WRONLY | O_NONBLOCK },
	{ .op = OP_OPEN, .flags = O_RDWR | O_NONBLOCK },
	{ .op = OP_OPEN, .flags = O_WRONLY | O_TRUNC | O_NONBLOCK },
	{ .op = OP_OPEN, .flags = O_RDONLY | O_DIRECTORY },
	{ .op = OP_OPEN, .flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK },
	{ .op = OP_OPEN, .flags = O_RDONLY | O_NOFOLLOW | O_DIRECTORY },
	{ .op = OP_OPEN, .flags = O_PATH },
	{ .op = OP_OPEN, .flags = O_PATH | O_NOFOLLOW | O_DIRECTORY },
	{ .op = OP_CREAT, .flags = O_WRONLY | O_NONBLOCK, .mode = 0640 },
	{ .op = OP_CREAT, .flags = O_WRONLY | O_EXCL | O_NONBLOCK,
	  .mode = 0640 },
	{ .op = OP_CREAT, .flags = O_RDWR | O_NOFOLLOW | O_NONBLOCK,
	  .mode = 0604 },
	{ .op = OP_CREAT,
	  .flags = O_WRONLY | O_EXCL | O_NOFOLLOW | O_NONBLOCK, .mode = 0600 },
	/* EINVAL since Linux 6.4. */
	{ .op = OP_CREAT, .flags = O_RDONLY | O_DIRECTORY, .mode = 0755 },
	{ .op = OP_MKDIR, .mode = 0750 },
	{ .op = OP_MKDIR_ALL, .mode = 0751 },
	{ .op = OP_MKNOD, .mode = S_IFIFO | 0640 },
	{ .op = OP_MKNOD, .mode = S_IFREG | 0604 },
	{ .op = OP_SYMLINK, .other = "d/e" },
	{ .op = OP_SYMLINK, .other = "/etc/" },
	{ .op = OP_HARDLINK, .other = "f" },
	/* Two names, where both are wrong: the kernel judges the existing
	 * one (linkat's first) before the new, "" included. */
	{ .op = OP_HARDLINK, .other = "nowhere" },
	{ .op = OP_HARDLINK, .other = "", .path_second = true },
	{ .op = OP_HARDLINK, .other = "linked", .path_second = true },
	{ .op = OP_RENAME, .other = "moved" },
	{ .op = OP_RENAME, .flags = RENAME_NOREPLACE, .other = "moved" },
	/* The kernel walks to the source's directory before it judges a
	 * destination of "". */
	{ .op = OP_RENAME, .other = "" },
	{ .op = OP_RENAME, .flags = RENAME_EXCHANGE, .other = "f" },
	{ .op = OP_RENAME, .other = "f", .path_second = true },
	{ .op = OP_RENAME, .flags = RENAME_NOREPLACE, .other = "f",
	  .path_second = true },
	{ .op = OP_RENAME, .flags = RENAME_EXCHANGE, .other = "f",
	  .path_second = true },
	{ .op = OP_RENAME, .other = "d", .path_second = true },
	{ .op = OP_RENAME, .flags = RENAME_NOREPLACE, .other = "d/e",
	  .path_second = true },
	{ .op = OP_RENAME, .flags = RENAME_EXCHANGE, .other = "d",
	  .path_second = true },
	{ .op = OP_UNLINK },
	{ .op = OP_RMDIR },
	{ .op = OP_REMOVE_ALL },
	{ .op = OP_READLINK, .size = 3 },
	{ .op = OP_READLINK, .size = PATH_MAX },
	/* 2.1's: a last link followed, or (AT_SYMLINK_NOFOLLOW) acted on;
	 * every file and directory of a tree has user.t, its own path. */
	{ .op = OP_STATX },
	{ .op = OP_STATX, .flags = AT_SYMLINK_NOFOLLOW },
	{ .op = OP_CHMOD, .mode = 0604 },
	{ .op = OP_CHMOD, .mode = 0604, .flags = AT_SYMLINK_NOFOLLOW },
	{ .op = OP_CHOWN },
	{ .op = OP_CHOWN, .flags = AT_SYMLINK_NOFOLLOW },
	{ .op = OP_UTIMENS },
	{ .op = OP_UTIMENS, .flags = AT_SYMLINK_NOFOLLOW },
	{ .op = OP_GETXATTR, .other = "user.t", .size = 64 },
	{ .op = OP_GETXATTR, .other = "user.t", .size = 64,
	  .flags = AT_SYMLINK_NOFOLLOW },
	{ .op = OP_SETXATTR, .other = "user.n" },
	{ .op = OP_SETXATTR, .other = "user.n", .flags = AT_SYMLINK_NOFOLLOW },
	{ .op = OP_LISTXATTR, .size = 64 },
	{ .op = OP_REMOVEXATTR, .other = "user.t" },
	/* The fd forms whose ways differ from the path forms' (statx,
	 * chown and utimens take "" with AT_EMPTY_PATH alike). */
	{ .op = OP_FCHMOD, .mode = 0604 },
	{ .op = OP_FSETXATTR, .other = "user.n" },
	{ .op = OP_MKNOD_CHECKED, .mode = S_IFIFO | 0640 },
	{ .op = OP_BIND, .other = "d" },
	{ .op = OP_MASK },
	{ .op = OP_REMOUNT_RDONLY },
};
#define VARIANTS (sizeof(variants) / sizeof(variants[0]))

/* A question that mounts is asked in a child of its own (a mount
 * namespace to take the mount away), a hundred times the cost of the
 * others: the mounting operations are asked these paths of the first
 * tree, each kind of last component and of link once, and the procfs
 * tree's, not every path nor the random trees'. */
static bool mounts(enum inroot_op op)
{
	return op == OP_BIND || op == OP_MASK || op == OP_REMOUNT_RDONLY;
}

static const char *const mount_paths[] = {
	"", ".", "..", "/", "f", "f/", "f/x", "d", "d/", "d/.", "d/..", "d/e",
	"d/e/g", "d/back", "d/e/up", "a/b/c", "new", "d/new", "link", "link/",
	"link/h", "rel", "relf", "abs", "absf", "ab/c", "root", "root/f", "up",
	"upd", "upd/h", "dangling", "dangling/", "dangabs", "danglingdir",
	"chain", "chain2/", "loop1", "self", "fifo", "fifolink", "slash",
	"slash/", "slashf", "dotlink", "dotdot", "empty", "ro/x", "etc",
};
#define MOUNT_PATHS (sizeof(mount_paths) / sizeof(mount_paths[0]))

static bool asked_mounts(const char *path)
{
	for (size_t i = 0; i < MOUNT_PATHS; i++)
		if (strcmp(mount_paths[i], path) == 0)
			return true;
	return false;
}

static void add(struct tree *t, char type, const char *path, mode_t mode,
		const char *target)
{
	struct tree_entry *e = &t->entries[t->count++];

	e->type = type;
	snprintf(e->path, sizeof(e->path), "%s", path);
	snprintf(e->target, sizeof(e->target), "%s", target ? target : "");
	e->mode = mode;
}

#define DIR(t, p, m) add(t, 'd', p, m, NULL)
#define FILE_(t, p, m) add(t, 'f', p, m, NULL)
#define LINK(t, p, target) add(t, 'l', p, 0, target)

/* Every kind of file and of link the paths go through. */
static void hand_made(struct tree *t, bool with_etc)
{
	snprintf(t->name, sizeof(t->name), "hand-made-%s",
		 with_etc ? "with-etc" : "without-etc");
	FILE_(t, "f", 0644);
	DIR(t, "d", 0755);
	DIR(t, "d/e", 0755);
	FILE_(t, "d/e/g", 0600);
	FILE_(t, "d/h", 0640);
	LINK(t, "d/back", "../f");
	LINK(t, "d/e/up", "../../..");
	DIR(t, "empty", 0700);
	DIR(t, "a", 0755);
	DIR(t, "a/b", 0711);
	FILE_(t, "a/b/c", 0444);
	DIR(t, "ro", 0555);
	FILE_(t, "ro/x", 0644);
	LINK(t, "link", "d");
	LINK(t, "rel", "d/e");
	LINK(t, "relf", "f");
	LINK(t, "abs", "/d");
	LINK(t, "absf", "/f");
	LINK(t, "ab", "/a/b");
	LINK(t, "root", "/");
	LINK(t, "up", "../../../../etc");
	LINK(t, "upd", "../../../../d");
	LINK(t, "dangling", "nowhere");
	LINK(t, "dangabs", "/nowhere");
	LINK(t, "danglingdir", "nowhere/");
	LINK(t, "chain", "rel");
	LINK(t, "chain2", "chain");
	LINK(t, "loop1", "loop2");
	LINK(t, "loop2", "loop1");
	LINK(t, "self", "self");
	add(t, 'p', "fifo", 0644, NULL);
	LINK(t, "fifolink", "fifo");
	LINK(t, "slash", "d/");
	LINK(t, "slashf", "f/");
	LINK(t, "dotlink", ".");
	LINK(t, "dotdot", "..");
	if (with_etc) {
		DIR(t, "etc", 0755);
		FILE_(t, "etc/passwd", 0644);
		FILE_(t, "x", 0600);
		LINK(t, "d/e/deep", "/etc/passwd");
		LINK(t, "d/e/rootlink", "/");
	} else {
		LINK(t, "etc", "/etc");
	}
}

/*
 * A procfs in the tree: the kernel in a chroot follows its magic links
 * (/proc/self/root is the chroot's root), which the library refuses
 * with ELOOP (RESOLVE_NO_MAGICLINKS). The paths never end on a magic
 * link or a pid's directory, whose texts and files are each process's.
 */
static void with_proc(struct tree *t)
{
	snprintf(t->name, sizeof(t->name), "hand-made-with-proc");
	FILE_(t, "f", 0644);
	DIR(t, "d", 0755);
	DIR(t, "d/e", 0755);
	add(t, 'm', "proc", 0555, NULL);
	LINK(t, "me", "/proc/self/root");
	LINK(t, "cwdlink", "/proc/self/cwd/d");
}

static const char *const proc_paths[] = {
	"proc", "proc/", "proc/self/root/f", "proc/self/root/new",
	"proc/self/root/d/", "proc/self/root/d/e/new/",
	"proc/thread-self/root/d/e", "/proc/self/cwd/f", "me", "me/",
	"me/f", "me/new", "me/d/new/", "cwdlink", "cwdlink/e",
};
#define PROC_PATHS (sizeof(proc_paths) / sizeof(proc_paths[0]))

/* The fixed paths; the overlong ones are made at run time. */
static const char *const fixed_paths[] = {
	"", ".", "..", "/", "///", "//f", "f", "f/", "f//", "f/x", "f/..",
	"d", "d/", "d//", "d/.", "d/..", "d/e", "d/e/", "d/e/g", "d/e/g/",
	"d/../f", "d/../../../f", "d/back", "d/back/", "d/e/up", "d/e/up/f",
	"d/e/up/..", "d/e/deep", "d/e/rootlink/f", "a", "a/", "a/..",
	"a/../..", "a/b", "a/b/", "a/b/c", "x", "x/", "x//", "x/y", "new",
	"new/", "d/new", "d/new/", "d/new/deeper", "/new", "../new",
	"../../x", "/../f", "link", "link/", "link/h", "link/new", "rel",
	"rel/", "rel/g", "rel/new", "relf", "relf/", "abs", "abs/",
	"abs/e/g", "abs/new", "/abs", "/abs/", "absf", "absf/", "etc", "etc/",
	"etc/passwd", "etc/new", "ab", "ab/", "ab/c", "root", "root/",
	"root/f", "root/..", "up", "up/", "up/passwd", "upd", "upd/", "upd/h",
	"upd/new", "dangling", "dangling/", "dangabs", "dangabs/",
	"danglingdir", "danglingdir/", "chain", "chain/", "chain/g",
	"chain2", "chain2/", "chain2/new", "loop1", "loop1/", "loop1/x",
	"self", "self/", "fifo", "fifo/", "fifo/x", "fifolink", "slash",
	"slash/", "slash/h", "slashf", "slashf/", "dotlink", "dotlink/f",
	"dotdot", "dotdot/f", "/f", "../../f", "empty", "empty/", "empty/..",
	"ro/x", "ro/new",
};
#define FIXED_PATHS (sizeof(fixed_paths) / sizeof(fixed_paths[0]))

/* The second hand-made tree differs from the first where /etc is a
 * directory and x a file: the paths asked there go through those. */
static const char *const etc_paths[] = {
	"", "/", "etc", "etc/", "etc/passwd", "etc/passwd/", "etc/new",
	"/etc/../../etc/passwd", "../../etc", "root/etc", "up", "up/",
	"up/passwd", "up/new", "dotdot/etc/passwd", "d/../../../etc/passwd",
	"x", "x/", "x//", "x/y", "d/e/deep", "d/e/deep/", "d/e/rootlink/f",
	"d/e/rootlink/etc/passwd",
};
#define ETC_PATHS (sizeof(etc_paths) / sizeof(etc_paths[0]))

/* splitmix64: the same numbers from the same seed everywhere. */
static uint64_t next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned below(uint64_t *state, unsigned n)
{
	return (unsigned)(next(state) % n);
}

/* A few names, so that links and paths meet the files. */
static const char *const names[] = { "a", "b", "c", "d", "f", "g" };
#define NAMES (sizeof(names) / sizeof(names[0]))

/* Components from the names and dots, slashes here and there. */
static void random_path(char *buf, size_t size, uint64_t *state)
{
	unsigned parts = 1 + below(state, 4);
	size_t n = 0;

	if (below(state, 20) == 0) {
		buf[0] = '\0';
		return;
	}
	if (below(state, 4) == 0)
		n += (size_t)snprintf(buf + n, size - n, "/");
	for (unsigned i = 0; i < parts && n < size; i++) {
		unsigned pick = below(state, NAMES + 3);
		const char *part = pick < NAMES ? names[pick] :
				   pick == NAMES ? ".." :
				   pick == NAMES + 1 ? "." : "x";

		n += (size_t)snprintf(buf + n, size - n, "%s%s%s", part,
				      i + 1 < parts ? "/" : "",
				      i + 1 < parts && below(state, 12) == 0 ?
				      "/" : "");
	}
	if (n < size && below(state, 6) == 0)
		snprintf(buf + n, size - n, "/");
}

/* A link's text: a random path, now and then "/" or a climb out. */
static void random_target(char *buf, size_t size, uint64_t *state)
{
	switch (below(state, 10)) {
	case 0:
		snprintf(buf, size, "/");
		return;
	case 1:
		snprintf(buf, size, "../../../..%s", below(state, 2) ? "/f" :
			 "/d/");
		return;
	}
	do
		random_path(buf, size, state);
	while (buf[0] == '\0');
}

static bool has(const struct tree *t, const char *path)
{
	for (size_t i = 0; i < t->count; i++)
		if (strcmp(t->entries[i].path, path) == 0)
			return true;
	return false;
}

/* "f" and "d" always (the operations' other names), then entries under
 * random directories. */
static void random_tree(struct tree *t, unsigned number, uint64_t *state)
{
	const char *dirs[TREE_MAX_ENTRIES] = { "", "d" };
	size_t dir_count = 2;
	unsigned entries = 8 + below(state, 16);

	snprintf(t->name, sizeof(t->name), "random-%u", number);
	FILE_(t, "f", 0644);
	DIR(t, "d", 0755);
	for (unsigned i = 0; i < entries && t->count < TREE_MAX_ENTRIES; i++) {
		const char *parent = dirs[below(state, (unsigned)dir_count)];
		char path[TREE_NAME_MAX], target[TREE_NAME_MAX];
		unsigned kind = below(state, 100);

		snprintf(path, sizeof(path), "%s%s%s", parent,
			 parent[0] ? "/" : "", names[below(state, NAMES)]);
		if (strlen(path) > 40 || has(t, path))
			continue;
		if (kind < 25) {
			DIR(t, path, below(state, 4) ? 0755 : 0700);
			dirs[dir_count++] = t->entries[t->count - 1].path;
		} else if (kind < 50) {
			FILE_(t, path, below(state, 2) ? 0644 : 0600);
		} else if (kind < 55) {
			add(t, 'p', path, 0600, NULL);
		} else {
			random_target(target, sizeof(target), state);
			LINK(t, path, target);
		}
	}
}

static struct question ask(const struct variant *v, const char *path,
			   unsigned tree)
{
	struct question q = {
		.op = v->op, .a = path, .b = v->other, .flags = v->flags,
		.mode = v->mode, .size = v->size, .tree = tree,
	};

	if (v->path_second) {
		q.a = v->other;
		q.b = path;
	}
	return q;
}

/* A path of exactly length characters, "./" repeated up to "f". */
static char *long_path(size_t length)
{
	char *p = malloc(length + 1);

	if (p == NULL)
		return NULL;
	for (size_t i = 0; i + 1 < length; i += 2)
		memcpy(p + i, "./", 2);
	p[length - 1] = 'f';
	p[length] = '\0';
	return p;
}

/* A name one byte longer than NAME_MAX, under d. */
static char *long_name(void)
{
	char *p = malloc(NAME_MAX + 4);

	if (p == NULL)
		return NULL;
	memcpy(p, "d/", 2);
	memset(p + 2, 'n', NAME_MAX + 1);
	p[NAME_MAX + 3] = '\0';
	return p;
}

/* A path made for the set, kept for question_set_free: path, or NULL. */
static char *owned(struct question_set *set, char *path)
{
	if (path != NULL)
		set->paths[set->path_count++] = path;
	return path;
}

/* A hardlink's or rename's other name, random too, in half the random
 * questions: the fixed name beside path replaced. 0, or -1. */
static int other_random_path(struct question_set *set, struct question *q,
			     const char *path, uint64_t *state)
{
	char other[TREE_NAME_MAX];
	char *kept;

	random_path(other, sizeof(other), state);
	kept = owned(set, strdup(other));
	if (kept == NULL)
		return -1;
	if (q->a == path)
		q->b = kept;
	else
		q->a = kept;
	return 0;
}

/* The fixed paths, and the overlong ones: PATH_MAX - 1 characters (the
 * kernel takes them), PATH_MAX (ENAMETOOLONG), and a name too long. */
static size_t all_fixed_paths(struct question_set *set, const char **paths)
{
	size_t n = 0;

	for (size_t i = 0; i < FIXED_PATHS; i++)
		paths[n++] = fixed_paths[i];
	paths[n++] = owned(set, long_path(PATH_MAX - 1));
	paths[n++] = owned(set, long_path(PATH_MAX));
	paths[n++] = owned(set, long_name());
	return paths[n - 1] && paths[n - 2] && paths[n - 3] ? n : 0;
}

int question_set_make(struct question_set *set, uint64_t seed,
		      unsigned random_trees, unsigned random_paths,
		      unsigned ops_per_path)
{
	const char *paths[FIXED_PATHS + 3];
	size_t path_count;
	size_t most = (FIXED_PATHS + 3 + ETC_PATHS + PROC_PATHS) * VARIANTS +
		      (size_t)random_trees * random_paths * ops_per_path;
	uint64_t state = seed;

	set->path_count = 0;
	set->paths = calloc(3 + (size_t)random_trees * random_paths *
				    (1 + ops_per_path), sizeof(*set->paths));
	if (set->paths == NULL)
		return -1;
	path_count = all_fixed_paths(set, paths);
	if (path_count == 0)
		return -1;
	set->tree_count = 3 + random_trees;
	set->trees = calloc(set->tree_count, sizeof(*set->trees));
	set->questions = calloc(most, sizeof(*set->questions));
	set->count = 0;
	if (set->trees == NULL || set->questions == NULL)
		return -1;
	hand_made(&set->trees[0], false);
	for (size_t p = 0; p < path_count; p++)
		for (size_t v = 0; v < VARIANTS; v++)
			if (!mounts(variants[v].op) || asked_mounts(paths[p]))
				set->questions[set->count++] =
					ask(&variants[v], paths[p], 0);
	/* The tree with /etc: 2.0's operations only (2.1's walk the same
	 * way, and are asked the first tree's paths). */
	hand_made(&set->trees[1], true);
	for (size_t p = 0; p < ETC_PATHS; p++)
		for (size_t v = 0; v < VARIANTS; v++)
			if (!INROOT_OP_2_1(variants[v].op))
				set->questions[set->count++] =
					ask(&variants[v], etc_paths[p], 1);
	with_proc(&set->trees[2]);
	for (size_t p = 0; p < PROC_PATHS; p++)
		for (size_t v = 0; v < VARIANTS; v++)
			set->questions[set->count++] =
				ask(&variants[v], proc_paths[p], 2);
	for (unsigned t = 3; t < set->tree_count; t++) {
		random_tree(&set->trees[t], t, &state);
		for (unsigned p = 0; p < random_paths; p++) {
			char path[TREE_NAME_MAX];
			char *kept;

			random_path(path, sizeof(path), &state);
			kept = owned(set, strdup(path));
			if (kept == NULL)
				return -1;
			for (unsigned o = 0; o < ops_per_path; o++) {
				struct question *q =
					&set->questions[set->count++];

				unsigned v;

				do
					v = below(&state, VARIANTS);
				while (mounts(variants[v].op));
				*q = ask(&variants[v], kept, t);
				/* An attribute's name and a bind's
				 * source stay as they are. */
				if (q->b != NULL && q->op != OP_SYMLINK &&
				    !INROOT_OP_2_1(q->op) &&
				    below(&state, 2) &&
				    other_random_path(set, q, kept,
						      &state) < 0)
					return -1;
			}
		}
	}
	return 0;
}

void question_set_free(struct question_set *set)
{
	for (size_t i = 0; i < set->path_count; i++)
		free(set->paths[i]);
	free(set->paths);
	free(set->questions);
	free(set->trees);
	memset(set, 0, sizeof(*set));
}
