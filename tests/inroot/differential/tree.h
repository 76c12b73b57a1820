/*
 * The trees the differential asks its questions in: a list of entries
 * (made in order, parents first), copies of it made afresh for every
 * question, and a canonical listing of a copy afterwards, which is what
 * two copies are compared by.
 */
#ifndef INROOT_DIFFERENTIAL_TREE_H
#define INROOT_DIFFERENTIAL_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define TREE_MAX_ENTRIES 64
#define TREE_NAME_MAX 96

struct tree_entry {
	/* 'd' directory, 'f' file, 'p' FIFO, 'l' symlink, 'm' a directory
	 * with a procfs mounted on it */
	char type;
	char path[TREE_NAME_MAX]; /* relative to the root */
	char target[TREE_NAME_MAX]; /* a symlink's text */
	mode_t mode; /* a directory's, file's or FIFO's permissions */
};

struct tree {
	char name[32];
	size_t count;
	struct tree_entry entries[TREE_MAX_ENTRIES];
};

/* Whether the tree has a mount point: its copies are kept apart from
 * the others', since remaking a copy keeps its mounts. */
bool tree_has_mounts(const struct tree *tree);

/* Makes the directory root (an fd of it; O_PATH will do) a copy of
 * tree, mode 0755, whatever it held before but mount points: 0, or -1
 * with errno. */
int tree_fill(int root, const struct tree *tree);

/* Removes dir (in parent) with everything in it, following no link and
 * leaving mount points: 0, or -1 with errno. */
int tree_remove(int parent, const char *dir);

/* Removes everything in the directory dirfd, which it closes, following
 * no link and leaving mount points: 0, or -1 with errno. */
int tree_empty_dir(int dirfd);

/*
 * A copy's canonical listing: one line per file, the root "/" first and
 * the rest in name order, each with its type, its permissions, a
 * regular file's size, a symlink's text, and "= PATH" where the file is
 * a hard link of one listed before it. Beside it, each file's dev/ino,
 * by which an fd is named with the path of its file in the tree.
 */
struct listing {
	char *text;
	size_t length, capacity;
	struct listed_file {
		char path[256];
		dev_t dev;
		ino_t ino;
	} *files;
	size_t count, room;
};

/* The listing of the tree under root (an fd of its directory): 0, or -1
 * with errno. Free it with listing_free. */
int listing_of(int root, struct listing *out);
void listing_free(struct listing *listing);

/* The path ("/", "/d/e") of the first file listed with dev/ino, or
 * NULL. */
const char *listing_name(const struct listing *listing, dev_t dev,
			 ino_t ino);

#endif /* INROOT_DIFFERENTIAL_TREE_H */
