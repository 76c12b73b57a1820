/*
 * close_range's fallback where /proc is there: the proven fd directory
 * (proc_fd_dir.c), read once from start to end with getdents64.
 *
 * glibc's closefrom rewinds its listing after each close, so a fake
 * /proc that lists an fd which is not open makes it loop for ever. Here
 * nothing is read that is not proven procfs and this thread's table, and
 * the directory is read forward only: procfs keeps its position as an fd
 * number, so closing the fds already listed moves nothing.
 */
#include <stddef.h>
#include <stdint.h>

#include "fd_range.h"
#include "../proc/proc_fd_dir.h"
#include "../syscalls/files.h"

/* A listing's name as an fd number; -1 for ".", ".." or anything else. */
static long fd_number(const char *name)
{
	long fd = 0;

	if (*name == '\0')
		return -1;
	for (; *name != '\0'; name++) {
		if (*name < '0' || *name > '9' || fd > INT32_MAX / 10)
			return -1;
		fd = fd * 10 + (*name - '0');
	}
	return fd;
}

/* Acts on the fds of one buffer of entries, but never on dir itself. */
static void act_on_entries(const unsigned char *buf, long size, int dir,
			   unsigned int first, unsigned int last, bool cloexec)
{
	for (long at = 0; at < size;) {
		const struct dirent64_head *entry =
			(const struct dirent64_head *)(const void *)(buf + at);
		long fd = fd_number(entry->name);

		if (fd >= 0 && fd != dir && (unsigned long)fd >= first &&
		    (unsigned long)fd <= last)
			fd_range_act((int)fd, cloexec);
		at += entry->reclen;
	}
}

int libexecveat_fd_range_by_listing(unsigned int first, unsigned int last,
				    bool cloexec)
{
	enum proc_fd_dir_verdict verdict;
	/* About 80 entries a read; aligned as the kernel aligns them. */
	unsigned char buf[2048] __attribute__((aligned(8)));
	int dir = libexecveat_proc_fd_dir_open(&verdict);
	long size;

	if (dir < 0)
		return dir;
	while ((size = sys_getdents64(dir, buf, sizeof(buf))) > 0)
		act_on_entries(buf, size, dir, first, last, cloexec);
	sys_close(dir);
	return (int)size;
}
