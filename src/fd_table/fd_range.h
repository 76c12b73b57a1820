/*
 * close_range's two fallbacks, for where the system call is refused: each
 * closes every open fd in [first, last], or with cloexec marks it
 * close-on-exec instead. Neither allocates, locks or uses stdio.
 */
#ifndef EXECVEAT_FD_RANGE_H
#define EXECVEAT_FD_RANGE_H

#include <stdbool.h>

#include "../syscalls/fds.h"
#include "../syscalls/files.h"

/* What close_range does to one fd: close it, or mark it close-on-exec.
 * A number that is not open answers EBADF, which nothing needs. */
static inline void fd_range_act(int fd, bool cloexec)
{
	if (cloexec)
		sys_fcntl_setfd(fd, FD_CLOEXEC);
	else
		sys_close(fd);
}

/*
 * Through this thread's fd directory, once proven (proc_fd_dir.h): the
 * kernel's own list of what is open, O_PATH fds included. Returns 0 when
 * the whole list was read and acted on; -errno when no directory could
 * be proven or reading it failed (some fds may be done then: the caller
 * scans, which finds the rest).
 */
int libexecveat_fd_range_by_listing(unsigned int first, unsigned int last,
				    bool cloexec);

/* The largest fd number the scan reaches: fds are ints, and a table never
 * grows past fs.nr_open, 1048576 by default. */
#define FD_SCAN_DEFAULT_BOUND 1048576u

/*
 * Without /proc: acts on every number in [first, last] below the scan's
 * bound, the larger of FD_SCAN_DEFAULT_BOUND and the hard RLIMIT_NOFILE
 * (fds opened before a limit was lowered lie above it), or below the fd
 * table's edge where that is proven to be lower. One system call per
 * number: poll() would report O_PATH fds as POLLNVAL, never open.
 */
void libexecveat_fd_range_by_scan(unsigned int first, unsigned int last,
				  bool cloexec);

/* One past the last fd number that the scan above reaches: the table's
 * edge where it is proven, else the scan's bound. */
unsigned int libexecveat_fd_scan_end(void);

/* The fd table's edge (exported for the tests and the probe): a number
 * that no open fd reaches, proven with select(2), or 0 where none is. */
int libexecveat_fd_table_edge(void);

#endif /* EXECVEAT_FD_RANGE_H */
