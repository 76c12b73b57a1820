/* The public header compiles on its own, first, in strict ISO C. */
#include "execveat.h"

int (*const execveat_fn)(int, const char *, char *const[], char *const[],
			 int) = execveat;
int (*const fexecve_fn)(int, char *const[], char *const[]) = fexecve;
const int flags = AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW | AT_EXECVE_CHECK;
