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

/*
 * libexecveat 2.1: a file's metadata beneath a root and through an fd,
 * mounts onto targets held inside a root, device nodes checked; none of
 * them needs /proc where the kernel has the calls each names.
 *
 * The path forms take flags as the *at calls do: AT_SYMLINK_NOFOLLOW
 * acts on a last symlink itself; without it a last symlink is followed
 * inside the root. Any other flag: EINVAL. The fd forms act on the file
 * an fd holds, an O_PATH fd too (inroot_resolve's): never by a name
 * that could now lead elsewhere, and never by opening the file (but a
 * directory, for its attributes before Linux 6.13); where no such way is
 * left, EOPNOTSUPP (inroot_statx(3) lists them).
 */

struct statx; /* <sys/stat.h> with _GNU_SOURCE (glibc 2.28), or
	       * <linux/stat.h> */
struct timespec;

/* statx(2). flags: AT_SYMLINK_NOFOLLOW, AT_NO_AUTOMOUNT and the
 * AT_STATX_ sync flags (fstatx: the sync flags only). Where statx is
 * refused, fstatat's fields, stx_mask STATX_BASIC_STATS. */
int inroot_statx(int root, const char *path, int flags, unsigned int mask,
		 struct statx *buf);
int inroot_fstatx(int fd, int flags, unsigned int mask, struct statx *buf);

/* fchmodat(2): a symlink's own mode is EOPNOTSUPP, as from fchmodat2.
 * The file is never opened: a regular file's mode needs fchmodat2 (Linux
 * 6.6) or a proven /proc, else EOPNOTSUPP. */
int inroot_chmod(int root, const char *path, mode_t mode, int flags);
int inroot_fchmod(int fd, mode_t mode);

/* fchownat(2); with AT_SYMLINK_NOFOLLOW (or an O_PATH fd of a link),
 * the link's own owner: lchown. (uid_t)-1 and (gid_t)-1 keep one. */
int inroot_chown(int root, const char *path, uid_t uid, gid_t gid,
		 int flags);
int inroot_fchown(int fd, uid_t uid, gid_t gid);

/* utimensat(2): times, NULL or two of them (atime, mtime); NULL is
 * now; UTIME_NOW and UTIME_OMIT as there. */
int inroot_utimens(int root, const char *path,
		   const struct timespec *times, int flags);
int inroot_futimens(int fd, const struct timespec *times);

/* getxattr(2), setxattr(2) (set_flags: XATTR_CREATE, XATTR_REPLACE),
 * listxattr(2), removexattr(2); AT_SYMLINK_NOFOLLOW makes them the l*
 * calls. A file other than a directory is never opened: its attributes
 * need the *xattrat calls (Linux 6.13) and, through an O_PATH fd, a
 * proven /proc too (or an fd of it this process holds open to read),
 * else EOPNOTSUPP. */
ssize_t inroot_getxattr(int root, const char *path, const char *name,
			void *value, size_t size, int flags);
int inroot_setxattr(int root, const char *path, const char *name,
		    const void *value, size_t size, int set_flags, int flags);
ssize_t inroot_listxattr(int root, const char *path, char *list,
			 size_t size, int flags);
int inroot_removexattr(int root, const char *path, const char *name,
		       int flags);
ssize_t inroot_fgetxattr(int fd, const char *name, void *value,
			 size_t size);
int inroot_fsetxattr(int fd, const char *name, const void *value,
		     size_t size, int set_flags);
ssize_t inroot_flistxattr(int fd, char *list, size_t size);
int inroot_fremovexattr(int fd, const char *name);

/*
 * inroot_mknod, then the new name opened O_PATH|O_NOFOLLOW in the
 * directory it was made in (held from the one walk) and checked to be a
 * node of mode's type (and, for a device, of dev): that fd
 * (close-on-exec), or -1 with EAGAIN where the name came to hold another
 * file between the two calls.
 */
int inroot_mknod_checked(int root, const char *path, mode_t mode,
			 dev_t dev);

/* The mounts' flags. */
#define INROOT_MOUNT_RECURSIVE 0x1U /* every mount beneath, as well */
#define INROOT_MOUNT_RDONLY 0x2U    /* bind: the new mount read-only */

/*
 * A bind mount of source (open_tree(2)'s source_dir and source: ""
 * names source_dir itself, an O_PATH fd from inroot_resolve for one) onto
 * target, resolved beneath root (a last link followed inside it; the
 * last component must be a name: EINVAL for ".", ".." or the root).
 * Proven after to have landed on the target held: else EAGAIN (see
 * inroot(3) for what stays mounted then).
 */
int inroot_bind(int source_dir, const char *source, int root,
		const char *target, unsigned int flags);

/* The mount at path read-only (INROOT_MOUNT_RECURSIVE: and every mount
 * beneath); EINVAL where nothing is mounted there. */
int inroot_remount_rdonly(int root, const char *path, unsigned int flags);

/* path hidden: an empty read-only tmpfs over a directory, the
 * machine's /dev/null (checked to be it) bound read-only over anything
 * else. */
int inroot_mask(int root, const char *path);

#ifdef __cplusplus
}
#endif

#endif /* EXECVEAT_INROOT_H */
