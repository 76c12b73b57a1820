/*
 * The one proof that two stats describe the same file: the same inode
 * number on the same device. Every /proc fallback of the library asks it
 * (a name that must lead to the caller's fd's file, a witness pipe listed
 * in an fd table, a file held open elsewhere, a file changed under a
 * chmod). The resolver adds the mount and birth time to it
 * (src/resolve/identity.c), which statx gives and stat does not.
 */
#ifndef EXECVEAT_SAME_FILE_H
#define EXECVEAT_SAME_FILE_H

#include <stdbool.h>
#include <sys/stat.h>

static inline bool libexecveat_same_file(const struct stat *a,
					 const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

#endif /* EXECVEAT_SAME_FILE_H */
