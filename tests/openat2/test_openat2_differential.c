/*
 * openat2's fallback against the kernel's openat2, over generated trees,
 * paths, dirfds, open flags and every combination of RESOLVE_ flags but
 * CACHED: the same errno, or the same file (dev/ino) with the same F_GETFL
 * flags (but for the fallback's documented extra flags: openat2_compare in
 * tests/common/openat2_oracle.h), and the same tree afterwards.
 *
 * On a kernel with Linux 7.2's flags (kernel_has_newer_flags), a case in
 * eight adds OPENAT2_REGULAR (where the flags can take it) and one in
 * eight O_EMPTYPATH, half of those with the empty path.
 *
 * The trees hold nested directories, files, FIFOs, relative and absolute
 * symlinks, chains, loops, dangling links, links to "..", a sticky
 * directory, a tmpfs mount, a bind mount (of a directory outside the
 * root), a nosymfollow bind mount of a directory of the tree, and a
 * procfs, whose magic links (fd/N, cwd, root, exe) the paths reach.
 * Everything happens in private mount and pid namespaces, chrooted into
 * a tmpfs: absolute paths and magic links reach nothing of the machine's.
 * Needs root.
 *
 * Who asks: root in half the cases, nobody (fsuid 65534) in a quarter,
 * uid 1000 in a quarter, without supplementary groups. Files, links and
 * directories belong to root, to uid 1000, or to uid 65533 (who asks
 * nothing); directory modes include readable-but-not-searchable (0644,
 * 0604, 0600) and searchable-but-not-readable (0711, 0333). So the owner's
 * bits and the others' both decide, and root's capabilities do not.
 *
 * The sticky directory "t" (mode 1777, or 1775 with group 1000) holds
 * links, files and FIFOs of all three owners: fs.protected_symlinks (a
 * link followed as the last component), fs.protected_regular and
 * fs.protected_fifos (O_CREAT of an existing file or FIFO) decide there.
 * The run sets protected_symlinks to 1 (the systemd default; the fallback
 * cannot read the setting, and openat2(3) says which rule it keeps) and
 * protected_regular and protected_fifos to 1 or 2, per tree; they are
 * global, so the run waits for any other run, saves the machine's values
 * and restores them when it ends (protected_sysctls.h).
 *
 * FIFOs: an open of a FIFO for reading or writing alone blocks, on both
 * sides, until the other end is open. In half the trees every FIFO is
 * held open for reading and writing (O_RDWR) by the test, so that such
 * opens return at once and the cases keep their flags; in the other half
 * O_NONBLOCK is added to every case that would open something for reading
 * or writing alone, which turns the wait into an answer (an fd, or ENXIO
 * for a writer without a reader). A case that blocks all the same is cut
 * short by a watchdog (EINTR) and counts as a difference.
 *
 *   OPENAT2_DIFFERENTIAL_SEED   the seed (default below)
 *   OPENAT2_DIFFERENTIAL_CASES  how many cases (default below; a long run:
 *                               1000000)
 *   OPENAT2_DIFFERENTIAL_CASE   run this one case only (a reproducer)
 *   OPENAT2_DIFFERENTIAL_SIDE   "openat2" (default): the library's public
 *                               openat2 where a seccomp filter refuses
 *                               openat2 (ENOSYS); "resolver": the resolver
 *                               itself
 *   OPENAT2_DIFFERENTIAL_STATX  "refused": that side runs with statx refused
 *                               (ENOSYS) too, as where a policy denies it
 *   OPENAT2_DIFFERENTIAL_VERBOSE  print every case
 *   OPENAT2_DIFFERENTIAL_WITHOUT_KERNEL  where openat2 is refused (valgrind
 *                               knows none), the fallback's side alone
 *   OPENAT2_DIFFERENTIAL_ALL    go on after the tenth difference (long runs)
 *   OPENAT2_DIFFERENTIAL_TREE   print each tree: type, mode, owner, path
 *   OPENAT2_DIFFERENTIAL_PROTECTED_SYMLINKS  fs.protected_symlinks for the
 *                               run: 1 (default) or 0, where the kernel
 *                               and the fallback may differ (openat2(3))
 *
 * Each difference is printed as a one-line reproducer.
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
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/time.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <dirent.h>
#include <grp.h>
#include <signal.h>
#include <unistd.h>

#include "openat2_again.h"
#include "openat2_oracle.h"
#include "openat2_side.h"
#include "protected_sysctls.h"

#ifndef MS_NOSYMFOLLOW
#define MS_NOSYMFOLLOW 256 /* Linux 5.10; glibc 2.34 */
#endif

#define DEFAULT_SEED 20200106 /* any fixed value: runs must repeat */
#define DEFAULT_CASES 5000
#define CASES_PER_TREE 1000
#define PROC_SUPER_MAGIC_VALUE 0x9fa0
#define MAGIC_FILE_FD 50 /* /out/secret: a magic link out of the root */
#define MAGIC_DIR_FD 51 /* /r */
#define CASE_WATCHDOG_SECONDS 10 /* no open waits this long, but a FIFO's */

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

/* Who owns what, besides root (see the opening comment). */
#define USER_UID 1000 /* owns files, and asks */
#define OTHER_UID 65533 /* owns files, never asks */
#define NOBODY_UID 65534 /* asks, and owns what it makes */

static const char *const dir_names[] = { "a", "b", "c" };
static const char *const file_names[] = { "f", "g" };
static const char *const link_names[] = { "l1", "l2", "l3", "l4", "l5" };

/* Path vocabulary: the tree's names, the procfs's, and the rest. */
static const char *const words[] = {
	".", "..", "..", "a", "b", "c", "f", "g", "l1", "l2", "l3", "l4",
	"l5", "p", "t", "missing", "mnt", "bind", "nsf", "proc", "self", "fd",
	"50", "51", "cwd", "root", "exe", "out", "secret", "r", "dir",
};

/* What the tree holds, by full path: where paths start, so that most
 * cases name something. */
#define KNOWN_MAX 160
struct known_name {
	char path[80];
	char type; /* 'd', 'f', 'p' (a FIFO), 'l' (a symlink) */
	char hint; /* the type of what it names, links followed; 0: nothing */
};
static struct known_name known[KNOWN_MAX];
static unsigned int nknown;

static void add_known(const char *path, char type)
{
	if (nknown < KNOWN_MAX && strlen(path) < sizeof known->path) {
		snprintf(known[nknown].path, sizeof known->path, "%s", path);
		known[nknown].type = type;
		known[nknown++].hint = type == 'l' ? 0 : type;
	}
}

/* What a bind mount of the directory from shows at to. */
static void add_known_mirror(const char *from, const char *to)
{
	size_t len = strlen(from);

	for (unsigned int i = 0, n = nknown; i < n; i++) {
		char path[PATH_MAX];

		if (strncmp(known[i].path, from, len) != 0 ||
		    known[i].path[len] != '/')
			continue;
		snprintf(path, sizeof path, "%s%s", to, known[i].path + len);
		add_known(path, known[i].type);
	}
}

/* A name known under the directory base, relative to it, its type in
 * *type; NULL where nothing is known there. */
static const char *known_under(uint64_t *s, const char *base, char *type)
{
	unsigned int match[KNOWN_MAX], n = 0;
	size_t len = strlen(base);

	for (unsigned int i = 0; i < nknown; i++)
		if (strncmp(known[i].path, base, len) == 0 &&
		    known[i].path[len] == '/')
			match[n++] = i;
	if (n == 0)
		return NULL;
	unsigned int i = match[pick(s, n)];

	*type = known[i].hint;
	return known[i].path + len + 1;
}

/*
 * What each link names, followed from the root as the tree stands (a
 * scoped walk may find otherwise: a hint, no more). realpath reads the
 * links itself: the kernel's following would answer by
 * fs.protected_symlinks as it stands, and the cases would depend on it.
 */
static void hint_links(void)
{
	for (unsigned int i = 0; i < nknown; i++) {
		char *named;
		struct stat st;

		if (known[i].type != 'l' ||
		    (named = realpath(known[i].path, NULL)) == NULL)
			continue;
		int found = stat(named, &st);

		free(named);
		if (found < 0)
			continue;
		known[i].hint = S_ISDIR(st.st_mode)  ? 'd' :
				S_ISREG(st.st_mode)  ? 'f' :
				S_ISFIFO(st.st_mode) ? 'p' :
						       0;
	}
}

static const char *const magic_starts[] = {
	"proc/self/fd/50", "proc/self/fd/51", "proc/self/cwd",
	"proc/self/root", "proc/self/exe", "/proc/self/fd/51",
	"/proc/self/cwd", "proc/self", "/proc/self/root/r",
};

/*
 * A path from the directory base: a start, then now and then random
 * words. The start: random words; a name known under base (most often,
 * and most often alone); a name known under /r, from /r, from the root
 * or from above; a magic link. *type is what the path names where it is
 * a known name alone (a hint for the flags, see known_name), else 0.
 * One pick() per expression: the order of a call's arguments is the
 * compiler's, and a seed must give the same cases with gcc and clang.
 */
static void make_path(uint64_t *s, char *buf, size_t size, bool for_link,
		      const char *base, char *type)
{
	unsigned int n = pick(s, 10) < 9 ? 0 : 1 + pick(s, for_link ? 1 : 2);
	const char *from, *name = NULL;
	char t = 0;
	size_t len = 0;

	buf[0] = '\0';
	switch (pick(s, 10)) {
	case 0:
		break;
	case 1:
	case 2:
	case 3:
	case 4:
	case 5:
		name = known_under(s, base, &t);
		if (name != NULL)
			len += (size_t)snprintf(buf, size, "%s", name);
		break;
	case 6:
		name = known_under(s, "/r", &t);
		if (name != NULL)
			len += (size_t)snprintf(buf, size, "%s", name);
		break;
	case 7:
		name = known_under(s, "/r", &t);
		from = pick(s, 2) ? "/r/" : "/";
		if (name != NULL)
			len += (size_t)snprintf(buf, size, "%s%s", from, name);
		break;
	case 8:
		name = known_under(s, "/r", &t);
		from = pick(s, 2) ? "../" : "../../";
		t = 0; /* from above: whatever is there */
		if (name != NULL)
			len += (size_t)snprintf(buf, size, "%s%s", from, name);
		break;
	default:
		name = "";
		len += (size_t)snprintf(buf, size, "%s",
					magic_starts[pick(s, sizeof magic_starts /
							     sizeof *magic_starts)]);
		break;
	}
	if (name == NULL) {
		/* Random words alone, now and then from the root. */
		n++;
		if (pick(s, 4) == 0)
			len += (size_t)snprintf(buf, size, "/");
	}
	for (unsigned int i = 0; i < n && len < size; i++) {
		const char *w = words[pick(s, sizeof words / sizeof *words)];

		len += (size_t)snprintf(buf + len, size - len, "%s%s%s",
					len && buf[len - 1] != '/' ? "/" : "",
					pick(s, 10) == 0 ? "/" : "", w);
	}
	if (len < size && pick(s, 7) == 0)
		snprintf(buf + len, size - len, "/");
	*type = n == 0 ? t : 0;
}

static void remove_tree(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return;
	if (S_ISDIR(st.st_mode)) {
		/* Names come from the vocabulary only; try each. */
		static const char *const all[] = { "a", "b", "c", "f", "g",
			"l1", "l2", "l3", "l4", "l5", "p", "t", "mnt", "bind",
			"nsf", "proc", "secret", "dir", "missing", "50", "51",
			"self", "fd", "cwd", "root", "exe", "out", "r" };

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

/* A file truncated by a case, filled again: without O_CREAT, which
 * fs.protected_regular refuses root on another user's file in the sticky
 * directory. */
static void refill_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);

	if (fd < 0 || write(fd, "data\n", 5) != 5)
		die(path);
	close(fd);
}

#define MAX_FIFOS 8

struct tree {
	char dirs[16][64];
	unsigned int ndirs;
	bool mnt, bind, proc, nsf;
	char fifos[MAX_FIFOS][64];
	unsigned int nfifos;
	/* Every FIFO held open O_RDWR, else O_NONBLOCK added (see the
	 * opening comment). */
	bool hold_fifos;
	int fifo_holders[MAX_FIFOS];
	struct protected_sysctls sysctls;
};

static void make_fifo(struct tree *t, const char *path)
{
	if (t->nfifos < MAX_FIFOS && mkfifo(path, 0644) == 0) {
		snprintf(t->fifos[t->nfifos++], sizeof *t->fifos, "%s", path);
		add_known(path, 'p');
	}
}

/* The sticky directory "t": the tree's second directory. */
#define STICKY_DIR 1

static void make_dirs(struct tree *t, uint64_t *s)
{
	t->ndirs = 2;
	strcpy(t->dirs[0], "/r");
	strcpy(t->dirs[STICKY_DIR], "/r/t");
	if (mkdir("/r", 0755) < 0 || mkdir("/r/t", 0755) < 0)
		die("mkdir");
	add_known("/r/t", 'd');
	for (unsigned int i = 0, want = 2 + pick(s, 6);
	     i < want && t->ndirs < 16; i++) {
		char path[PATH_MAX];
		const char *parent = t->dirs[pick(s, t->ndirs)];

		if (strlen(parent) > 40)
			continue;
		snprintf(path, sizeof path, "%s/%s", parent,
			 dir_names[pick(s, 3)]);
		if (mkdir(path, 0755) == 0) {
			strcpy(t->dirs[t->ndirs++], path);
			add_known(path, 'd');
		}
	}
}

/* A link at path, to a path from the directory base. */
static void make_link_from(const char *base, const char *path, uint64_t *s)
{
	char target[128];
	char type;

	make_path(s, target, sizeof target, true, base, &type);
	if (symlink(target, path) == 0) /* else the name is taken */
		add_known(path, 'l');
}

static void make_link(const char *dir, const char *path, uint64_t *s)
{
	/* Most targets from the link's own directory. */
	const char *base = pick(s, 4) != 0 ? dir : "/r";

	make_link_from(base, path, s);
}

static void make_files_fifos_links(struct tree *t, uint64_t *s)
{
	/* The sticky directory holds one of each, whatever else. */
	write_file("/r/t/g");
	add_known("/r/t/g", 'f');
	make_fifo(t, "/r/t/p");
	make_link("/r/t", "/r/t/l1", s);
	for (unsigned int i = 0, n = 2 + pick(s, 4); i < n; i++) {
		char path[PATH_MAX];
		const char *dir = t->dirs[pick(s, t->ndirs)];

		snprintf(path, sizeof path, "%s/%s", dir, file_names[pick(s, 2)]);
		if (access(path, F_OK) < 0) {
			write_file(path);
			add_known(path, 'f');
		}
	}
	for (unsigned int i = 0, n = 1 + pick(s, 3); i < n; i++) {
		char path[PATH_MAX];

		snprintf(path, sizeof path, "%s/p", t->dirs[pick(s, t->ndirs)]);
		make_fifo(t, path);
	}
	for (unsigned int i = 0, n = 3 + pick(s, 6); i < n; i++) {
		char path[PATH_MAX];
		const char *dir = t->dirs[pick(s, t->ndirs)];

		snprintf(path, sizeof path, "%s/%s", dir, link_names[pick(s, 5)]);
		make_link(dir, path, s);
	}
}

/*
 * Owners and modes, for the cases run as nobody or as uid 1000: a
 * quarter of everything is uid 1000's, a quarter uid 65533's, the rest
 * root's; directories one may search but not read, read but not search,
 * neither; files one may not read or not write. The sticky directory is
 * root's or uid 1000's, world-writable or (mode 1775) writable by group
 * 1000 only, which protected_regular=2 and protected_fifos=2 cover too.
 */
static void set_owners_and_modes(struct tree *t, uint64_t *s)
{
	static const uid_t owners[] = { 0, 0, USER_UID, OTHER_UID };
	static const mode_t dir_modes[] = { 0755, 0755, 0755, 0777, 0711,
					    0644, 0604, 0700, 0600, 0333 };
	static const mode_t file_modes[] = { 0644, 0666, 0600, 0222 };
	static const mode_t sticky_modes[] = { 01777, 01777, 01775 };

	for (unsigned int i = 0; i < nknown; i++) {
		uid_t owner = owners[pick(s, 4)];

		if (strncmp(known[i].path, "/r/", 3) != 0)
			continue;
		if (lchown(known[i].path, owner, owner) < 0)
			die("lchown");
		if (known[i].type == 'f')
			chmod(known[i].path, file_modes[pick(s, 4)]);
		else if (known[i].type == 'p')
			chmod(known[i].path, file_modes[pick(s, 3)]);
	}
	for (unsigned int i = 2; i < t->ndirs; i++)
		chmod(t->dirs[i], dir_modes[pick(s, 10)]);
	mode_t sticky = sticky_modes[pick(s, 3)];

	if (chown("/r/t", pick(s, 3) == 0 ? USER_UID : 0, USER_UID) < 0 ||
	    chmod("/r/t", sticky) < 0)
		die("chmod /r/t");
}

static void make_mounts(struct tree *t, uint64_t *s)
{
	t->mnt = pick(s, 3) != 0;
	t->bind = pick(s, 3) != 0;
	t->proc = pick(s, 3) != 0;
	t->nsf = pick(s, 3) != 0;
	if (t->mnt) {
		/* Half the time nosymfollow (Linux 5.10): no link in it is
		 * followed. */
		unsigned long nosymfollow = pick(s, 2) ? MS_NOSYMFOLLOW : 0;

		if (mkdir("/r/mnt", 0755) < 0 ||
		    mount("none", "/r/mnt", "tmpfs", nosymfollow, "size=1m") < 0)
			die("mount /r/mnt");
		write_file("/r/mnt/f");
		if (mkdir("/r/mnt/a", 0755) < 0 || symlink("..", "/r/mnt/l1") < 0)
			die("fill /r/mnt");
		add_known("/r/mnt/f", 'f');
		add_known("/r/mnt/a", 'd');
		add_known("/r/mnt/l1", 'l');
	}
	if (t->bind) {
		const char *from = pick(s, 2) ? "/out" : "/r/a";

		if (mkdir("/r/bind", 0755) < 0 ||
		    mount(from, "/r/bind", NULL, MS_BIND, NULL) < 0)
			t->bind = false;
		else
			add_known_mirror(from, "/r/bind");
	}
	if (t->proc) {
		if (mkdir("/r/proc", 0755) < 0 ||
		    mount("proc", "/r/proc", "proc", 0, NULL) < 0)
			die("mount /r/proc");
		add_known("/r/proc/self", 'l');
		add_known("/r/proc/self/status", 'f');
		add_known("/r/proc/self/fd", 'd');
		add_known("/r/proc/self/fd/50", 'l');
		add_known("/r/proc/self/cwd", 'l');
	}
	if (t->nsf) {
		/* A directory of the tree again, mounted nosymfollow: the
		 * same device as the tree, so that a walk that tells mounts
		 * apart by device alone (statx refused: no mount ids) takes
		 * its links for the tree's; fstatfs of a directory in it
		 * says nosymfollow. A bind mount takes its flags at a
		 * remount. */
		const char *from = t->dirs[1 + pick(s, t->ndirs - 1)];

		if (mkdir("/r/nsf", 0755) < 0 ||
		    mount(from, "/r/nsf", NULL, MS_BIND, NULL) < 0 ||
		    mount(NULL, "/r/nsf", NULL,
			  MS_REMOUNT | MS_BIND | MS_NOSYMFOLLOW, NULL) < 0)
			die("mount /r/nsf");
		add_known_mirror(from, "/r/nsf");
	}
}

/* Per tree: protected_symlinks 1 (or as asked), the two others 1 or 2. */
static void choose_sysctls(struct tree *t, uint64_t *s)
{
	t->sysctls.symlinks =
		(int)env_number("OPENAT2_DIFFERENTIAL_PROTECTED_SYMLINKS", 1);
	t->sysctls.regular = 1 + (int)pick(s, 2);
	t->sysctls.fifos = 1 + (int)pick(s, 2);
}

static void build_tree(struct tree *t, uint64_t seed)
{
	uint64_t s = seed;

	umount2("/r/mnt", MNT_DETACH);
	umount2("/r/bind", MNT_DETACH);
	umount2("/r/proc", MNT_DETACH);
	umount2("/r/nsf", MNT_DETACH);
	remove_tree("/r");
	remove_tree("/out");
	nknown = 0;
	t->nfifos = 0;
	if (mkdir("/out", 0755) < 0 || mkdir("/out/dir", 0755) < 0)
		die("mkdir");
	write_file("/out/secret");
	write_file("/out/dir/f");
	add_known("/out/secret", 'f');
	add_known("/out/dir", 'd');
	add_known("/out/dir/f", 'f');
	make_fifo(t, "/out/p");
	make_dirs(t, &s);
	make_files_fifos_links(t, &s);
	set_owners_and_modes(t, &s);
	make_mounts(t, &s);
	/* Links in /r made after the mounts, so that their targets lead
	 * into them: a link followed on one mount, then one on another. */
	for (unsigned int i = 0, n = 1 + pick(&s, 2); i < n; i++) {
		char path[PATH_MAX];

		snprintf(path, sizeof path, "/r/%s", link_names[pick(&s, 5)]);
		make_link_from("/r", path, &s);
	}
	hint_links();
	choose_sysctls(t, &s);
	t->hold_fifos = pick(&s, 2);
}

/* The FIFOs held open (O_RDWR never waits), where the tree says so. */
static void hold_fifos(struct tree *t)
{
	for (unsigned int i = 0; i < t->nfifos; i++) {
		t->fifo_holders[i] = -1;
		if (t->hold_fifos &&
		    (t->fifo_holders[i] = open(t->fifos[i], O_RDWR | O_CLOEXEC)) < 0)
			die(t->fifos[i]);
	}
}

static void release_fifos(struct tree *t)
{
	for (unsigned int i = 0; i < t->nfifos; i++)
		if (t->fifo_holders[i] >= 0)
			close(t->fifo_holders[i]);
}

/* ---- what a tree looks like, to compare and to restore ---- */

struct entry {
	char path[96];
	mode_t type;
	off_t size;
	dev_t dev;
	ino_t ino;
	char link[64];
	mode_t mode; /* for OPENAT2_DIFFERENTIAL_TREE: not compared */
	uid_t owner;
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

	if (lstat(path, &st) < 0)
		return;
	if (l->n == sizeof l->e / sizeof *l->e) {
		fprintf(stderr, "openat2-differential: more than %zu entries "
			"to list\n", sizeof l->e / sizeof *l->e);
		exit(1);
	}
	struct entry *e = &l->e[l->n++];

	snprintf(e->path, sizeof e->path, "%s", path);
	e->type = st.st_mode & S_IFMT;
	e->mode = st.st_mode & 07777;
	e->owner = st.st_uid;
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

/* The tree, for a reproducer's reader (OPENAT2_DIFFERENTIAL_TREE). */
static void print_listing(const struct listing *l, uint64_t tree)
{
	for (unsigned int i = 0; i < l->n; i++) {
		const struct entry *e = &l->e[i];

		printf("tree %" PRIu64 ": %c %04o %5u %s%s%s\n", tree,
		       S_ISDIR(e->type)	 ? 'd' :
		       S_ISLNK(e->type)	 ? 'l' :
		       S_ISFIFO(e->type) ? 'p' :
					   '-',
		       (unsigned)e->mode, (unsigned)e->owner, e->path,
		       e->link[0] ? " -> " : "", e->link);
	}
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
			refill_file(now.e[i].path);
	}
}

/* ---- the process's record locks, which no call may drop ---- */

/*
 * A POSIX record lock (F_SETLK) on every regular file of the tree, held
 * by this process through one fd of the file, and a second fd of it from
 * which F_OFD_GETLK sees the lock (an OFD lock conflicts with the
 * process's POSIX locks). Closing any fd of a file, but an O_PATH one,
 * drops every POSIX lock of the process on it (locks_remove_posix): a
 * fallback that opened the answer and closed it again, or moved it with
 * dup3, would drop the lock of a program that holds one on the file it
 * opens, as SQLite does. Both fds stay open until the tree is left.
 */
struct held_lock {
	char path[96];
	int holder, checker;
};

static struct held_lock held_locks[64];
static unsigned int nheld_locks;

static void hold_locks(const struct listing *l)
{
	struct flock whole = { .l_type = F_WRLCK, .l_whence = SEEK_SET };

	nheld_locks = 0;
	for (unsigned int i = 0; i < l->n &&
			    nheld_locks < sizeof held_locks / sizeof *held_locks;
	     i++) {
		struct held_lock *h = &held_locks[nheld_locks];

		if (l->e[i].type != S_IFREG)
			continue;
		snprintf(h->path, sizeof h->path, "%s", l->e[i].path);
		h->holder = open(h->path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
		h->checker = open(h->path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (h->holder < 0 || h->checker < 0 ||
		    fcntl(h->holder, F_SETLK, &whole) < 0)
			die("hold a record lock on the tree's files");
		nheld_locks++;
	}
}

/* The first file whose lock is gone; NULL where all hold. */
static const char *lock_dropped(void)
{
	for (unsigned int i = 0; i < nheld_locks; i++) {
		struct flock probe = { .l_type = F_WRLCK, .l_whence = SEEK_SET };

		if (fcntl(held_locks[i].checker, F_OFD_GETLK, &probe) < 0)
			die("F_OFD_GETLK");
		if (probe.l_type != F_WRLCK || probe.l_pid != getpid())
			return held_locks[i].path;
	}
	return NULL;
}

/* Every lock taken again: the test's own close of an answer drops the
 * lock on its file, as any close would. */
static void take_locks_again(void)
{
	struct flock whole = { .l_type = F_WRLCK, .l_whence = SEEK_SET };

	for (unsigned int i = 0; i < nheld_locks; i++)
		if (fcntl(held_locks[i].holder, F_SETLK, &whole) < 0)
			die("take a record lock again");
}

static void release_locks(void)
{
	for (unsigned int i = 0; i < nheld_locks; i++) {
		close(held_locks[i].holder);
		close(held_locks[i].checker);
	}
	nheld_locks = 0;
}

/* ---- one case ---- */

/* A side's answer (openat2_oracle.h), and what the oracle cannot see
 * once the fd is closed: its number, and whether the case made it. */
struct outcome {
	struct openat2_answer a;
	int number; /* the fd's: the lowest free one, on both sides */
	bool created;
};

static struct outcome outcome_of(int fd, int err, const struct listing *before,
				 bool changes)
{
	struct outcome o = { .a = openat2_answer_of(fd, err) };
	struct statfs sfs;

	if (fd < 0)
		return o;
	o.number = fd;
	/* The listings leave procfs out: nothing is created there. */
	o.created = changes && !knows_file(before, o.a.dev, o.a.ino) &&
		    !(fstatfs(fd, &sfs) == 0 && sfs.f_type == PROC_SUPER_MAGIC_VALUE);
	/* A file made by each side is two files: what is compared is where
	 * it went (the listings) and what it is, not which inode. An
	 * O_TMPFILE has no name. */
	if (o.created)
		o.a.ino = 0;
	close(fd);
	return o;
}

static void describe(char *buf, size_t size, struct outcome o)
{
	char answer[96];

	openat2_answer_describe(answer, sizeof answer, &o.a);
	if (o.a.err)
		snprintf(buf, size, "%s", answer);
	else
		snprintf(buf, size, "fd %d (%s%s)", o.number, answer,
			 o.created ? " created" : "");
}

enum verdict { SAME, DOCUMENTED_FLAGS, DOCUMENTED_STICKY, DIFFERENT };

/*
 * The fallback's documented rule (openat2(3), NOTES): OPENAT2_REGULAR with
 * O_CREAT keeps fs.protected_regular and protected_fifos as the setting 2
 * has them, and refuses (EACCES) an existing file that a tree's setting 1
 * lets the kernel open (a regular file) or refuse as no regular file.
 */
static bool documented_sticky_rule(struct outcome k, struct outcome f,
				   uint64_t asked, const struct tree *t)
{
	if (!(asked & OPENAT2_REGULAR) || !(asked & O_CREAT) ||
	    f.a.err != EACCES)
		return false;
	return (k.a.err == 0 && t->sysctls.regular < 2) ||
	       (k.a.err == EFTYPE && t->sysctls.fifos < 2);
}

static enum verdict compare(struct outcome k, struct outcome f,
			    uint64_t asked, const struct tree *t)
{
	if (documented_sticky_rule(k, f, asked, t))
		return DOCUMENTED_STICKY;
	if (k.a.err == 0 && f.a.err == 0 && k.number != f.number)
		return DIFFERENT;
	switch (openat2_compare(&k.a, &f.a, asked)) {
	case OPENAT2_SAME:
		return SAME;
	case OPENAT2_DOCUMENTED_FLAGS:
		return DOCUMENTED_FLAGS;
	default:
		return DIFFERENT;
	}
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

/* Flags that fit what a path names, where it is known (make_path's hint):
 * more of the cases open something. */
static const int dir_flag_set[] = {
	O_RDONLY,
	O_RDONLY | O_DIRECTORY,
	O_RDONLY | O_NONBLOCK | O_CLOEXEC,
	O_PATH,
	O_PATH | O_DIRECTORY,
	O_PATH | O_NOFOLLOW,
	O_RDWR | O_TMPFILE,
	O_WRONLY | O_TMPFILE | O_EXCL,
};

static const int file_flag_set[] = {
	O_RDONLY,
	O_WRONLY,
	O_RDWR,
	O_RDONLY | O_NOFOLLOW,
	O_PATH,
	O_WRONLY | O_CREAT,
	O_WRONLY | O_CREAT | O_TRUNC,
	O_WRONLY | O_TRUNC,
	O_RDONLY | O_NONBLOCK | O_CLOEXEC,
	O_WRONLY | O_APPEND,
};

#define FLAGS_FROM(set) set[pick(s, sizeof set / sizeof *set)]

/* Three cases in four whose path names a known directory, file or FIFO
 * (links followed) get flags that fit it; the others any flags. */
static int pick_flags(uint64_t *s, char type)
{
	bool fit = pick(s, 4) != 0;

	if (fit && type == 'd')
		return FLAGS_FROM(dir_flag_set);
	if (fit && (type == 'f' || type == 'p'))
		return FLAGS_FROM(file_flag_set);
	return FLAGS_FROM(open_flag_set);
}

/* Each of NO_XDEV, NO_MAGICLINKS, NO_SYMLINKS in a third of the cases;
 * no scope, BENEATH or IN_ROOT a third each. */
static uint64_t pick_resolve(uint64_t *s)
{
	static const uint64_t scopes[] = { 0, RESOLVE_BENEATH, RESOLVE_IN_ROOT };
	uint64_t r = 0;

	if (pick(s, 3) == 0)
		r |= RESOLVE_NO_XDEV;
	if (pick(s, 3) == 0)
		r |= RESOLVE_NO_MAGICLINKS;
	if (pick(s, 3) == 0)
		r |= RESOLVE_NO_SYMLINKS;
	return r | scopes[pick(s, 3)];
}

/* Where no FIFO is held open (see the opening comment): an open for
 * reading or writing alone does not wait. */
static uint64_t fifo_safe(const struct tree *t, uint64_t flags)
{
	if (t->hold_fifos || (flags & O_PATH) || (flags & O_ACCMODE) == O_RDWR)
		return flags;
	return flags | O_NONBLOCK;
}

static const char *flag_names(uint64_t flags, char *buf, size_t size)
{
	static const struct {
		uint64_t bit;
		const char *name;
	} bits[] = {
		{ OPENAT2_REGULAR, "OPENAT2_REGULAR" },
		{ O_EMPTYPATH, "O_EMPTYPATH" },
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
	const char *base; /* the directory, where paths start from */
	unsigned int weight; /* how often, against the others */
};

static struct dirfd_choice dirfds[8];
static unsigned int ndirfds;

static void open_dirfds(const struct tree *t)
{
	ndirfds = 0;
	dirfds[ndirfds++] = (struct dirfd_choice){ "/r", open("/r", O_RDONLY |
		O_DIRECTORY | O_CLOEXEC), "/r", 4 };
	dirfds[ndirfds++] = (struct dirfd_choice){ "/r O_PATH",
		open("/r", O_PATH | O_CLOEXEC), "/r", 4 };
	dirfds[ndirfds++] = (struct dirfd_choice){ "AT_FDCWD(/r)", AT_FDCWD,
		"/r", 4 };
	dirfds[ndirfds++] = (struct dirfd_choice){ t->dirs[t->ndirs - 1],
		open(t->dirs[t->ndirs - 1], O_PATH | O_CLOEXEC),
		t->dirs[t->ndirs - 1], 4 };
	dirfds[ndirfds++] = (struct dirfd_choice){ "/out/secret (a file)",
		open("/out/secret", O_RDONLY | O_CLOEXEC), "/r", 1 };
	dirfds[ndirfds++] = (struct dirfd_choice){ "-1", -1, "/r", 1 };
	if (t->mnt)
		dirfds[ndirfds++] = (struct dirfd_choice){ "/r/mnt (a mount)",
			open("/r/mnt", O_PATH | O_CLOEXEC), "/r/mnt", 2 };
	if (t->proc)
		dirfds[ndirfds++] = (struct dirfd_choice){ "/r/proc/self",
			open("/r/proc/self", O_PATH | O_CLOEXEC),
			"/r/proc/self", 2 };
	for (unsigned int i = 0; i < ndirfds; i++)
		if (dirfds[i].fd < 0 && dirfds[i].fd != AT_FDCWD &&
		    strcmp(dirfds[i].name, "-1") != 0)
			die(dirfds[i].name);
	if (chdir("/r") < 0)
		die("chdir /r");
}

/* The root, its O_PATH twin, the cwd and a subdirectory most often; a
 * mount and a procfs half as often; a file and -1 (EBADF, ENOTDIR, but
 * for absolute paths) a quarter as often. */
static const struct dirfd_choice *pick_dirfd(uint64_t *s)
{
	unsigned int total = 0, at;

	for (unsigned int i = 0; i < ndirfds; i++)
		total += dirfds[i].weight;
	at = pick(s, total);
	for (unsigned int i = 0;; i++) {
		if (at < dirfds[i].weight)
			return &dirfds[i];
		at -= dirfds[i].weight;
	}
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
/* The kernel's openat2 takes Linux 7.2's OPENAT2_REGULAR (and has
 * O_EMPTYPATH with it): asked in main. */
static bool kernel_has_newer_flags;

/* Linux 7.2's flags in some cases (the opening comment); the picks are
 * made on every kernel, so that a seed gives the same cases everywhere. */
static void add_newer_flags(uint64_t *s, struct open_how *how, char *path)
{
	unsigned int which = pick(s, 8);
	bool empty = pick(s, 2) == 0;

	if (!kernel_has_newer_flags)
		return;
	/* Not where the flag is refused before any lookup (with O_PATH,
	 * O_DIRECTORY or O_TMPFILE): test-openat2's checks prove those, and
	 * the resolver side makes no argument checks. */
	if (which == 0 && !(how->flags & (O_PATH | O_DIRECTORY)))
		how->flags |= OPENAT2_REGULAR;
	if (which == 1) {
		how->flags |= O_EMPTYPATH;
		if (empty)
			path[0] = '\0';
	}
}

/* The tree as built, which every case leaves as it found it. */
static struct listing pristine;

struct totals {
	uint64_t cases, same, documented_flags, documented_sticky, different;
	uint64_t not_judged; /* the kernel's openat2 unanswered */
	uint64_t opened, errors;
	uint64_t by_errno[256];
};

/* Who asks: root in half the cases, nobody and uid 1000 in a quarter
 * each. The kernel drops the file capabilities with a non-zero fsuid, and
 * gives them back. */
static const struct runner {
	const char *name;
	uid_t uid;
} runners[] = {
	{ "root", 0 }, { "root", 0 }, { "nobody", NOBODY_UID },
	{ "uid 1000", USER_UID },
};
#define RUNNERS (sizeof runners / sizeof *runners)

/* The effective ids, which the file-system ids follow: the fallback
 * judges fs.protected_symlinks by the effective uid (openat2(3): it
 * differs from the kernel's fsuid only after setfsuid). Root again first,
 * while the saved uid is 0. */
static void become(const struct runner *who)
{
	if (seteuid(0) < 0 || setegid(who->uid) < 0 || seteuid(who->uid) < 0)
		die("seteuid");
}

/* One side's answer, asked as who; where the case changes the tree, what
 * the tree became is listed into after, and the tree is put back. */
static struct outcome answer_of(int (*side)(int, const char *,
					    const struct open_how *),
				struct dirfd_choice d, const char *path,
				const struct open_how *how,
				const struct runner *who, bool changes,
				struct listing *after, const char **unlocked)
{
	become(who);
	int fd = side(d.fd, path, how);
	int err = errno;

	become(&runners[0]);
	/* Before this test's own close of the answer, which drops it. */
	*unlocked = lock_dropped();
	struct outcome o = outcome_of(fd, err, &pristine, changes);

	if (changes) {
		list_tree(after);
		restore(&pristine);
	}
	take_locks_again();
	return o;
}

/* A case whose kernel side renames elsewhere kept from any answer
 * (openat2_again.h): nothing judges the fallback's answer by the kernel's,
 * only what is the fallback's alone, a lock it dropped or an open that
 * waited (the watchdog's EINTR). */
static bool fallback_alone(uint64_t seed, uint64_t index, const char *path,
			   struct outcome f, const char *unlocked,
			   struct totals *tot)
{
	char what[160];
	bool its_own_fault = unlocked != NULL || f.a.err == EINTR;

	snprintf(what, sizeof what, "OPENAT2_DIFFERENTIAL_SEED=%" PRIu64
		 " OPENAT2_DIFFERENTIAL_CASE=%" PRIu64 " path=\"%.60s\"",
		 seed, index, path);
	openat2_say_not_judged(what, its_own_fault ?
		"the fallback's answer alone is wrong: a lock dropped or an "
		"open that waited" :
		"the fallback's answer checked alone: no lock dropped, no "
		"open that waited");
	tot->cases++;
	tot->not_judged++;
	tot->different += its_own_fault;
	return !its_own_fault;
}

static bool run_case(uint64_t seed, uint64_t index, const struct tree *tree,
		     struct totals *tot)
{
	uint64_t s = seed ^ (index * 0xd1342543de82ef95U);
	char path[256];
	struct open_how how = { 0 };
	struct dirfd_choice d = *pick_dirfd(&s);
	struct listing after_kernel, after_fallback;
	const struct listing *before = &pristine;
	bool changes;
	char type = 0;

	if (pick(&s, 40) == 0)
		path[0] = '\0';
	else
		make_path(&s, path, sizeof path, false, d.base, &type);
	how.flags = fifo_safe(tree, (uint64_t)pick_flags(&s, type));
	how.resolve = pick_resolve(&s);
	add_newer_flags(&s, &how, path);
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
	const struct runner *who = &runners[pick(&s, RUNNERS)];
	struct openat2_again again;
	struct outcome k, f;
	const char *kernel_unlocked, *unlocked;

	/* Where either side meets an EAGAIN (a rename anywhere raced a
	 * scoped ".."), both are asked again: the answers compared are
	 * answers to the same question. */
	openat2_again_start(&again);
	do {
		k = answer_of(openat2_kernel_side, d, path, &how, who, changes,
			      &after_kernel, &kernel_unlocked);
		f = answer_of(openat2_side, d, path, &how, who, changes,
			      &after_fallback, &unlocked);
	} while (openat2_ask_again(&again, how.resolve,
				   openat2_either_eagain(k.a.err, f.a.err)));
	if (openat2_kernel_unanswered(&again, how.resolve, k.a.err))
		return fallback_alone(seed, index, path, f, unlocked, tot);
	enum verdict v = compare(k, f, how.flags, tree);

	if (v == SAME && changes && !same_listing(&after_kernel, &after_fallback))
		v = DIFFERENT;
	if (unlocked != NULL || kernel_unlocked != NULL) {
		printf("LOCK DROPPED: the process's record lock on %s is gone"
		       " after the %s's call\n",
		       unlocked != NULL ? unlocked : kernel_unlocked,
		       unlocked != NULL ? "fallback" : "kernel");
		v = DIFFERENT;
	}
	/* The watchdog cut an open short: a case that waits (a FIFO without
	 * its other end) on one side at least. */
	if (k.a.err == EINTR || f.a.err == EINTR)
		v = DIFFERENT;
	tot->cases++;
	if (k.a.err == 0)
		tot->opened++;
	else
		tot->by_errno[k.a.err & 255]++;
	if (verbose) {
		char kd[128], fl[160], rs[96];

		describe(kd, sizeof kd, k);
		printf("case %" PRIu64 ": as %s: dirfd=%s path=\"%s\" flags=%s "
		       "resolve=%s: %s%s\n",
		       index, who->name, d.name, path,
		       flag_names(how.flags, fl, sizeof fl),
		       resolve_names(how.resolve, rs, sizeof rs), kd,
		       v == SAME ? "" : " (differs)");
	}
	if (v == SAME)
		tot->same++;
	else if (v == DOCUMENTED_FLAGS)
		tot->documented_flags++;
	else if (v == DOCUMENTED_STICKY)
		tot->documented_sticky++;
	else {
		char kd[128], fd[128], fl[160], rs[96];

		tot->different++;
		describe(kd, sizeof kd, k);
		describe(fd, sizeof fd, f);
		printf("DIFFERENCE: OPENAT2_DIFFERENTIAL_SEED=%" PRIu64
		       " OPENAT2_DIFFERENTIAL_CASE=%" PRIu64
		       " (tree %" PRIu64 ", protected_symlinks=%d"
		       " protected_regular=%d protected_fifos=%d%s) as %s:"
		       " dirfd=%s path=\"%s\" flags=%s resolve=%s: kernel %s,"
		       " fallback %s%s\n",
		       seed, index, index / CASES_PER_TREE,
		       tree->sysctls.symlinks, tree->sysctls.regular,
		       tree->sysctls.fifos,
		       tree->hold_fifos ? ", FIFOs held open" : "",
		       who->name, d.name, path,
		       flag_names(how.flags, fl, sizeof fl),
		       resolve_names(how.resolve, rs, sizeof rs), kd, fd,
		       k.a.err == 0 && f.a.err == 0 && changes ?
			       " (or the trees differ)" : "");
		return false;
	}
	return true;
}

/* A case's watchdog: its signal only interrupts an open that waits. */
static void cut_short(int sig)
{
	(void)sig;
}

static void start_watchdog(void)
{
	struct sigaction sa = { .sa_handler = cut_short }; /* no SA_RESTART */

	sigaction(SIGALRM, &sa, NULL);
}

/* Every CASE_WATCHDOG_SECONDS while a case runs, so that each side's
 * open that waits is cut short, not the first alone; 0: off. */
static void watchdog(int seconds)
{
	struct itimerval every = { { seconds, 0 }, { seconds, 0 } };

	setitimer(ITIMER_REAL, &every, NULL);
}

/* The tree's fs.protected_* values, where the kernel is compared with. */
static void set_sysctls(const struct tree *t)
{
	int err;

	if (no_kernel)
		return;
	err = protected_sysctls_set(&t->sysctls);
	if (err != 0) {
		errno = err;
		die("set fs.protected_*");
	}
}

static int run(void)
{
	uint64_t seed = env_number("OPENAT2_DIFFERENTIAL_SEED", DEFAULT_SEED);
	uint64_t cases = env_number("OPENAT2_DIFFERENTIAL_CASES", DEFAULT_CASES);
	const char *only = getenv("OPENAT2_DIFFERENTIAL_CASE");
	bool all = env_number("OPENAT2_DIFFERENTIAL_ALL", 0) != 0;
	bool print_trees = env_number("OPENAT2_DIFFERENTIAL_TREE", 0) != 0;
	uint64_t first = 0, end = cases;
	struct totals tot = { 0 };
	struct tree tree;
	int fds_before;

	verbose = env_number("OPENAT2_DIFFERENTIAL_VERBOSE", 0) != 0;
	if (only != NULL && *only != '\0') {
		first = strtoull(only, NULL, 0);
		end = first + 1;
	}
	/* A case as nobody or uid 1000 is judged by that user's own group
	 * alone, not root's supplementary groups as well. */
	if (setgroups(0, NULL) < 0)
		die("setgroups");
	start_watchdog();
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
		set_sysctls(&tree);
		hold_fifos(&tree);
		plant_magic_fds();
		open_dirfds(&tree);
		list_tree(&pristine);
		if (print_trees)
			print_listing(&pristine, t);
		hold_locks(&pristine);
		fds_before = count_fds();
		for (uint64_t i = lo; i < hi; i++) {
			bool same;

			watchdog(CASE_WATCHDOG_SECONDS);
			same = run_case(seed, i, &tree, &tot);
			watchdog(0);
			if (!same && tot.different >= 10 && !all)
				goto done;
		}
		if (count_fds() != fds_before) {
			printf("FD LEAK: %d fds open after tree %" PRIu64
			       "'s cases, %d before\n",
			       count_fds(), t, fds_before);
			tot.different++;
		}
		release_locks();
		close_dirfds();
		release_fifos(&tree);
	}
done:
	printf("kernel against %s\n", openat2_side_name());
	printf("seed %" PRIu64 ": %" PRIu64 " cases, %" PRIu64
	       " the same, %" PRIu64
	       " the same but for F_GETFL's documented extra flags, %" PRIu64
	       " EACCES by the documented sticky rule, %" PRIu64
	       " different, %" PRIu64 " not judged (the kernel unanswered);"
	       " the kernel opened %" PRIu64 " (%.1f%%), refused:",
	       seed, tot.cases, tot.same, tot.documented_flags,
	       tot.documented_sticky, tot.different, tot.not_judged,
	       tot.opened, tot.cases ? 100.0 * (double)tot.opened /
					       (double)tot.cases : 0.0);
	for (int e = 0; e < 256; e++)
		if (tot.by_errno[e])
			printf(" %s %" PRIu64, openat2_errno_name(e), tot.by_errno[e]);
	printf("\n");
	return tot.different ? 1 : 0;
}

/* A run ended by a signal (meson's timeout, ^C) gives back the world's
 * mount and directory too (protected_sysctls_restore_on_signals). */
static void remove_world(void)
{
	umount2(world_dir, MNT_DETACH);
	rmdir(world_dir);
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
	kernel_has_newer_flags =
		!no_kernel &&
		syscall(SYS_openat2, AT_FDCWD, "/",
			&(struct open_how){ .flags = OPENAT2_REGULAR },
			sizeof(struct open_how)) < 0 && errno == EFTYPE;
	printf("the kernel's openat2 %s Linux 7.2's OPENAT2_REGULAR\n",
	       kernel_has_newer_flags ? "takes" : "does not take");
	/* The fs.protected_* sysctls the trees set are the machine's: saved
	 * here, given back below, and by a signal's handler. */
	int err = no_kernel ? 0 : protected_sysctls_save();

	if (err != 0) {
		printf("SKIP: cannot save and set fs.protected_*: %s\n",
		       err == ETIMEDOUT ? "their lock stayed taken (above)" :
					  strerror(err));
		return 77;
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
		/* Nobody would give the sysctls back after the parent. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		int rc = run();

		/* _exit: LeakSanitizer's check at exit cannot stop the world
		 * from pid 1 of a namespace (test_resolve has it instead). */
		fflush(stdout);
		_exit(rc);
	}
	protected_sysctls_child(pid);
	protected_sysctls_restore_on_signals(remove_world);
	protected_sysctls_start_timeout();
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	if (WIFSIGNALED(status))
		printf("openat2-differential: killed by signal %d\n",
		       WTERMSIG(status));
	err = protected_sysctls_restore();
	if (err != 0) {
		printf("openat2-differential: could not restore fs.protected_*: "
		       "%s\n", strerror(err));
		status = 1 << 8;
	}
	umount2(world_dir, MNT_DETACH);
	if (rmdir(world_dir) < 0)
		printf("openat2-differential: could not remove %s: %s\n",
		       world_dir, strerror(errno));
	/* _exit here too: with its pid 1 gone, the namespace takes no new
	 * process, not even LeakSanitizer's tracer. */
	fflush(stdout);
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}
