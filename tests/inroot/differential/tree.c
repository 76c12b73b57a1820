#define _GNU_SOURCE
#include "tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "openat2_nr.h"

/* The times a question sets (metadata_sides.h: 1000 and 2000) are
 * listed; those of a copy's making, which differ between copies, not. */
#define TIMES_SET_BELOW 100000

/* The *xattrat calls (Linux 6.13), which C libraries do not name yet. */
#define SETXATTRAT_NR (OPENAT2_NR - 437 + 463)
#define GETXATTRAT_NR (OPENAT2_NR - 437 + 464)
#define LISTXATTRAT_NR (OPENAT2_NR - 437 + 465)

struct xattr_args {
	uint64_t value;
	uint32_t size, flags;
};

/*
 * call(name, arg) with dirfd as the working directory, then back: the
 * l*xattr calls take no directory fd, for where the *xattrat ones are
 * missing (before 6.13; valgrind knows none of them). -1 with errno
 * where the directory cannot be entered.
 */
static long in_dir(int dirfd, const char *name,
		   long (*call)(const char *, void *), void *arg)
{
	int here = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC), err;
	long r;

	if (here < 0)
		return -1;
	r = fchdir(dirfd) == 0 ? call(name, arg) : -1;
	err = errno;
	if (fchdir(here) != 0)
		r = -1;
	close(here);
	errno = err;
	return r;
}

/* user.t, the entry's own path, which getxattr names a file by. */
static long set_own_path(const char *name, void *path)
{
	return lsetxattr(name, "user.t", path, strlen(path), 0);
}

static int set_own_path_at(int dirfd, const char *name)
{
	struct xattr_args args = {
		.value = (uint64_t)(uintptr_t)name, .size = (uint32_t)strlen(name),
	};

	if (syscall(SETXATTRAT_NR, dirfd, name, AT_SYMLINK_NOFOLLOW, "user.t",
		    &args, sizeof args) == 0)
		return 0;
	return errno == ENOSYS ?
	       (int)in_dir(dirfd, name, set_own_path, (void *)name) : -1;
}

struct names_of_attrs {
	char list[1024];
};

static long list_attrs(const char *name, void *out)
{
	return llistxattr(name, ((struct names_of_attrs *)out)->list,
			  sizeof ((struct names_of_attrs *)out)->list);
}

/* The names listed, one system call where the kernel has it. */
static long list_attrs_at(int dirfd, const char *name,
			  struct names_of_attrs *out)
{
	long n = syscall(LISTXATTRAT_NR, dirfd, name, AT_SYMLINK_NOFOLLOW,
			 out->list, sizeof out->list);

	return n >= 0 || errno != ENOSYS ? n :
	       in_dir(dirfd, name, list_attrs, out);
}

/* A regular file holds its own path: files differ in size, so that an
 * O_TRUNC shows in the listing. */
static int make_file(int root, const struct tree_entry *e)
{
	int fd = openat(root, e->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			e->mode);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, e->path, strlen(e->path));
	close(fd);
	return n < 0 ? -1 : 0;
}

/* Whether a directory in parent, whose stat is st, is another file
 * system's root: a mount point, which is left as it is. */
static bool mount_point(int parent, const struct stat *st)
{
	struct stat up;

	return fstatat(parent, ".", &up, 0) == 0 && up.st_dev != st->st_dev;
}

/*
 * A procfs on the directory path (made 0555 where missing), whose magic
 * links the paths go through; one there already is kept, as tree_fill
 * keeps every mount point. mount(2) takes the path from the cwd.
 */
static int mount_proc(int root, const char *path)
{
	int here = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	struct stat st;
	int rc;

	if (here < 0)
		return -1;
	if (mkdirat(root, path, 0555) < 0 && errno != EEXIST)
		rc = -1;
	else if (fstatat(root, path, &st, 0) == 0 && mount_point(root, &st))
		rc = 0;
	else
		rc = fchdir(root) < 0 ? -1 :
		     mount("proc", path, "proc",
			   MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	if (fchdir(here) < 0)
		rc = -1;
	close(here);
	return rc;
}

static int make_entry(int root, const struct tree_entry *e)
{
	switch (e->type) {
	case 'd':
		/* The mode is set once the tree is made: a directory without
		 * write permission would still take its entries from root,
		 * but the listing should not depend on that. */
		return mkdirat(root, e->path, 0700);
	case 'f':
		return make_file(root, e);
	case 'p':
		return mknodat(root, e->path, S_IFIFO | e->mode, 0);
	case 'l':
		return symlinkat(e->target, root, e->path);
	case 'm':
		return mount_proc(root, e->path);
	}
	errno = EINVAL;
	return -1;
}

/* Permissions as given, whatever the umask took away; and each file's
 * and directory's own path in user.t. */
static int set_modes(int root, const struct tree *tree)
{
	for (size_t i = tree->count; i-- > 0;) {
		const struct tree_entry *e = &tree->entries[i];

		if ((e->type == 'f' || e->type == 'd') &&
		    set_own_path_at(root, e->path) < 0)
			return -1;
		if (e->type != 'l' && e->type != 'm' && 
		    fchmodat(root, e->path, e->mode, 0) < 0)
			return -1;
	}
	return 0;
}

/* The root itself as a question may have left it: its owner, and
 * attributes but its own path. */
static int reset_root(int fd)
{
	if (fchmod(fd, 0755) < 0 || fchown(fd, 0, 0) < 0)
		return -1;
	fremovexattr(fd, "user.n");
	return fsetxattr(fd, "user.t", "/", 1, 0);
}

bool tree_has_mounts(const struct tree *tree)
{
	for (size_t i = 0; i < tree->count; i++)
		if (tree->entries[i].type == 'm')
			return true;
	return false;
}

int tree_fill(int root, const struct tree *tree)
{
	int fd = openat(root, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc = 0;

	if (fd < 0)
		return -1;
	if (reset_root(fd) < 0) {
		close(fd);
		return -1;
	}
	rc = tree_empty_dir(fd);
	for (size_t i = 0; rc == 0 && i < tree->count; i++)
		rc = make_entry(root, &tree->entries[i]);
	return rc == 0 ? set_modes(root, tree) : -1;
}

int tree_empty_dir(int dirfd)
{
	DIR *dir = fdopendir(dirfd);
	struct dirent *d;
	struct stat st;
	bool removed = true;
	int rc = 0;

	if (dir == NULL) {
		close(dirfd);
		return -1;
	}
	/* Removing while reading may hide an entry from this pass: passes
	 * until one removes nothing. */
	while (rc == 0 && removed) {
		removed = false;
		while (rc == 0 && (d = readdir(dir)) != NULL) {
			if (strcmp(d->d_name, ".") == 0 ||
			    strcmp(d->d_name, "..") == 0)
				continue;
			rc = tree_remove(dirfd, d->d_name);
			removed = removed || (rc == 0 &&
				  fstatat(dirfd, d->d_name, &st,
					  AT_SYMLINK_NOFOLLOW) < 0);
		}
		rewinddir(dir);
	}
	closedir(dir);
	return rc;
}

int tree_remove(int parent, const char *name)
{
	struct stat st;
	int fd;

	if (fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlinkat(parent, name, 0);
	if (mount_point(parent, &st))
		return 0;
	fd = openat(parent, name,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || tree_empty_dir(fd) < 0)
		return -1;
	return unlinkat(parent, name, AT_REMOVEDIR);
}

static int append(struct listing *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		size_t room = l->capacity - l->length;

		va_start(ap, fmt);
		n = vsnprintf(l->text + l->length, room, fmt, ap);
		va_end(ap);
		if (n < 0)
			return -1;
		if ((size_t)n < room) {
			l->length += (size_t)n;
			return 0;
		}
		char *bigger = realloc(l->text, l->capacity * 2 + (size_t)n);

		if (bigger == NULL)
			return -1;
		l->text = bigger;
		l->capacity = l->capacity * 2 + (size_t)n;
	}
}

static const char *type_name(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFDIR: return "dir";
	case S_IFREG: return "file";
	case S_IFLNK: return "link";
	case S_IFIFO: return "fifo";
	case S_IFCHR: return "chr";
	case S_IFBLK: return "blk";
	case S_IFSOCK: return "sock";
	}
	return "?";
}

struct attr_value {
	const char *attr;
	char value[256];
};

static long value_of(const char *name, void *arg)
{
	struct attr_value *v = arg;

	return lgetxattr(name, v->attr, v->value, sizeof v->value);
}

static long value_of_at(int dirfd, const char *name, struct attr_value *v)
{
	struct xattr_args args = {
		.value = (uint64_t)(uintptr_t)v->value,
		.size = sizeof v->value,
	};
	long n = syscall(GETXATTRAT_NR, dirfd, name, AT_SYMLINK_NOFOLLOW,
			 v->attr, &args, sizeof args);

	return n >= 0 || errno != ENOSYS ? n : in_dir(dirfd, name, value_of, v);
}

/* The file's user.* attributes (name in dirfd), name=value in the order
 * listed. */
static int list_xattrs(struct listing *l, int dirfd, const char *name)
{
	struct names_of_attrs names;
	long n = list_attrs_at(dirfd, name, &names);

	for (long at = 0; at < n; at += (long)strlen(names.list + at) + 1) {
		struct attr_value v = { .attr = names.list + at };
		long len = value_of_at(dirfd, name, &v);

		if (append(l, " %s=%.*s", v.attr, (int)(len < 0 ? 0 : len),
			   v.value) < 0)
			return -1;
	}
	return 0;
}

/* One line for the file at path, whose stat is st (name: in dirfd). */
static int list_one(struct listing *l, int dirfd, const char *name,
		    const char *path, const struct stat *st)
{
	const char *same = listing_name(l, st->st_dev, st->st_ino);
	struct listed_file *f;

	if (append(l, "%s %s %04o", path, type_name(st->st_mode),
		   (unsigned)(st->st_mode & 07777)) < 0)
		return -1;
	if ((st->st_uid != 0 || st->st_gid != 0) &&
	    append(l, " owner %u:%u", (unsigned)st->st_uid,
		   (unsigned)st->st_gid) < 0)
		return -1;
	if ((st->st_atime < TIMES_SET_BELOW ||
	     st->st_mtime < TIMES_SET_BELOW) &&
	    append(l, " times %lld %lld", (long long)st->st_atime,
		   (long long)st->st_mtime) < 0)
		return -1;
	if (list_xattrs(l, dirfd, name) < 0)
		return -1;
	if (S_ISREG(st->st_mode) && append(l, " size %lld",
					   (long long)st->st_size) < 0)
		return -1;
	if (S_ISLNK(st->st_mode)) {
		char text[PATH_MAX];
		ssize_t n = readlinkat(dirfd, name, text, sizeof(text) - 1);

		if (n < 0)
			return -1;
		text[n] = '\0';
		if (append(l, " -> \"%s\"", text) < 0)
			return -1;
	}
	if (same != NULL && append(l, " = %s", same) < 0)
		return -1;
	if (append(l, "\n") < 0)
		return -1;
	if (l->count == l->room) {
		size_t room = l->room * 2 + 16;
		struct listed_file *more = realloc(l->files,
						   room * sizeof(*more));

		if (more == NULL)
			return -1;
		l->files = more;
		l->room = room;
	}
	f = &l->files[l->count++];
	snprintf(f->path, sizeof(f->path), "%s", path);
	f->dev = st->st_dev;
	f->ino = st->st_ino;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list_dir(struct listing *l, int dirfd, const char *path);

/* The sorted names of the directory dirfd (kept open), into *names. */
static int names_of(int dirfd, char ***names, size_t *count)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *d;
	size_t room = 0;

	*names = NULL;
	*count = 0;
	if (dir == NULL) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while ((d = readdir(dir)) != NULL) {
		if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0)
			continue;
		if (*count == room) {
			char **more = realloc(*names, (room * 2 + 8) *
					      sizeof(**names));

			if (more == NULL)
				break;
			*names = more;
			room = room * 2 + 8;
		}
		if (((*names)[*count] = strdup(d->d_name)) == NULL)
			break;
		(*count)++;
	}
	closedir(dir);
	if (d != NULL)
		return -1; /* out of memory: what was read is freed */
	/* An empty directory has no array to sort. */
	if (*count > 1)
		qsort(*names, *count, sizeof(**names), by_name);
	return 0;
}

static int list_entry(struct listing *l, int dirfd, const char *name,
		      const char *dirpath)
{
	char path[256];
	struct stat st;
	int fd, rc;

	snprintf(path, sizeof(path), "%s/%s", strcmp(dirpath, "/") == 0 ?
		 "" : dirpath, name);
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    list_one(l, dirfd, name, path, &st) < 0)
		return -1;
	if (!S_ISDIR(st.st_mode) || mount_point(dirfd, &st))
		return 0;
	fd = openat(dirfd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	rc = list_dir(l, fd, path);
	close(fd);
	return rc;
}

static int list_dir(struct listing *l, int dirfd, const char *path)
{
	char **names;
	size_t count;
	int rc = names_of(dirfd, &names, &count);

	for (size_t i = 0; i < count; i++) {
		if (rc == 0)
			rc = list_entry(l, dirfd, names[i], path);
		free(names[i]);
	}
	free(names);
	return rc;
}

int listing_of(int root, struct listing *out)
{
	struct stat st;

	memset(out, 0, sizeof(*out));
	out->capacity = 1024;
	out->text = malloc(out->capacity);
	if (out->text == NULL)
		return -1;
	out->text[0] = '\0';
	if (fstat(root, &st) < 0 || list_one(out, root, ".", "/", &st) < 0 ||
	    list_dir(out, root, "/") < 0) {
		listing_free(out);
		return -1;
	}
	return 0;
}

void listing_free(struct listing *listing)
{
	free(listing->text);
	free(listing->files);
	memset(listing, 0, sizeof(*listing));
}

const char *listing_name(const struct listing *listing, dev_t dev,
			 ino_t ino)
{
	for (size_t i = 0; i < listing->count; i++)
		if (listing->files[i].dev == dev &&
		    listing->files[i].ino == ino)
			return listing->files[i].path;
	return NULL;
}
