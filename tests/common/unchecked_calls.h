/*
 * The library's execveat and fexecve, callable with NULL arguments.
 *
 * glibc declares fexecve's argv __nonnull, and (2.34+, with _GNU_SOURCE)
 * execveat's path too: passing NULL to them by name is undefined behaviour
 * in the caller (UBSan stops there), whatever the library then does with
 * it. A pointer to the function carries no such attribute. Static, so each
 * test binds to the library it links (shared, static, -O2).
 */
#ifndef TESTS_UNCHECKED_CALLS_H
#define TESTS_UNCHECKED_CALLS_H

#include "execveat.h"

static int (*volatile const execveat_unchecked)(int, const char *,
						char *const[], char *const[],
						int) = execveat;
static int (*volatile const fexecve_unchecked)(int, char *const[],
					       char *const[]) = fexecve;

#endif /* TESTS_UNCHECKED_CALLS_H */
