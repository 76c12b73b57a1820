/*
 * pidfd_getpid(): the PIDFD_GET_INFO ioctl (Linux 6.13) first, its answer
 * taken from a pidfs file only; where the kernel has no such ioctl or a
 * policy refuses it, a proven fdinfo file (src/proc/pidfd_fdinfo.c); without
 * one, ENOSYS.
 *
 * glibc 2.39+ reads /proc/self/fdinfo/N on trust: without /proc a valid
 * pidfd gets EBADF, and under a fake /proc it returns any pid the fake
 * names.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/types.h>

#include "../answer.h"
#include "../call_refused.h"
#include "execveat.h"
#include "../exports.h"
#include "../proc/pidfd_fdinfo.h"
#include "../syscalls/files.h"
#include "../syscalls/process.h"

/*
 * The kernel's struct pidfd_info as Linux 6.13 published it
 * (PIDFD_INFO_SIZE_VER0): later kernels take this size and fill in what
 * it holds, 6.13 takes nothing else. Declared here because <linux/pidfd.h>
 * before 6.13, and musl, lack it.
 */
struct pidfd_info_v0 {
	uint64_t mask;
	uint64_t cgroupid;
	uint32_t pid, tgid, ppid;
	uint32_t ruid, rgid, euid, egid, suid, sgid, fsuid, fsgid;
	uint32_t spare0;
};
_Static_assert(sizeof(struct pidfd_info_v0) == 64,
	       "struct pidfd_info_v0 must be the kernel's 64-byte VER0");

/* Type 0xFF is pidfs's in the kernel's uapi headers (7.x); a FUSE or CUSE
 * file forwards any ioctl to its server, which may answer anything: an
 * answer counts only from a pidfs file. */
#define PIDFD_GET_INFO_V0 _IOWR(0xFF, 11, struct pidfd_info_v0)
#define PIDFD_INFO_PID 1U

/* fstatfs f_type: pidfs (Linux 6.9+), and the anonymous inodes that
 * pidfds were before it (<linux/magic.h>, which musl-gcc lacks). */
#define PIDFS_MAGIC_VALUE 0x50494446
#define ANON_INODE_FS_MAGIC_VALUE 0x09041934

/*
 * Whether this kernel's pidfds are pidfs files (Linux 6.9+), seen on a
 * pidfd of this process made for the question: then an anonymous inode
 * is not a pidfd. False too where no pidfd can be made to tell.
 */
static bool pidfds_are_pidfs(void)
{
	struct statfs sfs;
	int own = sys_pidfd_open(sys_getpid());
	bool pidfs;

	if (own < 0)
		return false;
	pidfs = sys_fstatfs(own, &sfs) == 0 && sfs.f_type == PIDFS_MAGIC_VALUE;
	sys_close(own);
	return pidfs;
}

/*
 * The ioctl's ESRCH, which the kernel has not always meant as "reaped":
 * before 2026's fixes (6.13 to 6.19 without their backports) it also
 * answered ESRCH for a process outside this pid namespace, and 6.13 for a
 * live one whose parent is outside it. Signal 0 tells them apart: EINVAL
 * outside (EREMOTE, as later kernels and the fdinfo say), ESRCH reaped;
 * a live process (0, or EPERM) is read from the fdinfo. 0 there, or
 * -errno.
 */
static int ioctl_esrch(int fd)
{
	int r = sys_pidfd_probe_signal(fd);

	if (r == 0 || r == -EPERM || r == -ENOSYS)
		return 0;
	return r == -EINVAL ? -EREMOTE : -ESRCH;
}

/*
 * Where the ioctl failed (its -errno, ioctl): the kernel's own answer
 * (EBADF; ESRCH for a reaped process, see ioctl_esrch; EREMOTE for one
 * outside this pid namespace) stands. A pidfd whose kernel has no
 * PIDFD_GET_INFO, or whose ioctl a policy refuses, is read from a proven
 * fdinfo: ENOTTY, EINVAL (6.11 and 6.12, whose pidfs has ioctls of its
 * own: measured on 6.12), ENOSYS, EPERM, EACCES (an LSM's ioctl list).
 * Any other file is not a pidfd, EBADF as from the kernel's pidfd calls
 * and glibc. An anonymous inode is a pidfd only on kernels before 6.9:
 * there the fdinfo tells. The pid, or -errno.
 */
static pid_t without_get_info(int fd, int ioctl)
{
	struct statfs sfs;
	long pid;
	int err = sys_fstatfs(fd, &sfs);

	if (err < 0)
		return err;
	if (sfs.f_type == PIDFS_MAGIC_VALUE) {
		err = ioctl == -ESRCH ? ioctl_esrch(fd) : ioctl;
		if (err != 0 && ioctl != -ENOTTY && ioctl != -EINVAL &&
		    ioctl != -EACCES && !may_be_refusal(ioctl))
			return err;
	} else if (sfs.f_type != ANON_INODE_FS_MAGIC_VALUE ||
		   pidfds_are_pidfs()) {
		return -EBADF;
	}
	switch (libexecveat_pidfd_fdinfo_pid(fd, &pid, &err)) {
	case PIDFD_FDINFO_PID:
		/* The kernel prints -1 for a reaped process, 0 for one this
		 * pid namespace cannot see. */
		return pid > 0 ? (pid_t)pid : pid == 0 ? -EREMOTE : -ESRCH;
	case PIDFD_FDINFO_NOT_PIDFD:
	case PIDFD_FDINFO_NOT_OPEN:
		return -EBADF;
	case PIDFD_FDINFO_UNREADABLE:
		if (err == -EMFILE || err == -ENFILE || err == -ENOMEM)
			return err;
		break;
	default:
		break;
	}
	/* No way left to ask: this kernel answers only through /proc. */
	return -ENOSYS;
}

/* The pid, or -errno. */
static pid_t pidfd_getpid_policy(int fd)
{
	struct pidfd_info_v0 info = { .mask = PIDFD_INFO_PID };
	struct statfs sfs;
	int r = sys_ioctl(fd, PIDFD_GET_INFO_V0, &info);

	if (r < 0)
		return without_get_info(fd, r);
	/* Answered by the kernel's pidfs, or by a FUSE server: not a pidfd. */
	if (sys_fstatfs(fd, &sfs) != 0 || sfs.f_type != PIDFS_MAGIC_VALUE)
		return -EBADF;
	/* PIDFD_INFO_PID is always answered; checked all the same, as a
	 * reaped process asked for PIDFD_INFO_EXIT answers pid 0 without it. */
	if ((info.mask & PIDFD_INFO_PID) == 0 || info.pid == 0 ||
	    info.pid > INT32_MAX)
		return -ESRCH;
	return (pid_t)info.pid;
}

__typeof__(pidfd_getpid) libexecveat_pidfd_getpid;

EXECVEAT_EXPORT pid_t libexecveat_pidfd_getpid(int fd)
{
	return answer(pidfd_getpid_policy(fd));
}

/* What -lexecveat binds to. */
__asm__(".symver libexecveat_pidfd_getpid, pidfd_getpid@@EXECVEAT_1.3");

#ifdef EXECVEAT_GLIBC_PIDFD_GETPID_NODE
/*
 * The same function under glibc's own version of it (GLIBC_2.39 on every
 * ABI), so that a preloaded library replaces glibc's in programs built
 * against glibc 2.39 or later. Older glibc has no such node; a program
 * there binds to nothing of it, and the library loads all the same.
 */
__asm__(".symver libexecveat_pidfd_getpid, pidfd_getpid@"
	EXECVEAT_GLIBC_PIDFD_GETPID_NODE);
#endif
