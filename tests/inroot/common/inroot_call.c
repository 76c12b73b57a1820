#define _GNU_SOURCE /* O_NOFOLLOW, O_DIRECTORY */
#include "inroot_call.h"

#include <fcntl.h>

#include "execveat.h" /* O_EMPTYPATH */

const char *inroot_op_name(enum inroot_op op)
{
	static const char *const names[] = {
		[OP_RESOLVE] = "resolve",
		[OP_RESOLVE_NOFOLLOW] = "resolve_nofollow",
		[OP_OPEN] = "open",
		[OP_CREAT] = "creat",
		[OP_MKDIR] = "mkdir",
		[OP_MKDIR_ALL] = "mkdir_all",
		[OP_MKNOD] = "mknod",
		[OP_SYMLINK] = "symlink",
		[OP_HARDLINK] = "hardlink",
		[OP_RENAME] = "rename",
		[OP_UNLINK] = "unlink",
		[OP_RMDIR] = "rmdir",
		[OP_REMOVE_ALL] = "remove_all",
		[OP_READLINK] = "readlink",
		[OP_REOPEN] = "reopen",
		[OP_STATX] = "statx",
		[OP_CHMOD] = "chmod",
		[OP_CHOWN] = "chown",
		[OP_UTIMENS] = "utimens",
		[OP_GETXATTR] = "getxattr",
		[OP_SETXATTR] = "setxattr",
		[OP_LISTXATTR] = "listxattr",
		[OP_REMOVEXATTR] = "removexattr",
		[OP_FSTATX] = "fstatx",
		[OP_FCHMOD] = "fchmod",
		[OP_FCHOWN] = "fchown",
		[OP_FUTIMENS] = "futimens",
		[OP_FSETXATTR] = "fsetxattr",
		[OP_MKNOD_CHECKED] = "mknod_checked",
		[OP_BIND] = "bind",
		[OP_MASK] = "mask",
		[OP_REMOUNT_RDONLY] = "remount_rdonly",
	};

	return names[op];
}

bool inroot_op_returns_fd(enum inroot_op op)
{
	return op == OP_RESOLVE || op == OP_RESOLVE_NOFOLLOW ||
	       op == OP_OPEN || op == OP_CREAT || op == OP_MKDIR_ALL ||
	       op == OP_REOPEN || op == OP_MKNOD_CHECKED;
}

bool inroot_same_fd_flags(enum inroot_op op, int kernel, int library)
{
	int ignored = op == OP_REOPEN ? O_NOFOLLOW | O_EMPTYPATH : 0;
	int extra = (library & ~ignored) & ~kernel;

	return ((kernel & ~ignored) & ~library) == 0 &&
	       (extra & ~(O_NOFOLLOW | O_DIRECTORY)) == 0;
}
