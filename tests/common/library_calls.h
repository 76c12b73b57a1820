/* The library's two calls, made in a child with the fixtures' argv and
 * environment: what each suite runs, then asserts with exec_outcome.h. */
#ifndef TESTS_LIBRARY_CALLS_H
#define TESTS_LIBRARY_CALLS_H

#include "exec_outcome.h"

/* execveat(dirfd, path, child_argv, child_envp, flags) in a child. */
struct exec_outcome run_execveat(int dirfd, const char *path, int flags);

/* fexecve(fd, child_argv, child_envp) in a child. */
struct exec_outcome run_fexecve(int fd);

#endif /* TESTS_LIBRARY_CALLS_H */
