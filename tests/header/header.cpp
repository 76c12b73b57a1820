// The public header in C++ (g++ defines _GNU_SOURCE, so glibc declares both
// functions too): it must compile beside those declarations.
#include <unistd.h>

#include "execveat.h"

int (*const execveat_fn)(int, const char *, char *const[], char *const[],
			 int) = execveat;
int (*const fexecve_fn)(int, char *const[], char *const[]) = fexecve;
const int flags = AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW | AT_EXECVE_CHECK;
