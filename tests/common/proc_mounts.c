#define _GNU_SOURCE
#include "proc_mounts.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * A mount namespace whose mounts never propagate back to the real /proc.
 * Making / private covers everything; in a chroot, / is not a mount point
 * (EINVAL), but every mount the tests make sits on the /proc mount, and
 * a mount's propagation follows the mount it is attached to.
 */
static int private_mount_namespace(void)
{
	if (unshare(CLONE_NEWNS) != 0)
		return errno;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0)
		return 0;
	if (errno == EINVAL &&
	    mount(NULL, "/proc", NULL, MS_REC | MS_PRIVATE, NULL) == 0)
		return 0;
	return errno;
}

int hide_proc(void)
{
	int err = private_mount_namespace();

	if (err == 0 && mount("none", "/proc", "tmpfs", 0, NULL) != 0)
		err = errno;
	return err;
}

int fake_proc(int fd, const char *target)
{
	char link[64];
	int err = hide_proc();

	if (err != 0)
		return err;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	if (mkdir("/proc/self", 0755) != 0 || mkdir("/proc/self/fd", 0755) != 0 ||
	    symlink(target, link) != 0)
		return errno;
	return 0;
}

int borrow_proc_fd_dir(pid_t owner)
{
	char theirs[64], ours[64];
	int err = private_mount_namespace();

	snprintf(theirs, sizeof(theirs), "/proc/%d/fd", (int)owner);
	snprintf(ours, sizeof(ours), "/proc/%d/fd", (int)getpid());
	if (err == 0 && mount(theirs, ours, NULL, MS_BIND, NULL) != 0)
		err = errno;
	return err;
}
