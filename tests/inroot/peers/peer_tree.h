/*
 * The trees the peers' cases are asked in: written as lines, one inode
 * each, built under a scratch directory, described after an operation so
 * that two copies can be compared, and searched for the name of a file an
 * fd holds.
 *
 * A line is "KIND PATH [TARGET] [=MODE] [@UID:GID] [^MAJOR:MINOR] [+SIZE]":
 * KIND d (directory), f (regular file), l (symlink, TARGET its text),
 * h (hard link of TARGET, a path in the tree), p (fifo), s (socket),
 * c or b (device). Missing parents are made 0755; MODE is set with
 * chmod after the owner (chown clears the set-id bits); a regular file
 * is SIZE bytes long (a hole), so that a truncation shows.
 */
#ifndef TESTS_INROOT_PEER_TREE_H
#define TESTS_INROOT_PEER_TREE_H

#include <stddef.h>
#include <sys/types.h>

/* Builds lines (NULL-terminated) at dir, which must not exist. 0, or an
 * errno (the line that failed is printed). */
int peer_tree_build(const char *dir, const char *const *lines);

/* Removes dir and all beneath it, symlinks never followed. 0, or an
 * errno. */
int peer_tree_remove(const char *dir);

/*
 * Every inode beneath dir, one line each in name order: its path, type,
 * permission bits, owner, link count, and a symlink's text or a device's
 * number. Directory sizes and times are left out: they differ between
 * two copies that hold the same. A malloc'd string, or NULL.
 *
 * Where name is not NULL, the same walk writes to it the path beneath dir
 * of the inode (dev, ino): "/" for dir itself, else "/a/b" (the first in
 * name order where it has several names), or "(no name)" where none
 * leads to it.
 */
char *peer_tree_describe(const char *dir, dev_t dev, ino_t ino, char *name,
			 size_t size);

#endif /* TESTS_INROOT_PEER_TREE_H */
