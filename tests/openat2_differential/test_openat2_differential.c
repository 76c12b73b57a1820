/*
 * openat2's fallback against the kernel's openat2, over generated trees,
 * paths, dirfds, open flags and every combination of RESOLVE_ flags but
 * CACHED: the same errno, or the same file (dev/ino) with the same F_GETFL
 * flags, and the same tree afterwards.
 *
 * The trees hold nested directories, files, relative and absolute
 * symlinks, chains, loops, dangling links, links to "..", a tmpfs mount,
 * a bind mount (of a directory outside the root) and a procfs, whose
 * magic links (fd/N, cwd, root, exe) the paths reach. Everything happens
 * in private mount and pid namespaces, chrooted into a tmpfs: absolute
 * paths and magic links reach nothing of the machine's. Needs root.
 *
 *   OPENAT2_DIFFERENTIAL_SEED   the seed (default below)
 *   OPENAT2_DIFFERENTIAL_CASES  how many cases (default below; a long run:
 *                               1000000)
 *   OPENAT2_DIFFERENTIAL_CASE   run this one case only (a reproducer)
 *   OPENAT2_DIFFERENTIAL_SIDE   "openat2" (default): the library's public
 *                               openat2 where a seccomp filter refuses
 *                               openat2 (ENOSYS); "resolver": the resolver
 *                               itself
 *   OPENAT2_DIFFERENTIAL_VERBOSE  print every case
 *   OPENAT2_DIFFERENTIAL_WITHOUT_KERNEL  where openat2 is refused (valgrind
 *                               knows none), the fallback's side alone
 *
 * The first difference is printed as a one-line reproducer.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <dirent.h>
#include <unistd.h>

#include "openat2_again.h"
#include "openat2_side.h"

#define DEFAULT_SEED 20200106 /* any fixed value: runs must repeat */
#define DEFAULT_CASES 5000
#define CASES_PER_TREE 1000
#define PROC_SUPER_MAGIC_VALUE 0x9fa0
#define MAGIC_FILE_FD 50 /* /out/secret: a magic link out of the root */
#define MAGIC_DIR_FD 51 /* /r */

/* splitmix64: small, and the same sequence everywhere. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15U);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9U;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebU;
	return z ^ (z >> 31);
}

static unsigned int pick(uint64_t *state, unsigned int n)
{
	return (unsigned int)(next_random(state) % n);
}

static uint64_t env_number(const char *name, uint64_t fallback)
{
	const char *value = getenv(name);

	return value != NULL && *value != '\0' ? strtoull(value, NULL, 0) :
						 fallback;
}

static void die(const char *what)
{
	fprintf(stderr, "openat2-differential: %s: %s\n", what,
		strerror(errno));
	exit(1);
}

/* ---- the world: namespaces, a chroot, a tree ---- */

/* The directory the world is mounted on: made and removed by main. */
static char world_dir[] = "/tmp/openat2-differential-XXXXXX";

static int enter_world(void)
{
	if (mount("none", world_dir, "tmpfs", 0, "size=8m") < 0)
		die("mount tmpfs");
	if (chdir(world_dir) < 0 || chroot(".") < 0 || chdir("/") < 0)
		die("chroot");
	if (mkdir("/proc", 0755) < 0 ||
	    mount("proc", "/proc", "proc", 0, NULL) < 0)
		die("mount procfs");
	return 0;
}

static const char *const dir_names[] = { "a", "b", "c" };
static const char *const file_names[] = { "f", "g" };
static const char *const link_names[] = { "l1", "l2", "l3", "l4", "l5" };

/* Path vocabulary: the tree's names, the procfs's, and the rest. */
static const char *const words[] = {
	".", "..", "..", "a", "b", "c", "f", "g", "l1", "l2", "l3", "l4",
	"l5", "missing", "mnt", "bind", "proc", "self", "fd", "50", "51",
	"cwd", "root", "exe", "out", "secret", "r", "dir",
};

/* Names in the tree, relative to /r, for paths that reach something. */
static char known[48][64];
static unsigned int nknown;

static void add_known(const char *path)
{
	if (nknown < 48 && strncmp(path, "/r/", 3) == 0)
		snprintf(known[nknown++], sizeof *known, "%s", path + 3);
}

static const char *const magic_starts[] = {
	"proc/self/fd/50", "proc/self/fd/51", "proc/self/cwd",
	"proc/self/root", "proc/self/exe", "/proc/self/fd/51",
	"/proc/self/cwd", "proc/self", "/proc/self/root/r",
};

/* A path: a start (random words, a name in the tree, the same from the
 * root or from above, a magic link), then random words. One pick() per
 * expression: the order of a call's arguments is the compiler's, and a
 * seed must give the same cases with gcc and clang. */
static void make_path(uint64_t *s, char *buf, size_t size, bool for_link)
{
	/* Mostly none or one word more: most longer paths are ENOENT. */
	unsigned int n = pick(s, 10) < 5 ? 0 : pick(s, for_link ? 2 : 3);
	const char *from;
	size_t len = 0;

	buf[0] = '\0';
	switch (nknown ? pick(s, 6) : 0) {
	case 0:
		n++;
		if (pick(s, 4) == 0)
			len += (size_t)snprintf(buf, size, "/");
		break;
	case 1:
	case 2:
		len += (size_t)snprintf(buf, size, "%s",
					known[pick(s, nknown)]);
		break;
	case 3:
		from = pick(s, 2) ? "/r/" : "/";
		len += (size_t)snprintf(buf, size, "%s%s", from,
					known[pick(s, nknown)]);
		break;
	case 4:
		from = pick(s, 2) ? "../" : "../../";
		len += (size_t)snprintf(buf, size, "%s%s", from,
					known[pick(s, nknown)]);
		break;
	default:
		len += (size_t)snprintf(buf, size, "%s",
					magic_starts[pick(s, sizeof magic_starts /
							     sizeof *magic_starts)]);
		break;
	}
	for (unsigned int i = 0; i < n && len < size; i++) {
		const char *w = words[pick(s, sizeof words / sizeof *words)];

		len += (size_t)snprintf(buf + len, size - len, "%s%s%s",
					len && buf[len - 1] != '/' ? "/" : "",
					pick(s, 10) == 0 ? "/" : "", w);
	}
	if (len < size && pick(s, 7) == 0)
		snprintf(buf + len, size - len, "/");
}

static void remove_tree(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return;
	if (S_ISDIR(st.st_mode)) {
		/* Names come from the vocabulary only; try each. */
		static const char *const all[] = { "a", "b", "c", "f", "g",
			"l1", "l2", "l3", "l4", "l5", "mnt", "bind", "proc",
			"secret", "dir", "missing", "50", "51", "self", "fd",
			"cwd", "root", "exe", "out", "r" };

		for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
			char child[PATH_MAX];

			snprintf(child, sizeof child, "%s/%s", path, all[i]);
			remove_tree(child);
		}
		rmdir(path);
		return;
	}
	unlink(path);
}

static void write_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0 || write(fd, "data\n", 5) != 5)
		die(path);
	close(fd);
}

struct tree {
	char dirs[16][64];
	unsigned int ndirs;
	bool mnt, bind, proc;
};

static void build_tree(struct tree *t, uint64_t seed)
{
	uint64_t s = seed;

	umount2("/r/mnt", MNT_DETACH);
	umount2("/r/bind", MNT_DETACH);
	umount2("/r/proc", MNT_DETACH);
	remove_tree("/r");
	remove_tree("/out");
	if (mkdir("/r", 0755) < 0 || mkdir("/out", 0755) < 0 ||
	    mkdir("/out/dir", 0755) < 0)
		die("mkdir");
	write_file("/out/secret");
	write_file("/out/dir/f");
	t->ndirs = 1;
	strcpy(t->dirs[0], "/r");
	nknown = 0;
	unsigned int want = 2 + pick(&s, 6);

	for (unsigned int i = 0; i < want && t->ndirs < 16; i++) {
		char path[PATH_MAX];
		const char *parent = t->dirs[pick(&s, t->ndirs)];

		if (strlen(parent) > 40)
			continue;
		snprintf(path, sizeof path, "%s/%s", parent,
			 dir_names[pick(&s, 3)]);
		if (mkdir(path, 0755) == 0) {
			strcpy(t->dirs[t->ndirs++], path);
			add_known(path);
		}
	}
	for (unsigned int i = 0, n = 2 + pick(&s, 4); i < n; i++) {
		char path[PATH_MAX];

		const char *dir = t->dirs[pick(&s, t->ndirs)];

		snprintf(path, sizeof path, "%s/%s", dir, file_names[pick(&s, 2)]);
		if (access(path, F_OK) < 0) {
			write_file(path);
			add_known(path);
		}
	}
	for (unsigned int i = 0, n = 3 + pick(&s, 6); i < n; i++) {
		char path[PATH_MAX], target[128];

		const char *dir = t->dirs[pick(&s, t->ndirs)];

		snprintf(path, sizeof path, "%s/%s", dir, link_names[pick(&s, 5)]);
		make_path(&s, target, sizeof target, true);
		if (symlink(target, path) == 0) /* else the name is taken */
			add_known(path);
	}
	/* Permissions, for the cases run as another user: directories one
	 * may search but not read, read but not search, neither; files one
	 * may not read or not write. */
	static const mode_t dir_modes[] = { 0755, 0755, 0777, 0711, 0644,
					    0700, 0333 };
	static const mode_t file_modes[] = { 0644, 0666, 0600, 0222 };

	for (unsigned int i = 1; i < t->ndirs; i++)
		chmod(t->dirs[i], dir_modes[pick(&s, 7)]);
	for (unsigned int i = 0; i < nknown; i++) {
		char path[PATH_MAX];
		struct stat st;

		snprintf(path, sizeof path, "/r/%s", known[i]);
		if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
			chmod(path, file_modes[pick(&s, 4)]);
	}
	t->mnt = pick(&s, 3) != 0;
	t->bind = pick(&s, 3) != 0;
	t->proc = pick(&s, 3) != 0;
	if (t->mnt) {
		/* Half the time nosymfollow (Linux 5.10): no link in it is
		 * followed. */
		unsigned long nosymfollow = pick(&s, 2) ? 256 /* MS_NOSYMFOLLOW */ : 0;

		if (mkdir("/r/mnt", 0755) < 0 ||
		    mount("none", "/r/mnt", "tmpfs", nosymfollow, "size=1m") < 0)
			die("mount /r/mnt");
		write_file("/r/mnt/f");
		mkdir("/r/mnt/a", 0755);
		symlink("..", "/r/mnt/l1");
	}
	if (t->bind) {
		if (mkdir("/r/bind", 0755) < 0 ||
		    mount(pick(&s, 2) ? "/out" : "/r/a", "/r/bind", NULL,
			  MS_BIND, NULL) < 0)
			t->bind = false;
	}
	if (t->proc) {
		if (mkdir("/r/proc", 0755) < 0 ||
		    mount("proc", "/r/proc", "proc", 0, NULL) < 0)
			die("mount /r/proc");
	}
}

/* ---- what a tree looks like, to compare and to restore ---- */

struct entry {
	char path[96];
	mode_t type;
	off_t size;
	dev_t dev;
	ino_t ino;
	char link[64];
};

struct listing {
	struct entry e[256];
	unsigned int n;
};

static void list_into(struct listing *l, const char *path)
{
	struct statfs sfs;
	struct stat st;
	struct dirent *de;
	DIR *d;

	if (lstat(path, &st) < 0 || l->n == 256)
		return;
	struct entry *e = &l->e[l->n++];

	snprintf(e->path, sizeof e->path, "%s", path);
	e->type = st.st_mode & S_IFMT;
	e->size = S_ISREG(st.st_mode) ? st.st_size : 0;
	e->dev = st.st_dev;
	e->ino = st.st_ino;
	e->link[0] = '\0';
	if (S_ISLNK(st.st_mode)) {
		ssize_t n = readlink(path, e->link, sizeof e->link - 1);

		e->link[n > 0 ? n : 0] = '\0';
	}
	if (!S_ISDIR(st.st_mode) || (statfs(path, &sfs) == 0 &&
				     sfs.f_type == PROC_SUPER_MAGIC_VALUE))
		return;
	d = opendir(path);
	while (d != NULL && (de = readdir(d)) != NULL) {
		char child[PATH_MAX];

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		snprintf(child, sizeof child, "%s/%s",
			 strcmp(path, "/") == 0 ? "" : path, de->d_name);
		list_into(l, child);
	}
	if (d != NULL)
		closedir(d);
}

/* The whole chroot but its procfs: an escape would show too. */
static void list_tree(struct listing *l)
{
	l->n = 0;
	list_into(l, "/");
}

static const struct entry *find(const struct listing *l, const char *path)
{
	for (unsigned int i = 0; i < l->n; i++)
		if (strcmp(l->e[i].path, path) == 0)
			return &l->e[i];
	return NULL;
}

static bool knows_file(const struct listing *l, dev_t dev, ino_t ino)
{
	for (unsigned int i = 0; i < l->n; i++)
		if (l->e[i].dev == dev && l->e[i].ino == ino)
			return true;
	return false;
}

/* Same names, types, sizes and link texts (inode numbers aside: a file
 * made twice has two). */
static bool same_listing(const struct listing *a, const struct listing *b)
{
	if (a->n != b->n)
		return false;
	for (unsigned int i = 0; i < a->n; i++) {
		const struct entry *x = &a->e[i], *y = find(b, x->path);

		if (y == NULL || x->type != y->type || x->size != y->size ||
		    strcmp(x->link, y->link) != 0)
			return false;
	}
	return true;
}

/* Back to before: files made are removed, files truncated refilled. */
static void restore(const struct listing *before)
{
	struct listing now;

	list_tree(&now);
	for (unsigned int i = 0; i < now.n; i++) {
		const struct entry *was = find(before, now.e[i].path);

		if (was == NULL)
			unlink(now.e[i].path);
		else if (was->type == S_IFREG && was->size != now.e[i].size)
			write_file(now.e[i].path);
	}
}

/* ---- one case ---- */

struct outcome {
	int err; /* 0: an fd */
	dev_t dev;
	ino_t ino;
	mode_t type;
	int flags;
	bool created;
};

static struct outcome outcome_of(int fd, int err, const struct listing *before,
				 bool changes)
{
	struct outcome o = { .err = fd < 0 ? err : 0 };
	struct stat st;

	if (fd < 0)
		return o;
	if (fstat(fd, &st) < 0)
		die("fstat");
	o.dev = st.st_dev;
	o.ino = st.st_ino;
	o.type = st.st_mode & S_IFMT;
	o.flags = fcntl(fd, F_GETFL);
	o.created = changes && !knows_file(before, st.st_dev, st.st_ino);
	close(fd);
	return o;
}

static void describe(char *buf, size_t size, struct outcome o)
{
	if (o.err)
		snprintf(buf, size, "%s", strerrorname_np(o.err));
	else
		snprintf(buf, size, "fd(dev %#jx ino %ju type %#o flags %#x%s)",
			 (uintmax_t)o.dev, (uintmax_t)o.ino, (unsigned)o.type,
			 (unsigned)o.flags, o.created ? " created" : "");
}

enum verdict { SAME, KNOWN_NOFOLLOW, DIFFERENT };

/*
 * The documented difference (openat2(3)): a last component opened
 * following links is opened with O_NOFOLLOW added, and O_DIRECTORY where
 * a trailing slash asks for a directory, which F_GETFL shows; nothing
 * else may differ.
 */
static bool only_flags_the_fallback_adds(int kernel, int fallback)
{
	int added = fallback & ~kernel;

	return (kernel & ~fallback) == 0 && added != 0 &&
	       (added & ~(O_NOFOLLOW | O_DIRECTORY)) == 0;
}

static enum verdict compare(struct outcome k, struct outcome f)
{
	if (k.err || f.err)
		return k.err == f.err ? SAME : DIFFERENT;
	/* A file made by each side is two files: compare where it went
	 * (the listings) and what it is. An O_TMPFILE has no name. */
	bool same = k.created && f.created ?
			    k.dev == f.dev && k.type == f.type :
			    k.dev == f.dev && k.ino == f.ino;

	if (!same)
		return DIFFERENT;
	if (k.flags == f.flags)
		return SAME;
	return only_flags_the_fallback_adds(k.flags, f.flags) ?
		       KNOWN_NOFOLLOW :
		       DIFFERENT;
}

static const int open_flag_set[] = {
	O_RDONLY,
	O_WRONLY,
	O_RDWR,
	O_RDONLY | O_NOFOLLOW,
	O_RDONLY | O_DIRECTORY,
	O_RDONLY | O_DIRECTORY | O_NOFOLLOW,
	O_PATH,
	O_PATH | O_NOFOLLOW,
	O_PATH | O_DIRECTORY,
	O_PATH | O_CLOEXEC | O_NOFOLLOW | O_DIRECTORY,
	O_WRONLY | O_CREAT,
	O_RDWR | O_CREAT | O_EXCL,
	O_WRONLY | O_CREAT | O_TRUNC,
	O_WRONLY | O_TRUNC,
	O_RDWR | O_TMPFILE,
	O_WRONLY | O_TMPFILE | O_EXCL,
	O_WRONLY | O_CREAT | O_NOFOLLOW,
	O_RDONLY | O_NONBLOCK | O_CLOEXEC,
	O_WRONLY | O_APPEND,
	O_RDONLY | O_CREAT | O_EXCL | O_NOFOLLOW,
};

static const char *flag_names(int flags, char *buf, size_t size)
{
	static const struct {
		int bit;
		const char *name;
	} bits[] = {
		{ O_WRONLY, "O_WRONLY" },   { O_RDWR, "O_RDWR" },
		{ O_CREAT, "O_CREAT" },     { O_EXCL, "O_EXCL" },
		{ O_TRUNC, "O_TRUNC" },     { O_APPEND, "O_APPEND" },
		{ O_NONBLOCK, "O_NONBLOCK" }, { O_NOFOLLOW, "O_NOFOLLOW" },
		{ O_CLOEXEC, "O_CLOEXEC" }, { O_PATH, "O_PATH" },
		{ O_TMPFILE & ~O_DIRECTORY, "O_TMPFILE" }, { O_DIRECTORY, "O_DIRECTORY" },
	};
	size_t len = (size_t)snprintf(buf, size, "O_RDONLY");

	for (size_t i = 0; i < sizeof bits / sizeof *bits; i++)
		if ((flags & bits[i].bit) == bits[i].bit)
			len += (size_t)snprintf(buf + len, size - len, "|%s",
						bits[i].name);
	return buf;
}

static const char *resolve_names(uint64_t r, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s%s%s%s%s", r ? "" : "0",
		 r & RESOLVE_NO_XDEV ? "|NO_XDEV" : "",
		 r & RESOLVE_NO_MAGICLINKS ? "|NO_MAGICLINKS" : "",
		 r & RESOLVE_NO_SYMLINKS ? "|NO_SYMLINKS" : "",
		 r & RESOLVE_BENEATH ? "|BENEATH" : "",
		 r & RESOLVE_IN_ROOT ? "|IN_ROOT" : "");
	return buf[0] == '|' ? buf + 1 : buf;
}

struct dirfd_choice {
	const char *name;
	int fd;
};

static struct dirfd_choice dirfds[8];
static unsigned int ndirfds;

static void open_dirfds(const struct tree *t)
{
	ndirfds = 0;
	dirfds[ndirfds++] = (struct dirfd_choice){ "/r", open("/r", O_RDONLY |
		O_DIRECTORY | O_CLOEXEC) };
	dirfds[ndirfds++] = (struct dirfd_choice){ "/r O_PATH",
		open("/r", O_PATH | O_CLOEXEC) };
	dirfds[ndirfds++] = (struct dirfd_choice){ "AT_FDCWD(/r)", AT_FDCWD };
	dirfds[ndirfds++] = (struct dirfd_choice){ t->dirs[t->ndirs - 1],
		open(t->dirs[t->ndirs - 1], O_PATH | O_CLOEXEC) };
	dirfds[ndirfds++] = (struct dirfd_choice){ "/out/secret (a file)",
		open("/out/secret", O_RDONLY | O_CLOEXEC) };
	dirfds[ndirfds++] = (struct dirfd_choice){ "-1", -1 };
	if (t->mnt)
		dirfds[ndirfds++] = (struct dirfd_choice){ "/r/mnt (a mount)",
			open("/r/mnt", O_PATH | O_CLOEXEC) };
	if (t->proc)
		dirfds[ndirfds++] = (struct dirfd_choice){ "/r/proc/self",
			open("/r/proc/self", O_PATH | O_CLOEXEC) };
	for (unsigned int i = 0; i < ndirfds; i++)
		if (dirfds[i].fd < 0 && dirfds[i].fd != AT_FDCWD &&
		    strcmp(dirfds[i].name, "-1") != 0)
			die(dirfds[i].name);
	if (chdir("/r") < 0)
		die("chdir /r");
}

static void close_dirfds(void)
{
	for (unsigned int i = 0; i < ndirfds; i++)
		if (dirfds[i].fd >= 0)
			close(dirfds[i].fd);
	if (chdir("/") < 0)
		die("chdir /");
}

/* The magic links' own files: fd 50 a file outside the root, 51 the root. */
static void plant_magic_fds(void)
{
	int file = open("/out/secret", O_RDONLY), dir = open("/r", O_RDONLY);

	if (file < 0 || dir < 0 || dup2(file, MAGIC_FILE_FD) < 0 ||
	    dup2(dir, MAGIC_DIR_FD) < 0)
		die("plant fds");
	close(file);
	close(dir);
}

static int count_fds(void)
{
	int n = 0;

	for (int fd = 0; fd < 1024; fd++)
		n += fcntl(fd, F_GETFD) >= 0;
	return n;
}

static bool verbose; /* OPENAT2_DIFFERENTIAL_VERBOSE: every case */
static bool no_kernel; /* OPENAT2_DIFFERENTIAL_WITHOUT_KERNEL, see main */

/* The tree as built, which every case leaves as it found it. */
static struct listing pristine;

struct totals {
	uint64_t cases, same, known_nofollow, different, opened, errors;
	uint64_t by_errno[256];
};

/* File permission checks as nobody, or as root again. */
static void become(bool nobody)
{
	setfsgid(nobody ? 65534 : 0);
	setfsuid(nobody ? 65534 : 0);
}

/* One side's answer, asked as root or as nobody; where the case changes
 * the tree, what the tree became is listed into after, and the tree is
 * put back. */
static struct outcome answer_of(int (*side)(int, const char *,
					    const struct open_how *),
				struct dirfd_choice d, const char *path,
				const struct open_how *how, bool as_nobody,
				bool changes, struct listing *after)
{
	become(as_nobody);
	int fd = side(d.fd, path, how);
	int err = errno;

	become(false);
	struct outcome o = outcome_of(fd, err, &pristine, changes);

	if (changes) {
		list_tree(after);
		restore(&pristine);
	}
	return o;
}

static bool run_case(uint64_t seed, uint64_t index, const struct tree *tree,
		     struct totals *tot)
{
	uint64_t s = seed ^ (index * 0xd1342543de82ef95U);
	char path[256];
	struct open_how how = { 0 };
	/* The first four (the root, its O_PATH twin, the cwd, a subdirectory)
	 * twice as often as the odd ones (a file, -1, a mount, a procfs). */
	unsigned int which = pick(&s, ndirfds + 4);
	struct dirfd_choice d = dirfds[which < ndirfds ? which : which - ndirfds];
	struct listing after_kernel, after_fallback;
	const struct listing *before = &pristine;
	bool changes;

	(void)tree;
	if (pick(&s, 40) == 0)
		path[0] = '\0';
	else
		make_path(&s, path, sizeof path, false);
	how.flags = (uint64_t)open_flag_set[pick(&s, sizeof open_flag_set /
						       sizeof *open_flag_set)];
	do
		how.resolve = pick(&s, 32);
	while ((how.resolve & (RESOLVE_BENEATH | RESOLVE_IN_ROOT)) ==
	       (RESOLVE_BENEATH | RESOLVE_IN_ROOT));
	if ((how.flags & O_CREAT) || (how.flags & O_TMPFILE) == O_TMPFILE)
		how.mode = 0640;
	changes = how.flags & (O_CREAT | O_TRUNC | O_TMPFILE);

	if (no_kernel) {
		/* Nothing to compare with: the fallback's side alone, for
		 * memcheck's verdict (see main). */
		int ffd = openat2_side(d.fd, path, &how);

		outcome_of(ffd, errno, before, changes);
		if (changes)
			restore(before);
		tot->cases++;
		return true;
	}
	/* A third of the cases as nobody: the kernel drops the file
	 * capabilities with a non-zero fsuid, and gives them back. */
	bool as_nobody = pick(&s, 3) == 0;
	struct openat2_again again;
	struct outcome k, f;

	/* Where either side meets an EAGAIN (a rename anywhere raced a
	 * scoped ".."), both are asked again: the answers compared are
	 * answers to the same question. */
	openat2_again_start(&again);
	do {
		k = answer_of(openat2_kernel, d, path, &how, as_nobody,
			      changes, &after_kernel);
		f = answer_of(openat2_side, d, path, &how, as_nobody, changes,
			      &after_fallback);
	} while (openat2_ask_again(&again, how.resolve,
				   openat2_either_eagain(k.err, f.err)));
	enum verdict v = compare(k, f);

	if (v == SAME && changes && !same_listing(&after_kernel, &after_fallback))
		v = DIFFERENT;
	tot->cases++;
	if (k.err == 0)
		tot->opened++;
	else
		tot->by_errno[k.err & 255]++;
	if (verbose) {
		char kd[128], fl[160], rs[96];

		describe(kd, sizeof kd, k);
		printf("case %" PRIu64 ": dirfd=%s path=\"%s\" flags=%s resolve=%s: %s%s\n",
		       index, d.name, path,
		       flag_names((int)how.flags, fl, sizeof fl),
		       resolve_names(how.resolve, rs, sizeof rs), kd,
		       v == SAME ? "" : " (differs)");
	}
	if (v == SAME)
		tot->same++;
	else if (v == KNOWN_NOFOLLOW)
		tot->known_nofollow++;
	else {
		char kd[128], fd[128], fl[160], rs[96];

		tot->different++;
		describe(kd, sizeof kd, k);
		describe(fd, sizeof fd, f);
		printf("DIFFERENCE: OPENAT2_DIFFERENTIAL_SEED=%" PRIu64
		       " OPENAT2_DIFFERENTIAL_CASE=%" PRIu64
		       " (tree %" PRIu64 ") %sdirfd=%s path=\"%s\" flags=%s"
		       " resolve=%s: kernel %s, fallback %s%s\n",
		       seed, index, index / CASES_PER_TREE,
		       as_nobody ? "as nobody: " : "", d.name, path,
		       flag_names((int)how.flags, fl, sizeof fl),
		       resolve_names(how.resolve, rs, sizeof rs), kd, fd,
		       k.err == 0 && f.err == 0 && changes ?
			       " (or the trees differ)" : "");
		return false;
	}
	return true;
}

static int run(void)
{
	uint64_t seed = env_number("OPENAT2_DIFFERENTIAL_SEED", DEFAULT_SEED);
	uint64_t cases = env_number("OPENAT2_DIFFERENTIAL_CASES", DEFAULT_CASES);
	const char *only = getenv("OPENAT2_DIFFERENTIAL_CASE");
	uint64_t first = 0, end = cases;
	struct totals tot = { 0 };
	struct tree tree;
	int fds_before;

	verbose = env_number("OPENAT2_DIFFERENTIAL_VERBOSE", 0) != 0;
	if (only != NULL && *only != '\0') {
		first = strtoull(only, NULL, 0);
		end = first + 1;
	}
	enter_world();
	if (openat2_side_start() < 0)
		return 1;
	for (uint64_t t = first / CASES_PER_TREE; t * CASES_PER_TREE < end;
	     t++) {
		uint64_t tree_seed = seed * 0x9e3779b97f4a7c15U + t;
		uint64_t lo = t * CASES_PER_TREE > first ? t * CASES_PER_TREE :
							    first;
		uint64_t hi = (t + 1) * CASES_PER_TREE < end ?
				      (t + 1) * CASES_PER_TREE : end;

		build_tree(&tree, tree_seed);
		plant_magic_fds();
		open_dirfds(&tree);
		list_tree(&pristine);
		fds_before = count_fds();
		for (uint64_t i = lo; i < hi; i++) {
			if (!run_case(seed, i, &tree, &tot) &&
			    tot.different >= 10)
				goto done;
		}
		if (count_fds() != fds_before) {
			printf("FD LEAK: %d fds open after tree %" PRIu64
			       "'s cases, %d before\n",
			       count_fds(), t, fds_before);
			tot.different++;
		}
		close_dirfds();
	}
done:
	printf("kernel against %s\n", openat2_side_name());
	printf("seed %" PRIu64 ": %" PRIu64 " cases, %" PRIu64
	       " the same, %" PRIu64
	       " the same but for O_NOFOLLOW or O_DIRECTORY in F_GETFL (documented), %" PRIu64
	       " different; the kernel opened %" PRIu64 ", refused:",
	       seed, tot.cases, tot.same, tot.known_nofollow, tot.different,
	       tot.opened);
	for (int e = 0; e < 256; e++)
		if (tot.by_errno[e])
			printf(" %s %" PRIu64, strerrorname_np(e), tot.by_errno[e]);
	printf("\n");
	return tot.different ? 1 : 0;
}

int main(void)
{
	int status;
	pid_t pid;

	if (geteuid() != 0) {
		printf("SKIP: needs root (mount and pid namespaces, mounts, "
		       "chroot)\n");
		return 77;
	}
	if (syscall(SYS_openat2, AT_FDCWD, ".", &(struct open_how){ 0 },
		    sizeof(struct open_how)) < 0 && errno == ENOSYS) {
		/* Valgrind 3.19 knows no openat2: under memcheck, the
		 * fallback's side runs alone and memcheck judges. */
		if (env_number("OPENAT2_DIFFERENTIAL_WITHOUT_KERNEL", 0) == 0) {
			printf("SKIP: the kernel's openat2 is refused here: "
			       "nothing to compare with\n");
			return 77;
		}
		printf("the kernel's openat2 is refused: the fallback's side "
		       "alone, compared with nothing (for memcheck)\n");
		no_kernel = true;
	}
	if (unshare(CLONE_NEWNS | CLONE_NEWPID) < 0) {
		printf("SKIP: no mount and pid namespaces: %s\n",
		       strerror(errno));
		return 77;
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		die("make mounts private");
	if (mkdtemp(world_dir) == NULL)
		die("mkdtemp");
	/* pid 1 of a new pid namespace: its procfs shows no other process,
	 * so no path reaches another process's root or cwd. */
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		int rc = run();

		/* _exit: LeakSanitizer's check at exit cannot stop the world
		 * from pid 1 of a namespace (test_resolve has it instead). */
		fflush(stdout);
		_exit(rc);
	}
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	if (WIFSIGNALED(status))
		printf("openat2-differential: killed by signal %d\n",
		       WTERMSIG(status));
	umount2(world_dir, MNT_DETACH);
	if (rmdir(world_dir) < 0)
		printf("openat2-differential: could not remove %s: %s\n",
		       world_dir, strerror(errno));
	/* _exit here too: with its pid 1 gone, the namespace takes no new
	 * process, not even LeakSanitizer's tracer. */
	fflush(stdout);
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}
