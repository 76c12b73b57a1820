/*
 * Which mount a file is on (mount_id.h): statx's mount id, else
 * name_to_handle_at's, else the device.
 */
#define _GNU_SOURCE /* AT_EMPTY_PATH */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>

#include "mount_id.h"
#include "../syscalls/files.h"

/*
 * Asked with no room for the handle, the kernel still writes the mount id
 * beside its EOVERFLOW. A file system that makes no handles (procfs)
 * answers EOPNOTSUPP first.
 */
bool libexecveat_mount_by_handle(int dirfd, const char *name, int at_flags,
				 struct mount_id *id)
{
	struct {
		unsigned int handle_bytes;
		int handle_type;
	} handle = { 0, 0 };
	int mnt_id = -1;
	int r = sys_name_to_handle_at(dirfd, name, &handle, &mnt_id,
				      at_flags & AT_EMPTY_PATH);

	if ((r == 0 || r == -EOVERFLOW) && mnt_id >= 0) {
		*id = (struct mount_id){ .value = (unsigned int)mnt_id };
		return true;
	}
	return false;
}

int libexecveat_mount_at(int dirfd, const char *name, int at_flags,
			 struct mount_id *id)
{
	int flags = AT_SYMLINK_NOFOLLOW | (at_flags & AT_EMPTY_PATH);
	struct sys_statx stx;
	struct stat st;
	int err;

	if (sys_statx(dirfd, name, flags, SYS_STATX_MNT_ID, &stx) == 0 &&
	    (stx.stx_mask & SYS_STATX_MNT_ID)) {
		*id = (struct mount_id){ .value = stx.stx_mnt_id };
		return 0;
	}
	if (libexecveat_mount_by_handle(dirfd, name, flags, id))
		return 0;
	err = sys_fstatat(dirfd, name, &st, flags);
	if (err < 0)
		return err;
	*id = (struct mount_id){ .by_device = true, .value = st.st_dev };
	return 0;
}

int libexecveat_mount_of(int fd, struct mount_id *id)
{
	return libexecveat_mount_at(fd, "", AT_EMPTY_PATH, id);
}

bool libexecveat_same_mount(const struct mount_id *a,
			    const struct mount_id *b)
{
	return a->by_device == b->by_device && a->value == b->value;
}
