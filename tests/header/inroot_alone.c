/* <inroot.h> compiles on its own, first, in strict ISO C, and declares
 * each function with the types of its contract. */
#include "inroot.h"

int (*const resolve_fn)(int, const char *) = inroot_resolve;
int (*const resolve_nofollow_fn)(int, const char *) = inroot_resolve_nofollow;
int (*const open_fn)(int, const char *, int) = inroot_open;
int (*const creat_fn)(int, const char *, int, mode_t) = inroot_creat;
int (*const mkdir_fn)(int, const char *, mode_t) = inroot_mkdir;
int (*const mkdir_all_fn)(int, const char *, mode_t) = inroot_mkdir_all;
int (*const mknod_fn)(int, const char *, mode_t, dev_t) = inroot_mknod;
int (*const symlink_fn)(int, const char *, const char *) = inroot_symlink;
int (*const hardlink_fn)(int, const char *, const char *) = inroot_hardlink;
int (*const rename_fn)(int, const char *, const char *, unsigned int) =
	inroot_rename;
int (*const unlink_fn)(int, const char *) = inroot_unlink;
int (*const rmdir_fn)(int, const char *) = inroot_rmdir;
int (*const remove_all_fn)(int, const char *) = inroot_remove_all;
ssize_t (*const readlink_fn)(int, const char *, char *, size_t) =
	inroot_readlink;
int (*const reopen_fn)(int, int) = inroot_reopen;
