/*
 * One operation of include/inroot.h with its arguments, as the tests ask
 * it of both sides: the library beneath a root fd (library_side.h) and
 * the kernel's own call in a process chrooted to the same tree
 * (kernel_side.h). Plain C, the C library and system calls only: every C
 * library and ABI builds it, and tests/kernels/build-programs links it by
 * hand.
 */
#ifndef TESTS_INROOT_CALL_H
#define TESTS_INROOT_CALL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

enum inroot_op {
	OP_RESOLVE,          /* inroot_resolve; open(O_PATH) */
	OP_RESOLVE_NOFOLLOW, /* inroot_resolve_nofollow; O_PATH|O_NOFOLLOW */
	OP_OPEN,             /* inroot_open; open(flags) */
	OP_CREAT,            /* inroot_creat; open(flags|O_CREAT, mode) */
	OP_MKDIR,            /* inroot_mkdir; mkdir */
	OP_MKDIR_ALL,        /* inroot_mkdir_all; mkdir -p, mkdir by mkdir */
	OP_MKNOD,            /* inroot_mknod; mknod(mode, dev) */
	OP_SYMLINK,          /* inroot_symlink; symlink(other, path) */
	OP_HARDLINK,         /* inroot_hardlink; link(other, path) */
	OP_RENAME,           /* inroot_rename; renameat2(path, other, flags) */
	OP_UNLINK,           /* inroot_unlink; unlink */
	OP_RMDIR,            /* inroot_rmdir; rmdir */
	OP_REMOVE_ALL,       /* inroot_remove_all; rm -rf by kernel calls */
	OP_READLINK,         /* inroot_readlink; readlink */
	OP_REOPEN,           /* inroot_reopen(inroot_resolve); open(flags) */
	/* 2.1's, asked through metadata_sides.h; flags AT_SYMLINK_NOFOLLOW
	 * or 0, other an attribute's name or a bind's source. */
	OP_STATX,            /* inroot_statx; statx */
	OP_CHMOD,            /* inroot_chmod; fchmodat2 */
	OP_CHOWN,            /* inroot_chown; fchownat */
	OP_UTIMENS,          /* inroot_utimens; utimensat */
	OP_GETXATTR,         /* inroot_getxattr; (l)getxattr */
	OP_SETXATTR,         /* inroot_setxattr; (l)setxattr */
	OP_LISTXATTR,        /* inroot_listxattr; (l)listxattr */
	OP_REMOVEXATTR,      /* inroot_removexattr; (l)removexattr */
	OP_FSTATX,           /* inroot_fstatx(inroot_resolve); statx */
	OP_FCHMOD,           /* inroot_fchmod(inroot_resolve); chmod */
	OP_FCHOWN,           /* inroot_fchown(inroot_resolve); chown */
	OP_FUTIMENS,         /* inroot_futimens(inroot_resolve); utimensat */
	OP_FSETXATTR,        /* inroot_fsetxattr(inroot_resolve); setxattr */
	OP_MKNOD_CHECKED,    /* inroot_mknod_checked; mknod, open O_PATH */
	OP_BIND,             /* inroot_bind of other; mount(MS_BIND) */
	OP_MASK,             /* inroot_mask; a tmpfs or /dev/null mounted */
	OP_REMOUNT_RDONLY,   /* inroot_remount_rdonly; mount(MS_REMOUNT) */
};

/* Whether op is one of 2.1's (metadata_sides.h asks those). */
#define INROOT_OP_2_1(op) ((op) >= OP_STATX)

struct inroot_call {
	enum inroot_op op;
	/* The arguments in the header's order: path (rename's source),
	 * then symlink's text, hardlink's existing name, rename's new one. */
	const char *path, *other;
	int flags;   /* open's, creat's and reopen's; or renameat2's */
	mode_t mode; /* creat's, mkdir's, mkdir_all's; mknod's type too */
	dev_t dev;   /* mknod's */
	char *buf;   /* readlink's, size bytes */
	size_t size;
};

/* "resolve", "mkdir_all", ... */
const char *inroot_op_name(enum inroot_op op);

/* Whether the op answers with an fd (or -1). */
bool inroot_op_returns_fd(enum inroot_op op);

/*
 * Whether the F_GETFL flags of the library's fd agree with those of the
 * kernel's for op: every flag of the kernel's is there (O_LARGEFILE too,
 * which a 32-bit program on a 64-bit kernel gets from either), and
 * beyond them only what openat2(3)'s NOTES and inroot(3) document: an
 * O_NOFOLLOW the walk opened with, O_DIRECTORY. A reopen follows
 * nothing, and drops O_NOFOLLOW where it opens through /proc: not
 * compared there, nor Linux 7.2's O_EMPTYPATH, which a reopen through it
 * keeps (inroot(3)).
 */
bool inroot_same_fd_flags(enum inroot_op op, int kernel, int library);

#endif /* TESTS_INROOT_CALL_H */
