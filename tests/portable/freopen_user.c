/*
 * A library that uses libexecveat's freopen: linked with -lexecveat, and
 * loaded by a program that links only this library, so that the C
 * library is loaded before libexecveat (test_freopen_through_a_library.c).
 */
#include <stdio.h>

#include "execveat.h"

FILE *freopen_user_reopen(const char *name, const char *mode, FILE *stream);

FILE *freopen_user_reopen(const char *name, const char *mode, FILE *stream)
{
	return freopen(name, mode, stream);
}
