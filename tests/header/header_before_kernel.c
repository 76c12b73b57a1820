/* The public header first, then the kernel's <linux/openat2.h> and glibc's
 * <fcntl.h> (with _GNU_SOURCE: glibc 2.43 declares openat2 there): no
 * second struct open_how, no disagreeing declaration. */
#define _GNU_SOURCE
#include "execveat.h"

#ifdef __has_include
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#endif
#endif
#include <fcntl.h>
#include <linux/close_range.h>
#ifdef __has_include
#if __has_include(<sys/pidfd.h>)
#include <sys/pidfd.h> /* pidfd_getpid since glibc 2.39 */
#endif
#endif

#include <sys/stat.h>
#include <unistd.h>

int (*const openat2_fn)(int, const char *, const struct open_how *,
			size_t) = openat2;
const struct open_how how = { O_RDONLY, 0, RESOLVE_IN_ROOT };
int (*const close_range_fn)(unsigned int, unsigned int, int) = close_range;
int (*const lchmod_fn)(const char *, mode_t) = lchmod;
pid_t (*const pidfd_getpid_fn)(int) = pidfd_getpid;
const unsigned int flags = CLOSE_RANGE_CLOEXEC;
