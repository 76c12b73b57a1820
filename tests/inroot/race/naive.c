#define _GNU_SOURCE
#include "naive.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "race_tree.h"

#define ROOT_PATH "/root" /* the root, as the chroot names it */
#define LINKS_MAX 40

/* Where the naive code's flaw lies: the attacker gets the CPU (or keeps
 * running on another) for a moment, as it would if this process were
 * preempted there. */
void (*naive_at_flaw)(void);

static void pause_at_flaw(void)
{
	const struct timespec moment = { .tv_nsec = 20 * 1000 };

	if (naive_at_flaw != NULL)
		naive_at_flaw();
	else
		nanosleep(&moment, NULL);
}

/* ---- the path still to walk, links spliced in front ---- */

struct rest {
	char text[2 * PATH_MAX];
};

/* The next name into name (false at the end), and whether it is the
 * last. */
static bool next_name(struct rest *r, char *name, bool *last)
{
	const char *p = r->text + strspn(r->text, "/");
	size_t n = strcspn(p, "/");

	if (n == 0 || n > NAME_MAX)
		return false;
	memcpy(name, p, n);
	name[n] = '\0';
	p += n;
	*last = p[strspn(p, "/")] == '\0';
	memmove(r->text, p, strlen(p) + 1);
	return true;
}

static int splice_link(struct rest *r, const char *link_text)
{
	char joined[sizeof r->text];

	if ((size_t)snprintf(joined, sizeof joined, "%s/%s", link_text,
			     r->text) >= sizeof joined) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(r->text, joined, sizeof joined);
	return 0;
}

static int start(struct rest *r, const char *path)
{
	if (strlen(path) >= sizeof r->text) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(r->text, path);
	return 0;
}

/* ---- NAIVE_STRING: a string, acted on later ---- */

/* One name of the string: cur/name, followed in userspace if a link. */
static int string_step(char *cur, size_t size, struct rest *r,
		       const char *name, int *links)
{
	size_t len = strlen(cur);
	char text[PATH_MAX];
	struct stat st;

	if (strcmp(name, "..") == 0) {
		if (len > strlen(ROOT_PATH))
			*strrchr(cur, '/') = '\0';
		return 0;
	}
	snprintf(cur + len, size - len, "/%s", name);
	/* Missing: kept, for mkdir -p to make. */
	if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
		return 0;
	ssize_t n = readlink(cur, text, sizeof text - 1);

	cur[len] = '\0';
	if (n < 0)
		return -1;
	text[n] = '\0';
	if (++*links > LINKS_MAX) {
		errno = ELOOP;
		return -1;
	}
	if (text[0] == '/')
		cur[strlen(ROOT_PATH)] = '\0';
	return splice_link(r, text);
}

/* path as a string under ROOT_PATH, its last name not followed. */
static int resolve_string(const char *path, char *out, size_t size)
{
	char cur[PATH_MAX] = ROOT_PATH, name[NAME_MAX + 1];
	struct rest r;
	int links = 0;
	bool last;

	if (start(&r, path) != 0)
		return -1;
	while (next_name(&r, name, &last)) {
		if (last) {
			snprintf(out, size, "%s/%s", cur, name);
			return 0;
		}
		if (strcmp(name, ".") != 0 &&
		    string_step(cur, sizeof cur, &r, name, &links) != 0)
			return -1;
	}
	errno = ENOENT;
	return -1;
}

/* rm -r by the name, each time: what lstat saw a directory, opendir
 * follows if it is a link by then. */
static int remove_path(const char *path)
{
	char below[PATH_MAX];
	struct dirent *e;
	struct stat st;
	DIR *d;

	if (lstat(path, &st) != 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	pause_at_flaw();
	if ((d = opendir(path)) == NULL)
		return -1;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(below, sizeof below, "%s/%s", path, e->d_name);
			remove_path(below);
		}
	closedir(d);
	return rmdir(path);
}

/* mkdir -p of the string, below ROOT_PATH. */
static int make_path(char *path)
{
	for (char *p = path + strlen(ROOT_PATH) + 1; (p = strchr(p, '/'));
	     *p++ = '/') {
		*p = '\0';
		if (mkdir(path, 0755) != 0 && errno != EEXIST) {
			*p = '/';
			return -1;
		}
	}
	return mkdir(path, 0755) == 0 || errno == EEXIST ? 0 : -1;
}

/* ---- NAIVE_WALK: fds, with the kernel's ".." ---- */

static int walk_step(int *cur, int *depth, int root, struct rest *r,
		     const char *name, bool make, int *links)
{
	int next, flags = O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	char text[PATH_MAX];

	if (strcmp(name, "..") == 0 && *depth == 0)
		return 0; /* the root, by the count */
	if (strcmp(name, "..") == 0)
		pause_at_flaw();
	next = openat(*cur, name, flags);
	if (next < 0 && errno == ENOENT && make &&
	    (mkdirat(*cur, name, 0755) == 0 || errno == EEXIST))
		next = openat(*cur, name, flags);
	if (next >= 0) {
		close(*cur);
		*cur = next;
		*depth += strcmp(name, "..") == 0 ? -1 : 1;
		return 0;
	}
	if (errno != ENOTDIR && errno != ELOOP)
		return -1;
	ssize_t n = readlinkat(*cur, name, text, sizeof text - 1);

	if (n < 0 || ++*links > LINKS_MAX) {
		errno = n < 0 ? ENOTDIR : ELOOP;
		return -1;
	}
	text[n] = '\0';
	if (text[0] == '/') {
		close(*cur);
		*cur = fcntl(root, F_DUPFD_CLOEXEC, 0);
		*depth = 0;
	}
	return splice_link(r, text);
}

/* The directory of path's last name (copied into last), or -1. */
static int walk_parent(int root, const char *path, bool make, char *last)
{
	int cur = fcntl(root, F_DUPFD_CLOEXEC, 0), depth = 0, links = 0;
	char name[NAME_MAX + 1];
	struct rest r;
	bool is_last;

	if (cur < 0 || start(&r, path) != 0)
		goto failed;
	while (next_name(&r, name, &is_last)) {
		if (is_last) {
			strcpy(last, name);
			return cur;
		}
		if (strcmp(name, ".") != 0 &&
		    walk_step(&cur, &depth, root, &r, name, make, &links) != 0)
			goto failed;
	}
	errno = ENOENT;
failed:
	if (cur >= 0) {
		int err = errno;

		close(cur);
		errno = err;
	}
	return -1;
}

/* ---- the operations ---- */

/* The two ways to name what an operation acts on. */
struct where {
	char path[PATH_MAX];   /* NAIVE_STRING */
	int dir;               /* NAIVE_WALK */
	char name[NAME_MAX + 1];
};

static int find(enum naive_kind k, int root, const char *path, bool make,
		struct where *w)
{
	w->dir = -1;
	if (k == NAIVE_STRING) {
		if (resolve_string(path, w->path, sizeof w->path) != 0)
			return -1;
		pause_at_flaw();
		return 0;
	}
	w->dir = walk_parent(root, path, make, w->name);
	return w->dir < 0 ? -1 : 0;
}

/* rc, with where's fd closed and errno kept. */
static int done(struct where *w, int rc)
{
	int err = errno;

	if (w->dir >= 0)
		close(w->dir);
	errno = err;
	return rc;
}

int naive_mkdir(enum naive_kind k, int root, const char *path,
		const char *unused)
{
	struct where w;

	(void)unused;
	if (find(k, root, path, false, &w) != 0)
		return -1;
	return done(&w, k == NAIVE_STRING ? mkdir(w.path, 0755) :
					    mkdirat(w.dir, w.name, 0755));
}

int naive_mkdir_all(enum naive_kind k, int root, const char *path,
		    const char *unused)
{
	struct where w;
	int rc;

	(void)unused;
	if (find(k, root, path, true, &w) != 0)
		return -1;
	rc = k == NAIVE_STRING ? make_path(w.path) :
				 mkdirat(w.dir, w.name, 0755);
	return done(&w, rc == 0 || errno == EEXIST ? 0 : -1);
}

int naive_symlink(enum naive_kind k, int root, const char *path,
		  const char *target)
{
	struct where w;

	if (find(k, root, path, false, &w) != 0)
		return -1;
	return done(&w, k == NAIVE_STRING ? symlink(target, w.path) :
					    symlinkat(target, w.dir, w.name));
}

int naive_creat(enum naive_kind k, int root, const char *path,
		const char *unused)
{
	int flags = O_CREAT | O_WRONLY | O_CLOEXEC, fd;
	struct where w;

	(void)unused;
	if (find(k, root, path, false, &w) != 0)
		return -1;
	fd = k == NAIVE_STRING ? open(w.path, flags, 0644) :
				 openat(w.dir, w.name, flags, 0644);
	return done(&w, fd < 0 ? -1 : close(fd));
}

int naive_unlink(enum naive_kind k, int root, const char *path,
		 const char *unused)
{
	struct where w;

	(void)unused;
	if (find(k, root, path, false, &w) != 0)
		return -1;
	return done(&w, k == NAIVE_STRING ? unlink(w.path) :
					    unlinkat(w.dir, w.name, 0));
}

int naive_remove_all(enum naive_kind k, int root, const char *path,
		     const char *unused)
{
	struct where w;
	int err;

	(void)unused;
	if (find(k, root, path, false, &w) != 0)
		return -1;
	if (k == NAIVE_STRING)
		return done(&w, remove_path(w.path));
	err = remove_tree_at(w.dir, w.name);
	errno = err;
	return done(&w, err == 0 || err == ENOENT ? 0 : -1);
}

int naive_rename(enum naive_kind k, int root, const char *src,
		 const char *dst)
{
	struct where from, to;

	if (find(k, root, src, false, &from) != 0)
		return -1;
	if (find(k, root, dst, false, &to) != 0)
		return done(&from, -1);
	int rc = k == NAIVE_STRING ? rename(from.path, to.path) :
		 renameat(from.dir, from.name, to.dir, to.name);

	return done(&from, done(&to, rc));
}

int naive_hardlink(enum naive_kind k, int root, const char *path,
		   const char *target)
{
	struct where new, old;

	if (find(k, root, path, false, &new) != 0)
		return -1;
	if (find(k, root, target, false, &old) != 0)
		return done(&new, -1);
	int rc = k == NAIVE_STRING ? link(old.path, new.path) :
		 linkat(old.dir, old.name, new.dir, new.name, 0);

	return done(&new, done(&old, rc));
}

/* ---- 2.1's: the call made on what find() found ---- */

static const struct timespec race_times[2] = { { 1000, 0 }, { 1000, 0 } };

/* The walk's last name acted on from its directory as the working
 * directory, for the calls with no *at form here (setxattr, mount). */
static int from_dir(const struct where *w, int (*call)(const char *, const char *),
		    const char *arg)
{
	int rc, err;

	if (fchdir(w->dir) != 0)
		return -1;
	rc = call(w->name, arg);
	err = errno;
	if (chdir("/") != 0)
		return -1;
	errno = err;
	return rc;
}

static int set_attr(const char *path, const char *unused)
{
	(void)unused;
	return setxattr(path, "user.race", "x", 1, 0);
}

static int bind_over(const char *path, const char *unused)
{
	(void)unused;
	return mount("/root/a/bsrc", path, NULL, MS_BIND, NULL);
}

static int mask_over(const char *path, const char *unused)
{
	(void)unused;
	return mount("none", path, "tmpfs", MS_RDONLY, "mode=0555");
}

int naive_metadata(enum naive_kind k, int root, const char *path,
		   const char *call)
{
	bool s = k == NAIVE_STRING;
	struct where w;
	int rc;

	if (find(k, root, path, false, &w) != 0)
		return -1;
	if (!strcmp(call, "chmod"))
		rc = s ? chmod(w.path, 0600) : fchmodat(w.dir, w.name, 0600, 0);
	else if (!strcmp(call, "chown"))
		rc = s ? chown(w.path, 1234, 1234) :
			 fchownat(w.dir, w.name, 1234, 1234, 0);
	else if (!strcmp(call, "utimens"))
		rc = s ? utimensat(AT_FDCWD, w.path, race_times, 0) :
			 utimensat(w.dir, w.name, race_times, 0);
	else if (!strcmp(call, "setxattr"))
		rc = s ? set_attr(w.path, NULL) : from_dir(&w, set_attr, NULL);
	else
		rc = s ? mknod(w.path, S_IFIFO | 0600, 0) :
			 mknodat(w.dir, w.name, S_IFIFO | 0600, 0);
	return done(&w, rc);
}

int naive_mounts(enum naive_kind k, int root, const char *path,
		 const char *call)
{
	int (*mount_it)(const char *, const char *) =
		!strcmp(call, "bind") ? bind_over : mask_over;
	struct where w;

	if (find(k, root, path, false, &w) != 0)
		return -1;
	return done(&w, k == NAIVE_STRING ? mount_it(w.path, NULL) :
					    from_dir(&w, mount_it, NULL));
}
