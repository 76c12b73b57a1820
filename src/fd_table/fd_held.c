/*
 * The fd table searched for one file, one number at a time (fd_held.h).
 */
#define _GNU_SOURCE /* O_PATH */
#include <fcntl.h>

#include "fd_held.h"
#include "fd_range.h"
#include "../path/same_file.h"
#include "../syscalls/fds.h"
#include "../syscalls/files.h"

#ifndef O_PATH
#define O_PATH 010000000 /* <asm-generic/fcntl.h>; the same on our ABIs */
#endif

bool libexecveat_fd_flags_read(int flags)
{
	return !(flags & O_PATH) &&
	       ((flags & O_ACCMODE) == O_RDONLY || (flags & O_ACCMODE) == O_RDWR);
}

bool libexecveat_fd_flags_write(int flags)
{
	return !(flags & O_PATH) &&
	       ((flags & O_ACCMODE) == O_WRONLY || (flags & O_ACCMODE) == O_RDWR);
}

struct fd_holders libexecveat_fd_holders(const struct stat *st)
{
	struct fd_holders holders = { -1, false, -1 };
	unsigned int end = libexecveat_fd_scan_end();
	struct stat other;
	int flags;

	for (unsigned int fd = 0; fd < end; fd++) {
		if (sys_fstat((int)fd, &other) != 0 ||
		    !libexecveat_same_file(&other, st))
			continue;
		flags = sys_fcntl_getfl((int)fd);
		if (flags < 0 || libexecveat_fd_flags_write(flags))
			holders.writing = true;
		if (flags >= 0 && libexecveat_fd_flags_read(flags) &&
		    holders.reading == -1)
			holders.reading = (int)fd;
		if (flags >= 0 && (libexecveat_fd_flags_read(flags) ||
				   libexecveat_fd_flags_write(flags)) &&
		    holders.open == -1)
			holders.open = (int)fd;
	}
	return holders;
}
