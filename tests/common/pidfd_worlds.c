#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pidfd_worlds.h"
#include "proc_mounts.h"
#include "refuse_call.h"

/* The kernel's 64-byte struct pidfd_info, as Linux 6.13 published it. */
struct info_v0 {
	uint64_t mask, cgroupid;
	uint32_t pid, rest[11];
};
#define GET_INFO _IOWR(0xFF, 11, struct info_v0)

int refuse_pidfd_get_info(int err)
{
	struct refused_call c = { .nr = SYS_ioctl, .err = err, .arg = 1,
				  .mask = 0xffffffffu,
				  .value = (uint32_t)GET_INFO };

	return refuse_calls(&c, 1);
}

long raw_pidfd_get_info(int fd)
{
	struct info_v0 info = { .mask = 1 /* PIDFD_INFO_PID */ };

	if (ioctl(fd, GET_INFO, &info) != 0)
		return -1;
	return (long)info.pid;
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0644);
	ssize_t n = fd < 0 ? -1 : write(fd, text, strlen(text));
	int err = n == (ssize_t)strlen(text) ? 0 : errno ? errno : EIO;

	if (fd >= 0)
		close(fd);
	return err;
}

static int make_dirs(long pid, long tid)
{
	char path[96];

	snprintf(path, sizeof(path), "/proc/%ld", pid);
	if (mkdir(path, 0755) != 0)
		return errno;
	snprintf(path, sizeof(path), "/proc/%ld/task", pid);
	if (mkdir(path, 0755) != 0)
		return errno;
	snprintf(path, sizeof(path), "/proc/%ld/task/%ld", pid, tid);
	if (mkdir(path, 0755) != 0)
		return errno;
	snprintf(path, sizeof(path), "/proc/%ld/task/%ld/fdinfo", pid, tid);
	if (mkdir(path, 0755) != 0)
		return errno;
	snprintf(path, sizeof(path), "/proc/%ld/fdinfo", pid);
	return mkdir(path, 0755) == 0 ? 0 : errno;
}

int fake_proc_naming_decoy(int fd)
{
	char path[96], text[160];
	struct stat st;
	long pid = getpid(), tid = syscall(SYS_gettid);
	int err = hide_proc();

	if (err != 0)
		return err;
	if (fstat(fd, &st) != 0)
		st.st_ino = 1; /* a closed fd: any inode */
	snprintf(path, sizeof(path), "%ld", pid);
	if (symlink(path, "/proc/self") != 0)
		return errno;
	if ((err = make_dirs(pid, tid)) != 0)
		return err;
	snprintf(path, sizeof(path), "/proc/%ld/status", pid);
	snprintf(text, sizeof(text), "Name:\tx\nPid:\t%ld\nNSpid:\t%ld\n",
		 pid, pid);
	if ((err = write_file(path, text)) != 0)
		return err;
	snprintf(text, sizeof(text),
		 "pos:\t0\nflags:\t02000002\nino:\t%llu\nPid:\t%d\nNSpid:\t%d\n",
		 (unsigned long long)st.st_ino, PIDFD_DECOY, PIDFD_DECOY);
	/* The process's fdinfo (what glibc reads) and the thread's. */
	snprintf(path, sizeof(path), "/proc/%ld/fdinfo/%d", pid, fd);
	if ((err = write_file(path, text)) != 0)
		return err;
	snprintf(path, sizeof(path), "/proc/%ld/task/%ld/fdinfo/%d", pid, tid,
		 fd);
	return write_file(path, text);
}
