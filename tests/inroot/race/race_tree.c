#define _GNU_SOURCE
#include "race_tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const watched_path[WATCHED] = { "/", "/outside",
						   "/outside/park" };
/* What each watched directory holds, besides the two sentinels. */
static const char *const others[WATCHED][3] = {
	{ "proc", "root", "outside" }, { "park" }, { "b" }
};
static const char *const link_texts[] = { "/", "/outside", "../../..",
					  "../../outside" };

#define CHANGES (IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | \
		 IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)

static int fail(const char *what)
{
	int err = errno;

	fprintf(stderr, "inroot-race: %s: %s\n", what, strerror(err));
	return err;
}

static int make_dir(int dirfd, const char *name)
{
	return mkdirat(dirfd, name, 0755) == 0 ? 0 : fail(name);
}

static int make_file(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC,
			0644);

	return fd >= 0 && close(fd) == 0 ? 0 : fail(name);
}

static int open_dir(const char *path, int flags)
{
	return open(path, flags | O_DIRECTORY | O_CLOEXEC);
}

static int chain(const char *top)
{
	static const char *const below[] = { "b", "b/c", "b/c/d" };
	int fd = open_dir(top, O_PATH), err = fd < 0 ? fail(top) : 0;

	for (size_t i = 0; err == 0 && i < 3; i++)
		err = make_dir(fd, below[i]);
	if (fd >= 0)
		close(fd);
	return err;
}

/* s and r/keep in w, and their identities. */
static int plant_sentinels(struct race_tree *t, enum watched w)
{
	int fd = t->watched[w], err = 0;
	struct stat st;

	if (faccessat(fd, "s", F_OK, AT_SYMLINK_NOFOLLOW) != 0)
		err = make_file(fd, "s");
	if (err == 0 && faccessat(fd, "r", F_OK, AT_SYMLINK_NOFOLLOW) != 0)
		err = make_dir(fd, "r");
	if (err == 0 && faccessat(fd, "r/keep", F_OK, AT_SYMLINK_NOFOLLOW))
		err = make_file(fd, "r/keep");
	if (err == 0 && fstatat(fd, "s", &st, AT_SYMLINK_NOFOLLOW) == 0) {
		t->ids[w].s = st.st_ino;
		t->ids[w].s_ctime = st.st_ctim;
	}
	if (err == 0 && fstatat(fd, "r", &st, AT_SYMLINK_NOFOLLOW) == 0)
		t->ids[w].r = st.st_ino;
	if (err == 0 && fstatat(fd, "r/keep", &st, AT_SYMLINK_NOFOLLOW) == 0)
		t->ids[w].keep = st.st_ino;
	return err;
}

/* The watches: top and /outside themselves (park is listed instead: the
 * attacker's exchanges of b would flood a watch on it), and each r. */
static int watch(struct race_tree *t)
{
	char path[64];

	for (int w = 0; w < WATCHED; w++) {
		snprintf(path, sizeof path, "%s/r", w == TOP ? "" :
			 watched_path[w]);
		t->r_watch[w] = inotify_add_watch(t->inotify, path, CHANGES);
		if (t->r_watch[w] < 0)
			return fail(path);
	}
	for (int w = TOP; w <= OUTSIDE; w++) {
		t->dir_watch[w] = inotify_add_watch(t->inotify,
						    watched_path[w], CHANGES);
		if (t->dir_watch[w] < 0)
			return fail(watched_path[w]);
	}
	return 0;
}

static int make_layout(void)
{
	static const char *const dirs[] = { "/root", "/root/a", "/root/a/l",
		"/root/outside", "/outside", "/outside/park" };
	int err = 0;
	char name[8];

	for (size_t i = 0; err == 0 && i < sizeof dirs / sizeof *dirs; i++)
		err = make_dir(AT_FDCWD, dirs[i]);
	if (err == 0)
		err = chain("/root/a");
	/* A link on the way that climbs: walked from c, in the moving b. */
	if (err == 0 && symlink("..", "/root/a/b/c/up") != 0)
		err = fail("up");
	if (err == 0)
		err = chain("/outside/park");
	for (size_t i = 0; err == 0 && i < 4; i++) {
		snprintf(name, sizeof name, ".l%zu", i);
		int a = open_dir("/root/a", O_PATH);

		if (a < 0 || symlinkat(link_texts[i], a, name) != 0)
			err = fail(name);
		if (a >= 0)
			close(a);
	}
	return err;
}

static int open_fds(struct race_tree *t)
{
	t->top = open_dir("/", O_PATH);
	t->root = open_dir("/root", O_PATH);
	t->a = open_dir("/root/a", O_PATH);
	t->l = open_dir("/root/a/l", O_PATH);
	t->root_outside = open_dir("/root/outside", O_PATH);
	for (int w = 0; w < WATCHED; w++)
		t->watched[w] = open_dir(watched_path[w], O_RDONLY);
	t->places[IN_ROOT] = t->root;
	t->places[IN_A] = t->a;
	t->places[IN_L] = t->l;
	t->places[IN_ROOT_OUTSIDE] = t->root_outside;
	t->inotify = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (t->top < 0 || t->root < 0 || t->a < 0 || t->l < 0 ||
	    t->root_outside < 0 || t->watched[TOP] < 0 ||
	    t->watched[OUTSIDE] < 0 || t->watched[PARK] < 0 || t->inotify < 0)
		return fail("the tree's fds");
	return 0;
}

int race_tree_build(struct race_tree *t)
{
	int err = make_layout();

	if (err == 0)
		err = open_fds(t);
	for (int w = 0; err == 0 && w < WATCHED; w++)
		err = plant_sentinels(t, w);
	return err == 0 ? watch(t) : err;
}

/* ---- what changed ---- */

static const char *where(const struct race_tree *t, int wd)
{
	static const char *const r_names[WATCHED] = { "/r", "/outside/r",
						      "/outside/park/r" };

	for (int w = 0; w < WATCHED; w++)
		if (wd == t->r_watch[w])
			return r_names[w];
	return wd == t->dir_watch[TOP] ? "/" : "/outside";
}

static const char *what_happened(uint32_t mask)
{
	if (mask & (IN_CREATE | IN_MOVED_TO))
		return "gained";
	if (mask & (IN_DELETE | IN_MOVED_FROM))
		return "lost";
	if (mask & IN_ATTRIB)
		return "saw a link count or mode change of";
	return "was itself removed or moved:";
}

/* Every event queued: true if there was one (what names the first).
 * An overflowed queue (nothing here should fill it) is no change by
 * itself: overflowed says so, for the whole comparison to decide. */
static bool watch_events(struct race_tree *t, char *what, size_t size,
			 bool *overflowed)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	bool any = false;
	ssize_t n;

	while ((n = read(t->inotify, buf, sizeof buf)) > 0)
		for (char *p = buf; p < buf + n;) {
			const struct inotify_event *e = (const void *)p;

			p += sizeof *e + e->len;
			if (e->mask & IN_Q_OVERFLOW)
				*overflowed = true;
			if (e->mask & (IN_IGNORED | IN_Q_OVERFLOW) || any)
				continue;
			snprintf(what, size, "%s %s \"%s\"", where(t, e->wd),
				 what_happened(e->mask), e->len ? e->name : "");
			any = true;
		}
	return any;
}

static bool expected_name(enum watched w, const char *name)
{
	if (!strcmp(name, ".") || !strcmp(name, "..") || !strcmp(name, "s") ||
	    !strcmp(name, "r"))
		return true;
	for (int i = 0; i < 3; i++)
		if (others[w][i] != NULL && !strcmp(name, others[w][i]))
			return true;
	return false;
}

/* w's names: each expected, and all there. */
static bool names_as_built(struct race_tree *t, enum watched w, char *what,
			   size_t size)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct dirent64))));
	unsigned int seen = 0;
	long n;

	if (lseek(t->watched[w], 0, SEEK_SET) != 0)
		return snprintf(what, size, "lseek: %s", strerror(errno)),
		       false;
	while ((n = getdents64(t->watched[w], buf, sizeof buf)) > 0)
		for (long off = 0; off < n;) {
			const struct dirent64 *d = (const void *)(buf + off);

			if (!expected_name(w, d->d_name)) {
				snprintf(what, size, "%s gained \"%s\"",
					 watched_path[w], d->d_name);
				return false;
			}
			seen++;
			off += d->d_reclen;
		}
	/* ".", "..", s, r, and the others. */
	unsigned int want = 4;

	for (int i = 0; i < 3; i++)
		want += others[w][i] != NULL;
	if (seen != want)
		snprintf(what, size, "%s lost a name: %u of its %u", 
			 watched_path[w], seen, want);
	return seen == want;
}

static bool same_file(int dirfd, const char *name, ino_t ino, char *what,
		      size_t size, const char *dir)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    st.st_ino == ino && (S_ISDIR(st.st_mode) || st.st_nlink == 1))
		return true;
	snprintf(what, size, "%s/%s was removed, replaced or linked", dir,
		 name);
	return false;
}

/* The mount a name of dirfd is on (crossing onto a mount there). */
static uint64_t mount_of(int dirfd, const char *name)
{
	struct statx stx;

	return statx(dirfd, name, AT_SYMLINK_NOFOLLOW, STATX_MNT_ID, &stx) == 0 ?
	       stx.stx_mnt_id : 0;
}

/* Nothing mounted on w's s and r, and (park, which inotify does not
 * watch) s's metadata as planted. */
static bool unmounted_unchanged(struct race_tree *t, enum watched w,
				char *what, size_t size)
{
	uint64_t here = mount_of(t->watched[w], ".");
	struct stat st;

	for (int i = 0; i < 2; i++)
		if (mount_of(t->watched[w], i ? "r" : "s") != here) {
			snprintf(what, size, "%s/%s has a mount on it",
				 w == TOP ? "" : watched_path[w], i ? "r" : "s");
			return false;
		}
	if (w != PARK)
		return true;
	if (fstatat(t->watched[w], "s", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    st.st_ctim.tv_sec == t->ids[w].s_ctime.tv_sec &&
	    st.st_ctim.tv_nsec == t->ids[w].s_ctime.tv_nsec)
		return true;
	snprintf(what, size, "/outside/park/s had its metadata changed");
	return false;
}

bool race_tree_changed_outside(struct race_tree *t, char *what, size_t size)
{
	bool overflowed = false;

	if (watch_events(t, what, size, &overflowed))
		return true;
	if (overflowed)
		return !race_tree_intact(t, what, size);
	for (int w = 0; w < WATCHED; w++)
		if (!unmounted_unchanged(t, w, what, size))
			return true;
	return !names_as_built(t, PARK, what, size) ||
	       !same_file(t->watched[PARK], "s", t->ids[PARK].s, what, size,
			  "/outside/park");
}

bool race_tree_intact(struct race_tree *t, char *what, size_t size)
{
	for (int w = 0; w < WATCHED; w++) {
		int fd = t->watched[w];
		const char *dir = watched_path[w];

		if (!names_as_built(t, w, what, size) ||
		    !unmounted_unchanged(t, w, what, size) ||
		    !same_file(fd, "s", t->ids[w].s, what, size, dir) ||
		    !same_file(fd, "r", t->ids[w].r, what, size, dir) ||
		    !same_file(fd, "r/keep", t->ids[w].keep, what, size, dir))
			return false;
		/* r holds keep alone: ".", "..", keep. */
		int r = openat(fd, "r", O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
				   O_CLOEXEC);
		DIR *d = r >= 0 ? fdopendir(r) : NULL;
		int names = 0;

		while (d != NULL && readdir(d) != NULL)
			names++;
		if (d != NULL)
			closedir(d);
		if (names != 3) {
			snprintf(what, size, "%s/r holds %d names, not keep "
				 "alone", w == TOP ? "" : dir, names - 2);
			return false;
		}
	}
	return true;
}

/* ---- putting it back ---- */

int remove_tree_at(int dir, const char *name)
{
	if (unlinkat(dir, name, 0) == 0)
		return 0;
	if (errno != EISDIR && errno != EPERM)
		return errno;
	int fd = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
				   O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;

	if (d == NULL)
		return fd >= 0 ? (close(fd), errno) : errno;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			remove_tree_at(dirfd(d), e->d_name);
	closedir(d);
	return unlinkat(dir, name, AT_REMOVEDIR) == 0 ? 0 : errno;
}

/* Removes from w what is not as built, the sentinels included: first
 * what was mounted on them, by w's fd made the working directory. */
static void clear_changes(struct race_tree *t, enum watched w)
{
	if (fchdir(t->watched[w]) == 0) {
		while (umount2("s", MNT_DETACH | UMOUNT_NOFOLLOW) == 0)
			;
		while (umount2("r", MNT_DETACH | UMOUNT_NOFOLLOW) == 0)
			;
		if (chdir("/") != 0)
			perror("back to /");
	}

	int fd = openat(t->watched[w], ".", O_RDONLY | O_DIRECTORY |
					    O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	char what[160];

	while (d != NULL && (e = readdir(d)) != NULL)
		if (!expected_name(w, e->d_name))
			remove_tree_at(t->watched[w], e->d_name);
	if (d != NULL)
		closedir(d);
	if (!same_file(t->watched[w], "s", t->ids[w].s, what, sizeof what, ""))
		remove_tree_at(t->watched[w], "s");
	if (!same_file(t->watched[w], "r", t->ids[w].r, what, sizeof what,
		       "") ||
	    !same_file(t->watched[w], "r/keep", t->ids[w].keep, what,
		       sizeof what, "")) {
		inotify_rm_watch(t->inotify, t->r_watch[w]);
		remove_tree_at(t->watched[w], "r");
	}
}

int race_tree_repair(struct race_tree *t)
{
	char what[160];
	int err = 0;

	for (int w = 0; w < WATCHED; w++)
		clear_changes(t, w);
	for (int w = 0; err == 0 && w < WATCHED; w++) {
		/* r's own content: keep alone. */
		int r = openat(t->watched[w], "r", O_PATH | O_DIRECTORY |
					    O_NOFOLLOW | O_CLOEXEC);

		if (r >= 0) {
			DIR *d = fdopendir(openat(r, ".", O_RDONLY | O_CLOEXEC));
			struct dirent *e;

			while (d != NULL && (e = readdir(d)) != NULL)
				if (strcmp(e->d_name, ".") &&
				    strcmp(e->d_name, "..") &&
				    strcmp(e->d_name, "keep"))
					remove_tree_at(r, e->d_name);
			if (d != NULL)
				closedir(d);
			close(r);
		}
		err = plant_sentinels(t, w);
	}
	for (int w = 0; err == 0 && w < WATCHED; w++) {
		char path[64];

		snprintf(path, sizeof path, "%s/r", w == TOP ? "" :
			 watched_path[w]);
		t->r_watch[w] = inotify_add_watch(t->inotify, path, CHANGES);
		if (t->r_watch[w] < 0)
			err = fail(path);
	}
	/* The repair's own events. */
	bool overflowed;

	watch_events(t, what, sizeof what, &overflowed);
	return err;
}
