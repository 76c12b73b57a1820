/*
 * The raw system calls on the fd table (call.h says how they answer): an
 * fd's flags and its file's, copies, pipes, a range closed, a table of
 * this thread's own, the table's bounds.
 */
#ifndef EXECVEAT_SYSCALLS_FDS_H
#define EXECVEAT_SYSCALLS_FDS_H

#include <fcntl.h>
#include <stdint.h>

#include "call.h"

#ifdef SYS_fcntl64
#define SYS_FCNTL SYS_fcntl64
#else
#define SYS_FCNTL SYS_fcntl
#endif

/* fcntl(fd, F_GETFD): the fd's flags, or -errno. */
static inline int sys_fcntl_getfd(int fd)
{
	return (int)sys_call(SYS_FCNTL, (long)fd, (long)F_GETFD, 0L, 0L, 0L,
			     0L);
}

/* fcntl(fd, F_GETFL): the file's status flags (O_PATH among them), or
 * -errno. */
static inline int sys_fcntl_getfl(int fd)
{
	return (int)sys_call(SYS_FCNTL, (long)fd, (long)F_GETFL, 0L, 0L, 0L,
			     0L);
}

/* fcntl(fd, F_GETLEASE): the lease held through fd's open file
 * (F_RDLCK, F_WRLCK, or F_UNLCK: none), or -errno. */
static inline int sys_fcntl_getlease(int fd)
{
	return (int)sys_call(SYS_FCNTL, (long)fd, 1025L /* F_GETLEASE */, 0L,
			     0L, 0L, 0L);
}

/* fcntl(fd, F_SETFD, flags). */
static inline int sys_fcntl_setfd(int fd, int flags)
{
	return (int)sys_call(SYS_FCNTL, (long)fd, (long)F_SETFD, (long)flags,
			     0L, 0L, 0L);
}

/* fcntl(fd, F_DUPFD_CLOEXEC, min): a copy at the lowest free number from
 * min up, or -errno. */
static inline int sys_fcntl_dupfd_cloexec(int fd, int min)
{
	return (int)sys_call(SYS_FCNTL, (long)fd, (long)F_DUPFD_CLOEXEC,
			     (long)min, 0L, 0L, 0L);
}

/* close_range(first, last, flags) (Linux 5.9). */
static inline int sys_close_range(unsigned int first, unsigned int last,
				  unsigned int flags)
{
	return (int)sys_call(CLOSE_RANGE_NR, (long)first, (long)last,
			     (long)flags, 0L, 0L, 0L);
}

static inline int sys_pipe2(int fds[2], int flags)
{
	return (int)sys_call(SYS_pipe2, SYS_ARG_PTR(fds), (long)flags, 0L, 0L,
			     0L, 0L);
}

/* fcntl(fd, F_SETFL, flags): the file's status flags. */
static inline int sys_fcntl_setfl(int fd, int flags)
{
	return (int)sys_call(SYS_FCNTL, (long)fd, (long)F_SETFL, (long)flags,
			     0L, 0L, 0L);
}

static inline int sys_dup3(int from, int to, int flags)
{
	return (int)sys_call(SYS_dup3, (long)from, (long)to, (long)flags, 0L,
			     0L, 0L);
}

/* unshare(CLONE_FILES): this thread gets an fd table of its own. */
static inline int sys_unshare_files(void)
{
	return (int)sys_call(SYS_unshare, 0x00000400L /* CLONE_FILES */, 0L, 0L,
			     0L, 0L, 0L);
}

/* The kernel's struct rlimit64, the same on every ABI. */
struct sys_rlimit64 {
	uint64_t cur;
	uint64_t max;
};

/* prlimit64(0, RLIMIT_NOFILE, NULL, limit) (Linux 2.6.36): this process's
 * open-file limits, 64 bits wide whatever the ABI. */
static inline int sys_nofile_limit(struct sys_rlimit64 *limit)
{
	return (int)sys_call(SYS_prlimit64, 0L, 7L /* RLIMIT_NOFILE */, 0L,
			     SYS_ARG_PTR(limit), 0L, 0L);
}

/*
 * pselect6(n, readfds, NULL, NULL, {0, 0}, NULL): a zero timeout, so it
 * never waits. The timeout is 16 zero bytes, read as a zero timespec by
 * the 32-bit ABIs' pselect6 (8 bytes) and by every 64-bit one (16).
 * Writable, on the stack: pselect6 writes the time left back, and
 * qemu-user 7.2, unlike the kernel, fails a call whose timeout it cannot
 * write back (measured with 7.2: -1 where the kernel answers 0).
 * ENOSYS where the ABI has no pselect6 by that name.
 */
static inline int sys_select_now(int n, unsigned long *readfds)
{
	uint64_t zero_timeout[2] = { 0, 0 };

#if defined(SYS_pselect6)
	return (int)sys_call(SYS_pselect6, (long)n, SYS_ARG_PTR(readfds), 0L,
			     0L, SYS_ARG_PTR(zero_timeout), 0L);
#elif defined(SYS_pselect6_time64)
	return (int)sys_call(SYS_pselect6_time64, (long)n, SYS_ARG_PTR(readfds),
			     0L, 0L, SYS_ARG_PTR(zero_timeout), 0L);
#else
	(void)n, (void)readfds, (void)zero_timeout;
	return -ENOSYS;
#endif
}

#endif /* EXECVEAT_SYSCALLS_FDS_H */
