/* The public header agrees with glibc's own declarations (visible with
 * _GNU_SOURCE: execveat since 2.34, openat2 and struct open_how since
 * 2.43) and with the kernel's <linux/openat2.h>, whichever comes first. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <unistd.h>
#ifdef __has_include
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#endif
#endif

#include "execveat.h"

#include <fcntl.h>
#include <unistd.h>

int (*const execveat_fn)(int, const char *, char *const[], char *const[],
			 int) = execveat;
int (*const fexecve_fn)(int, char *const[], char *const[]) = fexecve;
int (*const openat2_fn)(int, const char *, const struct open_how *,
			size_t) = openat2;
const struct open_how how = { O_RDONLY, 0, RESOLVE_BENEATH };
