/*
 * Which mount a file is on: RESOLVE_NO_XDEV's question in openat2's walk,
 * inroot_remove_all's (which neither enters nor removes a mount point),
 * the mounts' beneath a root (whether a mount landed on the target held),
 * and the /proc proofs' (nothing bound over a part of /proc).
 *
 * The mount id tells: statx's (STATX_MNT_ID, Linux 5.8) or, where statx
 * gives none (before 5.8, or refused by a policy that predates it),
 * name_to_handle_at's (Linux 2.6.39), the same number (mountinfo's first
 * field). Only where both are refused, or the file system makes no
 * handles (procfs), does the device tell, which cannot tell a bind mount
 * of the same file system apart.
 */
#ifndef EXECVEAT_MOUNT_ID_H
#define EXECVEAT_MOUNT_ID_H

#include <stdbool.h>
#include <stdint.h>

struct mount_id {
	bool by_device; /* value is the file's device, not a mount id */
	uint64_t value;
};

/*
 * name_to_handle_at's mount id of name in dirfd (with AT_EMPTY_PATH and
 * "": of dirfd's own file), never followed, for where statx gave none:
 * whether it told. Where it did not, the device tells.
 */
bool libexecveat_mount_by_handle(int dirfd, const char *name, int at_flags,
				 struct mount_id *id);

/*
 * The mount of name in dirfd, never followed, crossing onto what is
 * mounted there (with AT_EMPTY_PATH in at_flags and "": of dirfd's own
 * file): 0, or -errno where nothing tells.
 */
int libexecveat_mount_at(int dirfd, const char *name, int at_flags,
			 struct mount_id *id);

/* The mount of the file of fd: 0, or -errno where nothing tells. */
int libexecveat_mount_of(int fd, struct mount_id *id);

/* Whether a and b are one mount. A mount id and a device are never
 * compared: two ids of different kinds are different mounts. */
bool libexecveat_same_mount(const struct mount_id *a,
			    const struct mount_id *b);

#endif /* EXECVEAT_MOUNT_ID_H */
