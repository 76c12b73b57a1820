/*
 * close_range's fallback where no /proc can be proven: every fd number in
 * the range, one system call each, up to a bound.
 *
 * Why not poll(2) over batches of numbers, which costs a system call per
 * few hundred: poll reports an O_PATH fd as POLLNVAL (the kernel's fdget
 * leaves such files out), exactly as it reports a number that is not
 * open. An O_PATH fd of a directory left open across exec into a chroot
 * is a way out of it, so every number is asked.
 *
 * What keeps the count low is the fd table's edge: the kernel's select(2)
 * reads its sets only as far as the table reaches and ignores bits past
 * it, while a bit for a closed number inside the table is EBADF. A closed
 * number whose bit select ignores is therefore past the table, and so is
 * every fd number above it. Tables start at 64 slots (32 on 32-bit ABIs)
 * and grow by powers of two, so a process that never held an fd of 512
 * or more is done in a few hundred calls.
 */
#define _GNU_SOURCE /* O_PATH */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>

#include "fd_range.h"
#include "../syscalls/fds.h"
#include "../syscalls/files.h"

#define LONG_BITS (CHAR_BIT * sizeof(unsigned long))

/*
 * Sets of at most 1024 bits: qemu-user copies the guest's sets into the
 * C library's fd_set (FD_SETSIZE 1024 bits) and aborts on a bit past it
 * (measured with 7.2). So the edge can be proven only for tables of at
 * most 512 slots.
 */
#define SELECT_BITS 1024

/* select() of the one number fd: -errno, or what select answers. */
static int select_one(int fd)
{
	unsigned long set[SELECT_BITS / LONG_BITS] = { 0 };

	set[(unsigned int)fd / LONG_BITS] = 1UL << ((unsigned int)fd % LONG_BITS);
	return sys_select_now(fd + 1, set);
}

static int is_open(int fd)
{
	return sys_fcntl_getfd(fd) >= 0;
}

/*
 * A closed number inside the table: the lowest free one, found by opening
 * "/" O_PATH there and closing it again (an O_PATH fd's close drops no
 * record lock). The table grows to hold it if it must, and tables never
 * shrink, so the number stays inside. -1 where nothing can be opened.
 */
static int closed_number_inside(void)
{
	int fd = sys_openat(AT_FDCWD, "/", O_PATH | O_CLOEXEC, 0);

	if (fd >= 0)
		sys_close(fd);
	return fd;
}

/*
 * Whether select answers a closed number inside the table with EBADF, as
 * the kernel does; a seccomp policy that makes select "succeed" without
 * running (SECCOMP_RET_ERRNO with 0) would otherwise pass for a table's
 * edge everywhere. A number below 32 is inside every table; where all of
 * them are open (a cost cliff: without the control, the scan ran to the
 * hard limit), the lowest free number.
 */
static int select_answers_as_kernel(void)
{
	int control = -1;

	for (int fd = 0; fd < 32 && control < 0; fd++)
		if (!is_open(fd))
			control = fd;
	if (control < 0)
		control = closed_number_inside();
	if (control < 0 || control >= SELECT_BITS)
		return 0;
	return select_one(control) == -EBADF;
}

int libexecveat_fd_table_edge(void)
{
	int edge = 0;

	if (select_answers_as_kernel()) {
		for (int fd = 63; fd < SELECT_BITS; fd = fd * 2 + 1) {
			int selected;

			if (is_open(fd))
				continue;
			selected = select_one(fd);
			if (selected >= 0) {
				/* Closed, and select ignored it: past the
				 * table, unless the table changed meanwhile. */
				if (!is_open(fd))
					edge = fd;
				break;
			}
			if (selected != -EBADF)
				break;
		}
	}
	return edge;
}

/* The larger of the default fs.nr_open and the hard limit, as a count of
 * numbers from 0. */
static unsigned int scan_bound(void)
{
	struct sys_rlimit64 limit;

	if (sys_nofile_limit(&limit) == 0 && limit.max > FD_SCAN_DEFAULT_BOUND)
		return limit.max > (uint64_t)INT_MAX ? (unsigned int)INT_MAX
						     : (unsigned int)limit.max;
	return FD_SCAN_DEFAULT_BOUND;
}

unsigned int libexecveat_fd_scan_end(void)
{
	unsigned int end = scan_bound();
	int edge = libexecveat_fd_table_edge();

	return edge > 0 && (unsigned int)edge < end ? (unsigned int)edge : end;
}

void libexecveat_fd_range_by_scan(unsigned int first, unsigned int last,
				  bool cloexec)
{
	unsigned int end = libexecveat_fd_scan_end();

	if (last < end)
		end = last + 1;
	for (unsigned int fd = first; fd < end; fd++)
		fd_range_act((int)fd, cloexec);
}
