/* An fd's entry in a proven /proc fd directory (proc_entry.h). */
#include <errno.h>

#include "proc_entry.h"
#include "../syscalls/files.h"

int libexecveat_proc_entry(int fd, const struct stat *st,
			   char name[FD_NAME_SIZE])
{
	enum proc_fd_dir_verdict verdict;
	int dir = libexecveat_proc_fd_dir_open(&verdict);

	if (dir < 0)
		return -EOPNOTSUPP;
	if (!libexecveat_proc_fd_names(dir, fd, st)) {
		sys_close(dir);
		return -EOPNOTSUPP;
	}
	libexecveat_fd_name(name, fd);
	return dir;
}
