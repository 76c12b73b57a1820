/*
 * The file a path leads to inside a root, held as a directory and one
 * name in it that is not a symlink to follow: the *at calls of the
 * metadata operations (statx, fchownat, utimensat, fchmodat2, the
 * *xattrat calls) then look up that one name with AT_SYMLINK_NOFOLLOW,
 * and no rename elsewhere can take them outside the root.
 */
#ifndef EXECVEAT_INROOT_HELD_FILE_H
#define EXECVEAT_INROOT_HELD_FILE_H

#include <stdbool.h>

#include "held_parent.h"

/*
 * 0 with p->fd a directory held and p->name a name in it (a last ".",
 * "..", "/" or a trailing slash: the directory reached, and "."); with
 * follow, a last symlink is followed inside the root, as often as the
 * kernel would (40), so that p->name is no link when this returns. Or
 * -errno: the path's (hold_parent's), the following's (the answer of
 * the kernel's lookup inside the root: ENOENT for a dangling link,
 * ELOOP...), or EAGAIN where a rename changed what the path leads to
 * while the links were followed. On 0, release_parent lets go.
 */
int libexecveat_hold_file(int root, const char *path, bool follow,
			  struct held_parent *p);

/* hold_file for a path form whose flags may hold AT_SYMLINK_NOFOLLOW
 * and nothing else (EINVAL): follow unless they hold it. */
int libexecveat_hold_file_flags(int root, const char *path, int flags,
				struct held_parent *p);

#endif /* EXECVEAT_INROOT_HELD_FILE_H */
