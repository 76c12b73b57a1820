/* The public header agrees with glibc 2.34+'s own declarations of both
 * functions (visible with _GNU_SOURCE), whichever comes first. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <unistd.h>

#include "execveat.h"

#include <unistd.h>

int (*const execveat_fn)(int, const char *, char *const[], char *const[],
			 int) = execveat;
int (*const fexecve_fn)(int, char *const[], char *const[]) = fexecve;
