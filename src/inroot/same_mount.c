/*
 * Whether two directories are on one mount, for inroot_remove_all, which
 * neither enters nor removes a mount point (emptying.h).
 *
 * Where statx has no mount id (before Linux 5.8, or refused by a
 * policy), name_to_handle_at's tells; only where that is refused too
 * does the device decide, which cannot tell a bind mount of the same
 * file system.
 */
#define _GNU_SOURCE /* AT_EMPTY_PATH */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>

#include "emptying.h"
#include "../sys.h"

/*
 * name_to_handle_at's mount id (Linux 2.6.39), where statx has none
 * (before 5.8, or refused by a policy that predates it): asked with no
 * room for the handle, the kernel still writes the mount id beside its
 * EOVERFLOW. A file system that makes no handles (procfs) answers
 * EOPNOTSUPP first, and then its device tells, which is its own.
 */
static bool handle_mount_id(int fd, uint64_t *mount)
{
	struct {
		unsigned int handle_bytes;
		int handle_type;
	} handle = { 0, 0 };
	int mnt_id = -1;
	int r = sys_name_to_handle_at(fd, "", &handle, &mnt_id, AT_EMPTY_PATH);

	if ((r == 0 || r == -EOVERFLOW) && mnt_id >= 0) {
		*mount = (uint64_t)(unsigned int)mnt_id;
		return true;
	}
	return false;
}

/* What tells the mount a file is on, and its value. */
struct mount_key {
	enum { BY_STATX, BY_HANDLE, BY_DEVICE } by;
	uint64_t value;
};

/* The mount a file is on: statx's mount id, or name_to_handle_at's, or
 * else its device. Two keys of different kinds are different mounts: a
 * mount id and a device number are never compared. */
static int mount_of(int fd, struct mount_key *key)
{
	struct sys_statx stx;
	struct stat st;
	int err;

	if (sys_statx(fd, "", AT_EMPTY_PATH, SYS_STATX_MNT_ID, &stx) == 0 &&
	    (stx.stx_mask & SYS_STATX_MNT_ID)) {
		key->by = BY_STATX;
		key->value = stx.stx_mnt_id;
		return 0;
	}
	key->by = BY_HANDLE;
	if (handle_mount_id(fd, &key->value))
		return 0;
	err = sys_fstat(fd, &st);
	if (err < 0)
		return err;
	key->by = BY_DEVICE;
	key->value = (uint64_t)st.st_dev;
	return 0;
}

int libexecveat_same_mount(int a, int b)
{
	struct mount_key ka, kb;
	int err = mount_of(a, &ka);

	if (err == 0)
		err = mount_of(b, &kb);
	return err != 0 ? err : ka.by == kb.by && ka.value == kb.value;
}
