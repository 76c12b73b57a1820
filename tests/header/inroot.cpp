// <inroot.h> in C++, after the C library's own headers: its functions
// have C linkage.
#include <fcntl.h>
#include <unistd.h>

#include "inroot.h"

extern int (*const mkdir_all_fn)(int, const char *, mode_t) =
	inroot_mkdir_all;
extern ssize_t (*const readlink_fn)(int, const char *, char *, size_t) =
	inroot_readlink;
extern "C" int (*const reopen_fn)(int, int) = inroot_reopen;
