/*
 * libexecveat 2.0: file operations beneath a root.
 *
 * Each function takes a root, an open directory fd (or AT_FDCWD), and a
 * path that is resolved inside it as openat2's RESOLVE_IN_ROOT resolves
 * it: ".." at the root stays at the root, an absolute symlink starts
 * again at the root, and (RESOLVE_NO_MAGICLINKS) a procfs magic link is
 * refused with ELOOP. A path is never resolved outside the root, by
 * these functions or by a rename made while they run.
 *
 * Every component but the last is walked by the kernel's openat2 where
 * it answers, and by the library's own walk, which needs no /proc, where
 * the system call is refused (ENOSYS, or EPERM from a seccomp policy).
 * The operation then acts on the last name with one *at system call on
 * the directory the walk holds, in which the kernel looks up that one
 * name only. Operations that create or remove a name never follow it if
 * it is a symlink, as their *at calls do not.
 *
 * Each returns a new fd, 0, or a length; on failure -1 with errno set to
 * what the kernel's own call answers inside a chroot to root (see
 * inroot(7) for the few documented differences), or EAGAIN where a
 * rename inside the root moved a directory of the path while it was
 * walked (asking again is safe; a rename elsewhere on the machine, which
 * makes the kernel's openat2 say EAGAIN, is walked again by the library
 * instead). Every fd they return is close-on-exec, whatever the flags
 * say, as libpathrs's are: a caller who wants one inherited clears
 * FD_CLOEXEC (fcntl F_SETFD). The names and arguments follow libpathrs's
 * C API (pathrs_inroot_*), so that a program can move between the two.
 *
 * Link with -lexecveat (pkg-config: execveat). These are new functions,
 * not the C library's: preloading the library adds nothing here.
 */
#ifndef EXECVEAT_INROOT_H
#define EXECVEAT_INROOT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An O_PATH fd of path's file, its last symlink followed (resolve) or
 * not (resolve_nofollow). */
int inroot_resolve(int root, const char *path);
int inroot_resolve_nofollow(int root, const char *path);

/*
 * open(2) of path with flags, taken as open(2) takes them: a bit it does
 * not know is dropped, and beside O_PATH only O_DIRECTORY and O_NOFOLLOW
 * count. O_CREAT and O_TMPFILE (that O_PATH does not drop) need creat:
 * EINVAL. O_CLOEXEC and O_NOCTTY are added, as libpathrs adds them.
 */
int inroot_open(int root, const char *path, int flags);

/* open(2) with O_CREAT added, flags and mode taken as open(2) takes
 * them (the mode's permission bits only): like the kernel, a last
 * symlink without O_NOFOLLOW is followed, and a dangling one creates its
 * target inside the root. */
int inroot_creat(int root, const char *path, int flags, mode_t mode);

/* mkdirat(2) of the last name. */
int inroot_mkdir(int root, const char *path, mode_t mode);

/*
 * Every missing directory of path, each made with mode as mkdirat(2)
 * makes it; returns an O_PATH|O_DIRECTORY fd of the last. A component
 * that exists must be a directory, or a symlink that leads (inside the
 * root) to one; one that another process makes meanwhile is taken as
 * found. ENOTDIR where a component is another file; EEXIST where it is
 * a symlink that leads nowhere (mkdirat's answer for its name).
 */
int inroot_mkdir_all(int root, const char *path, mode_t mode);

/* mknodat(2), symlinkat(2): path is the new name; target is the text of
 * the new link, stored as it is and never resolved here. */
int inroot_mknod(int root, const char *path, mode_t mode, dev_t dev);
int inroot_symlink(int root, const char *path, const char *target);

/* linkat(2) without AT_SYMLINK_FOLLOW: path, the new name, is a link of
 * target, the existing one; both are resolved beneath root. */
int inroot_hardlink(int root, const char *path, const char *target);

/* renameat2(2) with its flags (RENAME_NOREPLACE, RENAME_EXCHANGE,
 * RENAME_WHITEOUT); both names beneath root. */
int inroot_rename(int root, const char *src, const char *dst,
		  unsigned int flags);

/* unlinkat(2) of a file that is not a directory, and of a directory. */
int inroot_unlink(int root, const char *path);
int inroot_rmdir(int root, const char *path);

/*
 * path and, if it is a directory, everything beneath it; a symlink is
 * removed, never followed. 0 also where path does not exist. A mount
 * point is neither entered nor removed: it stays, with the directories
 * above it, every other entry of the tree is removed, and the answer is
 * EBUSY, as rm -rf's is. Entries added while it runs are removed too:
 * a directory, at any depth, is emptied at most twice, then ENOTEMPTY
 * where they keep coming. Any depth of tree, without recursion.
 */
int inroot_remove_all(int root, const char *path);

/*
 * readlinkat(2) of the last name, not followed. Copies at most size
 * bytes of the link's text, without a NUL, and returns the text's whole
 * length, which is more than size where the text did not fit.
 */
ssize_t inroot_readlink(int root, const char *path, char *buf, size_t size);

/*
 * A new fd of fd's file (fd often an O_PATH fd from inroot_resolve),
 * opened with flags as open(2) opens it (and takes them, as
 * inroot_open); never by a name that could now lead elsewhere: through
 * the file itself where the kernel can (Linux 7.2's O_EMPTYPATH; a
 * directory's "."), else through /proc/self/fd once that is proven to be
 * procfs naming the same file. EOPNOTSUPP where neither is there; what
 * the open refuses without being made (ENOTDIR, a directory's EISDIR,
 * and EACCES for one the caller may search but not open) is refused
 * alike in every way. O_CREAT, O_EXCL and O_TMPFILE (that O_PATH does
 * not drop) get EINVAL.
 */
int inroot_reopen(int fd, int flags);

#ifdef __cplusplus
}
#endif

#endif /* EXECVEAT_INROOT_H */
