/*
 * A path as the kernel's lookup reads it: what may be a path argument at
 * all (getname), and the names in it, split at slashes, each of a kind
 * (fs/namei.c's link_path_walk and its lookup of a parent). Shared by
 * openat2's walk, the operations beneath a root, and the fallbacks that
 * split a path into its directory and last name.
 */
#ifndef EXECVEAT_PATH_NAME_H
#define EXECVEAT_PATH_NAME_H

#include <stdbool.h>
#include <stddef.h>

/* getname()'s rules but the empty path's, which the call decides
 * (LOOKUP_EMPTY): 0 with *len the length, or -EFAULT (NULL),
 * -ENAMETOOLONG (PATH_MAX bytes or more). */
int libexecveat_path_length(const char *path, size_t *len);

/* getname() whole: 0, or -EFAULT (NULL), -ENOENT (""), -ENAMETOOLONG
 * (PATH_MAX bytes or more). */
int libexecveat_check_path(const char *path);

/*
 * What a name is to the lookup (the kernel's nd->last_type: LAST_NORM,
 * LAST_DOT, LAST_DOTDOT, LAST_ROOT). Only a plain name is looked up in a
 * directory, made, removed or renamed; "." and ".." are the directory
 * and its parent, and a path of slashes only has no last name at all.
 */
enum last_kind { LAST_IS_NAME, LAST_IS_DOT, LAST_IS_DOTDOT, LAST_IS_ROOT };

/* The kind of the name of len bytes at name. */
enum last_kind libexecveat_name_kind(const char *name, size_t len);

/* len, less the trailing slashes of the len bytes at path, but a lone
 * "/" kept: a path (or a link's text) that asks for a directory, as its
 * name, and whether it did (the length is less than len). */
size_t libexecveat_slashes_trimmed(const char *path, size_t len);

/* The next name of path from *start, slashes before it passed over:
 * path[*start, *end), or false at the end of the path. */
bool libexecveat_next_name(const char *path, size_t *start, size_t *end);

/*
 * The last name of path (not empty), as the kernel's lookup of a parent
 * takes it: path[*start, *end), trailing slashes after it, the directory
 * part before it; for a path of slashes only, LAST_IS_ROOT and no name
 * (*start = *end = 0). Its kind.
 */
enum last_kind libexecveat_last_name(const char *path, size_t *start,
				     size_t *end);

#endif /* EXECVEAT_PATH_NAME_H */
