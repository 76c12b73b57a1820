/* The public header agrees with glibc's own declarations (visible with
 * _GNU_SOURCE: execveat, closefrom and close_range since 2.34, fchmodat
 * and lchmod in <sys/stat.h>, faccessat in <unistd.h>, openat2 and
 * struct open_how since 2.43, pidfd_getpid in <sys/pidfd.h> since 2.39)
 * and with the kernel's <linux/openat2.h> and <linux/close_range.h>,
 * whichever comes first. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/close_range.h>
#ifdef __has_include
#if __has_include(<sys/pidfd.h>)
#include <sys/pidfd.h> /* pidfd_getpid since glibc 2.39 */
#endif
#endif
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
int (*const close_range_fn)(unsigned int, unsigned int, int) = close_range;
void (*const closefrom_fn)(int) = closefrom;
int (*const fchmodat_fn)(int, const char *, mode_t, int) = fchmodat;
int (*const lchmod_fn)(const char *, mode_t) = lchmod;
pid_t (*const pidfd_getpid_fn)(int) = pidfd_getpid;
int (*const faccessat_fn)(int, const char *, int, int) = faccessat;
