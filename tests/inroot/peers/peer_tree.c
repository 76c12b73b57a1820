#define _GNU_SOURCE
#include "peer_tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* One line, split: the fields after PATH are optional. */
struct tree_line {
	char kind;
	char path[PATH_MAX];
	char target[PATH_MAX];
	bool has_mode, has_owner, has_dev;
	off_t size;
	mode_t mode;
	uid_t uid;
	gid_t gid;
	unsigned major, minor;
};

static int parse_line(const char *text, struct tree_line *l)
{
	char copy[2 * PATH_MAX], *save = NULL, *field;
	int n = 0;

	memset(l, 0, sizeof *l);
	snprintf(copy, sizeof copy, "%s", text);
	for (field = strtok_r(copy, " ", &save); field != NULL;
	     field = strtok_r(NULL, " ", &save), n++) {
		if (n == 0)
			l->kind = field[0];
		else if (n == 1)
			snprintf(l->path, sizeof l->path, "%s", field);
		else if (field[0] == '=')
			l->has_mode = true,
			l->mode = (mode_t)strtoul(field + 1, NULL, 8);
		else if (field[0] == '@')
			l->has_owner = sscanf(field + 1, "%u:%u", &l->uid,
					      &l->gid) == 2;
		else if (field[0] == '+')
			l->size = (off_t)strtoll(field + 1, NULL, 10);
		else if (field[0] == '^')
			l->has_dev = sscanf(field + 1, "%u:%u", &l->major,
					    &l->minor) == 2;
		else
			snprintf(l->target, sizeof l->target, "%s", field);
	}
	return n >= 2 ? 0 : EINVAL;
}

/* mkdir -p of every directory above path (dir/path's parents). */
static int make_parents(const char *dir, const char *path)
{
	char full[2 * PATH_MAX];
	size_t base = strlen(dir) + 1;

	snprintf(full, sizeof full, "%s/%s", dir, path);
	for (char *slash = strchr(full + base, '/'); slash != NULL;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(full, 0755) != 0 && errno != EEXIST)
			return errno;
		*slash = '/';
	}
	return 0;
}

static int make_inode(const char *dir, const struct tree_line *l,
		      const char *full)
{
	char other[2 * PATH_MAX];
	mode_t type;

	switch (l->kind) {
	case 'd':
		return mkdir(full, 0755) == 0 ? 0 : errno;
	case 'f':
		type = S_IFREG;
		break;
	case 'p':
		type = S_IFIFO;
		break;
	case 's':
		type = S_IFSOCK;
		break;
	case 'c':
		type = S_IFCHR;
		break;
	case 'b':
		type = S_IFBLK;
		break;
	case 'l':
		return symlink(l->target, full) == 0 ? 0 : errno;
	case 'h':
		snprintf(other, sizeof other, "%s/%s", dir, l->target);
		return link(other, full) == 0 ? 0 : errno;
	default:
		return EINVAL;
	}
	return mknod(full, type | 0644,
		     l->has_dev ? makedev(l->major, l->minor) : 0) == 0 ? 0 :
									errno;
}

static int build_line(const char *dir, const char *text)
{
	char full[2 * PATH_MAX];
	struct tree_line l;
	int err = parse_line(text, &l);

	snprintf(full, sizeof full, "%s/%s", dir, l.path);
	if (err == 0)
		err = make_parents(dir, l.path);
	if (err == 0)
		err = make_inode(dir, &l, full);
	if (err == 0 && l.size > 0 && truncate(full, l.size) != 0)
		err = errno;
	if (err == 0 && l.has_owner &&
	    lchown(full, l.uid, l.gid) != 0)
		err = errno;
	if (err == 0 && l.has_mode && chmod(full, l.mode) != 0)
		err = errno;
	return err;
}

int peer_tree_build(const char *dir, const char *const *lines)
{
	if (mkdir(dir, 0755) != 0)
		return errno;
	for (size_t i = 0; lines[i] != NULL; i++) {
		int err = build_line(dir, lines[i]);

		if (err != 0) {
			printf("# tree line \"%s\": %s\n", lines[i],
			       strerror(err));
			return err;
		}
	}
	return 0;
}

/* The names in the directory fd holds other than "." and "..": read
 * all before any is removed, as readdir need not go on rightly in a
 * directory that changes under it. A malloc'd array of count names. */
static char **read_names(DIR *d, size_t *count)
{
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;

	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (n == cap) {
			char **more = realloc(names, (cap = cap * 2 + 16) *
							     sizeof *names);
			if (more == NULL)
				break;
			names = more;
		}
		if ((names[n] = strdup(e->d_name)) == NULL)
			break;
		n++;
	}
	*count = n;
	return names;
}

/* Removes all that the directory fd holds, and closes fd: 0, or an
 * errno. */
static int peer_tree_empty(int fd)
{
	DIR *d = fdopendir(fd);
	char **names;
	size_t count;
	int err = 0;

	if (d == NULL) {
		close(fd);
		return errno;
	}
	names = read_names(d, &count);
	for (size_t i = 0; i < count; i++) {
		if (err == 0 && unlinkat(fd, names[i], 0) != 0) {
			int sub = errno != EISDIR ? -1 :
				  openat(fd, names[i],
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
						 O_CLOEXEC);

			err = sub < 0 ? errno : peer_tree_empty(sub);
			if (err == 0 &&
			    unlinkat(fd, names[i], AT_REMOVEDIR) != 0)
				err = errno;
		}
		free(names[i]);
	}
	free(names);
	closedir(d);
	return err;
}

int peer_tree_remove(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int err;

	if (fd < 0)
		return errno == ENOENT ? 0 : errno;
	err = peer_tree_empty(fd);
	if (err == 0 && rmdir(dir) != 0)
		err = errno;
	return err;
}

/* A growing string. */
struct text {
	char *s;
	size_t len, cap;
	bool failed;
};

static void text_add(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void text_add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->failed)
		return;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (t->len + (size_t)n + 1 > t->cap) {
		size_t cap = (t->cap + (size_t)n + 1) * 2;
		char *s = realloc(t->s, cap);

		if (s == NULL) {
			t->failed = true;
			return;
		}
		t->s = s;
		t->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}

/* The entries of dir/rel other than "." and "..", sorted by name. */
static int list_dir(const char *dir, const char *rel, struct dirent ***names)
{
	char path[2 * PATH_MAX];

	snprintf(path, sizeof path, "%s%s", dir, rel);
	return scandir(path, names, NULL, alphasort);
}

static bool dots(const char *name)
{
	return strcmp(name, ".") == 0 || strcmp(name, "..") == 0;
}

/* The inode whose first name the walk looks for (name NULL: none). */
struct wanted {
	dev_t dev;
	ino_t ino;
	char *name;
	size_t size;
	bool found;
};

static void describe_inode(struct text *t, const char *dir, const char *rel,
			   struct wanted *w)
{
	char path[2 * PATH_MAX], link[PATH_MAX];
	struct stat st;
	ssize_t n;

	snprintf(path, sizeof path, "%s%s", dir, rel);
	if (lstat(path, &st) != 0) {
		text_add(t, "%s: %s\n", rel, strerror(errno));
		return;
	}
	if (w->name != NULL && !w->found && st.st_dev == w->dev &&
	    st.st_ino == w->ino) {
		snprintf(w->name, w->size, "%s", *rel ? rel : "/");
		w->found = true;
	}
	text_add(t, "%s %06o %u:%u links %lu", *rel ? rel : "/",
		 (unsigned)st.st_mode, (unsigned)st.st_uid,
		 (unsigned)st.st_gid,
		 S_ISDIR(st.st_mode) ? 0UL : (unsigned long)st.st_nlink);
	if (S_ISLNK(st.st_mode) &&
	    (n = readlink(path, link, sizeof link - 1)) >= 0)
		text_add(t, " -> %.*s", (int)n, link);
	if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
		text_add(t, " dev %u:%u", major(st.st_rdev),
			 minor(st.st_rdev));
	if (S_ISREG(st.st_mode))
		text_add(t, " size %lld", (long long)st.st_size);
	text_add(t, "\n");
	if (!S_ISDIR(st.st_mode))
		return;

	struct dirent **names;
	int count = list_dir(dir, rel, &names);

	for (int i = 0; i < count; i++) {
		char sub[2 * PATH_MAX];

		if (!dots(names[i]->d_name)) {
			snprintf(sub, sizeof sub, "%s/%s", rel,
				 names[i]->d_name);
			describe_inode(t, dir, sub, w);
		}
		free(names[i]);
	}
	if (count >= 0)
		free(names);
}

char *peer_tree_describe(const char *dir, dev_t dev, ino_t ino, char *name,
			 size_t size)
{
	struct wanted w = { dev, ino, name, size, false };
	struct text t = { 0 };

	describe_inode(&t, dir, "", &w);
	if (name != NULL && !w.found)
		snprintf(name, size, "(no name)");
	if (t.failed) {
		free(t.s);
		return NULL;
	}
	return t.s;
}
