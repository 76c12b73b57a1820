/* The public header compiles on its own, first, in strict ISO C. */
#include "execveat.h"

int (*const execveat_fn)(int, const char *, char *const[], char *const[],
			 int) = execveat;
int (*const fexecve_fn)(int, char *const[], char *const[]) = fexecve;
int (*const openat2_fn)(int, const char *, const struct open_how *,
			size_t) = openat2;
const int flags = AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW | AT_EXECVE_CHECK;
const struct open_how how = { 0, 0, RESOLVE_NO_XDEV | RESOLVE_NO_MAGICLINKS |
	RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH | RESOLVE_CACHED };
const int in_root = RESOLVE_IN_ROOT;
int (*const close_range_fn)(unsigned int, unsigned int, int) = close_range;
void (*const closefrom_fn)(int) = closefrom;
int (*const fchmodat_fn)(int, const char *, mode_t, int) = fchmodat;
int (*const lchmod_fn)(const char *, mode_t) = lchmod;
int (*const faccessat_fn)(int, const char *, int, int) = faccessat;
const unsigned int close_range_flags = CLOSE_RANGE_UNSHARE | CLOSE_RANGE_CLOEXEC;
pid_t (*const pidfd_getpid_fn)(int) = pidfd_getpid;
