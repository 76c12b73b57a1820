#include "peer_cases.h"

const char *peer_op_name(enum peer_op op)
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
	};

	return names[op];
}
