/*
 * What the kernel makes of a path argument before any lookup (getname),
 * shared by openat2's walk and the operations beneath a root.
 */
#ifndef EXECVEAT_PATH_NAME_H
#define EXECVEAT_PATH_NAME_H

#include <stddef.h>

/* getname()'s rules but the empty path's, which the call decides
 * (LOOKUP_EMPTY): 0 with *len the length, or -EFAULT (NULL),
 * -ENAMETOOLONG (PATH_MAX bytes or more). */
int libexecveat_path_length(const char *path, size_t *len);

/* getname() whole: 0, or -EFAULT (NULL), -ENOENT (""), -ENAMETOOLONG
 * (PATH_MAX bytes or more). */
int libexecveat_check_path(const char *path);

#endif /* EXECVEAT_PATH_NAME_H */
