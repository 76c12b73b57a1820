/*
 * A NULL test the optimiser cannot delete.
 *
 * glibc declares fexecve (argv) and, with _GNU_SOURCE, execveat (path and
 * argv) __nonnull. Once such a declaration is in scope the compiler may
 * treat "p == NULL" on those parameters as always false and drop the
 * branch, so the pointer goes through an empty asm that hides its value.
 */
#ifndef EXECVEAT_NULL_CHECK_H
#define EXECVEAT_NULL_CHECK_H

#include <stdbool.h>
#include <stddef.h>

static inline bool pointer_is_null(const void *p)
{
	__asm__("" : "+r"(p));
	return p == NULL;
}

#endif /* EXECVEAT_NULL_CHECK_H */
