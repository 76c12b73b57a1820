// The public header in C++ (g++ defines _GNU_SOURCE, so glibc declares
// execveat, and from 2.43 openat2, too): it must compile beside those
// declarations, whose exception specifications it must repeat.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __has_include
#if __has_include(<sys/pidfd.h>)
#include <sys/pidfd.h> // pidfd_getpid since glibc 2.39
#endif
#endif

#include "execveat.h"

// extern: a namespace-scope const is internal in C++, and clang warns
// about an unused one.
extern int (*const execveat_fn)(int, const char *, char *const[],
				char *const[], int) = execveat;
extern int (*const fexecve_fn)(int, char *const[], char *const[]) = fexecve;
extern int (*const openat2_fn)(int, const char *, const struct open_how *,
			       size_t) = openat2;
extern const int flags = AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW | AT_EXECVE_CHECK;
extern const struct open_how how = { O_RDONLY, 0, RESOLVE_BENEATH };
extern int (*const close_range_fn)(unsigned int, unsigned int, int) =
	close_range;
extern void (*const closefrom_fn)(int) = closefrom;
extern int (*const fchmodat_fn)(int, const char *, mode_t, int) = fchmodat;
extern int (*const lchmod_fn)(const char *, mode_t) = lchmod;
// glibc 2.39+ declares pidfd_getpid with C++ linkage (no extern "C" in
// <sys/pidfd.h>): the header leaves it to glibc there; elsewhere it is
// the header's.
#if !defined(__GLIBC__) || \
	!(__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 39))
extern pid_t (*const pidfd_getpid_fn)(int) = pidfd_getpid;
#endif
extern int (*const faccessat_fn)(int, const char *, int, int) = faccessat;
