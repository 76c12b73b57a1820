// The public header in C++ (g++ defines _GNU_SOURCE, so glibc declares both
// functions too): it must compile beside those declarations.
#include <unistd.h>

#include "execveat.h"

// extern: a namespace-scope const is internal in C++, and clang warns
// about an unused one.
extern int (*const execveat_fn)(int, const char *, char *const[],
				char *const[], int) = execveat;
extern int (*const fexecve_fn)(int, char *const[], char *const[]) = fexecve;
extern const int flags = AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW | AT_EXECVE_CHECK;
