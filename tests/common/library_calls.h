/* The library's two calls, made in a child with the fixtures' argv and
 * environment: what each suite runs, then asserts with exec_outcome.h. */
#ifndef TESTS_LIBRARY_CALLS_H
#define TESTS_LIBRARY_CALLS_H

#include "exec_outcome.h"

/*
 * The library's execveat and fexecve, for calls that may pass NULL: glibc
 * declares execveat's path and fexecve's argv __nonnull, which makes a
 * NULL passed to them directly undefined behaviour in the caller.
 */
int call_execveat(int dirfd, const char *path, char *const argv[],
		  char *const envp[], int flags);
int call_fexecve(int fd, char *const argv[], char *const envp[]);

/* execveat(dirfd, path, child_argv, child_envp, flags) in a child. */
struct exec_outcome run_execveat(int dirfd, const char *path, int flags);

/* fexecve(fd, child_argv, child_envp) in a child. */
struct exec_outcome run_fexecve(int fd);

#endif /* TESTS_LIBRARY_CALLS_H */
