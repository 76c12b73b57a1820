/*
 * The raw system calls the library makes.
 *
 * Why raw: the library must load into processes of glibc 2.17 and later,
 * and glibc 2.33 moved stat and friends to new symbol versions. syscall()
 * itself is as old as glibc and, like the calls below, async-signal-safe.
 *
 * What they answer: the kernel's result, or -errno where the call fails,
 * and errno is left as it was (sys_call). So the library never sets
 * errno on its way: only a public function does, once, as it returns
 * (answer.h), and one that succeeds leaves errno as the caller had it.
 *
 * Every argument goes to syscall() as a long (pointers through
 * uintptr_t), so nothing depends on how a variadic call promotes an int;
 * the kernel reads each argument as a full register (CVE-2009-0029) and
 * casts it back.
 *
 * Build with _FILE_OFFSET_BITS=64 (and without _TIME_BITS=64): then the C
 * library's struct stat and struct statfs have the layout of the kernel's
 * *64 calls on 32-bit ABIs.
 */
#ifndef EXECVEAT_SYS_H
#define EXECVEAT_SYS_H

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "syscall_numbers.h"

#ifndef AT_FDCWD
#define AT_FDCWD -100
#endif

#define SYS_ARG_PTR(p) ((long)(uintptr_t)(p))

/*
 * System call nr with six arguments (those it does not take are passed
 * as 0, and the kernel reads none of them): its result, or -errno, with
 * errno as it was before the call, which syscall() sets on failure.
 */
static inline long sys_call(long nr, long a, long b, long c, long d, long e,
			    long f)
{
	int saved = errno;
	long r = syscall(nr, a, b, c, d, e, f);

	if (r != -1)
		return r;
	r = -errno;
	errno = saved;
	return r;
}

/*
 * The raw fstat64 fills in the kernel's struct stat64; glibc's struct stat
 * has that layout on 32-bit ABIs only while _TIME_BITS is not 64 (glibc
 * 2.34+ moves st_ino then), which meson.build makes sure of. Checked where
 * the layout is known, so a mismatch breaks the build instead of weakening
 * the same-file proof.
 */
#if defined(__GLIBC__) && defined(__i386__)
_Static_assert(sizeof(struct stat) == 96 &&
		       offsetof(struct stat, st_ino) == 88,
	       "struct stat must match the kernel's i386 stat64");
#elif defined(__GLIBC__) && defined(__arm__) && defined(__ARM_EABI__)
_Static_assert(sizeof(struct stat) == 104 &&
		       offsetof(struct stat, st_ino) == 96,
	       "struct stat must match the kernel's arm EABI stat64");
#endif

static inline int sys_execveat(int dirfd, const char *path, char *const argv[],
			       char *const envp[], int flags)
{
	return (int)sys_call(EXECVEAT_NR, (long)dirfd, SYS_ARG_PTR(path),
			     SYS_ARG_PTR(argv), SYS_ARG_PTR(envp), (long)flags,
			     0L);
}

/* openat2; how is passed as void, so that this header needs no struct
 * open_how and the probe can pass what no caller could. */
static inline int sys_openat2(int dirfd, const char *path, const void *how,
			      size_t size)
{
	return (int)sys_call(OPENAT2_NR, (long)dirfd, SYS_ARG_PTR(path),
			     SYS_ARG_PTR(how), (long)size, 0L, 0L);
}

static inline int sys_execve(const char *path, char *const argv[],
			     char *const envp[])
{
	return (int)sys_call(SYS_execve, SYS_ARG_PTR(path), SYS_ARG_PTR(argv),
			     SYS_ARG_PTR(envp), 0L, 0L, 0L);
}

#ifdef SYS_fstat64
#define SYS_FSTAT SYS_fstat64
#define SYS_FSTATAT SYS_fstatat64
#else
#define SYS_FSTAT SYS_fstat
#define SYS_FSTATAT SYS_newfstatat
#endif

static inline int sys_fstat(int fd, struct stat *st)
{
	return (int)sys_call(SYS_FSTAT, (long)fd, SYS_ARG_PTR(st), 0L, 0L, 0L,
			     0L);
}

static inline int sys_fstatat(int dirfd, const char *path, struct stat *st,
			      int flags)
{
	return (int)sys_call(SYS_FSTATAT, (long)dirfd, SYS_ARG_PTR(path),
			     SYS_ARG_PTR(st), (long)flags, 0L, 0L);
}

/* stat(2), following symlinks; fstatat because newer ABIs have no stat. */
static inline int sys_stat(const char *path, struct stat *st)
{
	return sys_fstatat(AT_FDCWD, path, st, 0);
}

/* statfs f_type of procfs (<linux/magic.h>, which musl-gcc lacks). */
#define PROC_SUPER_MAGIC_VALUE 0x9fa0

static inline int sys_statfs(const char *path, struct statfs *sfs)
{
#ifdef SYS_statfs64
	/* The 32-bit ABIs' statfs64 takes the size of the buffer too. */
	return (int)sys_call(SYS_statfs64, SYS_ARG_PTR(path),
			     (long)sizeof(*sfs), SYS_ARG_PTR(sfs), 0L, 0L, 0L);
#else
	return (int)sys_call(SYS_statfs, SYS_ARG_PTR(path), SYS_ARG_PTR(sfs),
			     0L, 0L, 0L, 0L);
#endif
}

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

/*
 * pread(fd, buf, size, 0). preadv, because it takes its offset as two
 * longs (low, high) on every ABI, where pread64's 64-bit offset is split
 * and aligned differently on each 32-bit one; the offset is 0, so both
 * halves are 0.
 */
static inline int sys_pread_start(int fd, void *buf, size_t size)
{
	struct iovec iov = { .iov_base = buf, .iov_len = size };

	return (int)sys_call(SYS_preadv, (long)fd, SYS_ARG_PTR(&iov), 1L, 0L,
			     0L, 0L);
}

/*
 * faccessat2 (Linux 5.8) is 439 on every ABI this project knows, from the
 * table they share since Linux 5.1 (x32: __X32_SYSCALL_BIT + 439; alpha
 * and mips add offsets of their own, so other ABIs need headers that name
 * it). A header that disagrees stops the build, as for execveat.
 */
#if defined(__x86_64__) && defined(__ILP32__)
#define FACCESSAT2_EXPECTED_NR (0x40000000 + 439)
#elif defined(__x86_64__) || defined(__i386__) || \
	(defined(__arm__) && defined(__ARM_EABI__)) || defined(__aarch64__) || \
	(defined(__riscv) && __riscv_xlen == 64) || defined(__loongarch64)
#define FACCESSAT2_EXPECTED_NR 439
#endif
#ifdef FACCESSAT2_EXPECTED_NR
#ifndef SYS_faccessat2
#define SYS_faccessat2 FACCESSAT2_EXPECTED_NR /* headers before 5.8 */
#endif
_Static_assert(SYS_faccessat2 == FACCESSAT2_EXPECTED_NR,
	       "the kernel headers' faccessat2 number disagrees with the "
	       "mainline number for " EXECVEAT_ABI);
#endif

/* <linux/fcntl.h>'s values; glibc shows AT_EMPTY_PATH to _GNU_SOURCE only. */
#ifndef AT_EACCESS
#define AT_EACCESS 0x200
#endif
#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif

/* faccessat2(dirfd, path, mode, flags), as the caller asked it. */
static inline int sys_faccessat2(int dirfd, const char *path, int mode,
				 int flags)
{
	return (int)sys_call(SYS_faccessat2, (long)dirfd, SYS_ARG_PTR(path),
			     (long)mode, (long)flags, 0L, 0L);
}

/*
 * faccessat(2) as the kernel has had it since 2.6.16: no flags argument;
 * it checks the real IDs (and, for real UID 0, the permitted
 * capabilities; under SECBIT_NO_SETUID_FIXUP, the effective ones). Every ABI has it: 269 on x86_64, 307 on i386, 334 on
 * arm, 48 on the asm-generic ABIs (aarch64, riscv64), which have no
 * access(2).
 */
#if defined(__x86_64__) && defined(__ILP32__)
#define FACCESSAT_EXPECTED_NR (0x40000000 + 269)
#elif defined(__x86_64__)
#define FACCESSAT_EXPECTED_NR 269
#elif defined(__i386__)
#define FACCESSAT_EXPECTED_NR 307
#elif defined(__arm__) && defined(__ARM_EABI__)
#define FACCESSAT_EXPECTED_NR 334
#elif defined(__aarch64__) || (defined(__riscv) && __riscv_xlen == 64) || \
	defined(__loongarch64)
#define FACCESSAT_EXPECTED_NR 48
#endif
#ifdef FACCESSAT_EXPECTED_NR
_Static_assert(SYS_faccessat == FACCESSAT_EXPECTED_NR,
	       "the kernel headers' faccessat number disagrees with the "
	       "mainline number for " EXECVEAT_ABI);
#endif

static inline int sys_faccessat(int dirfd, const char *path, int mode)
{
	return (int)sys_call(SYS_faccessat, (long)dirfd, SYS_ARG_PTR(path),
			     (long)mode, 0L, 0L, 0L);
}

/* open(path, O_RDONLY | O_CLOEXEC). */
static inline int sys_open_read(const char *path)
{
	return (int)sys_call(SYS_openat, (long)AT_FDCWD, SYS_ARG_PTR(path),
			     (long)(O_RDONLY | O_CLOEXEC), 0L, 0L, 0L);
}

/*
 * The calls of openat2's userspace resolver (src/resolve/). openat rather
 * than open: every step of the walk is relative to a directory fd.
 */
static inline int sys_openat(int dirfd, const char *path, int flags,
			     unsigned int mode)
{
	return (int)sys_call(SYS_openat, (long)dirfd, SYS_ARG_PTR(path),
			     (long)flags, (long)mode, 0L, 0L);
}

static inline long sys_readlinkat(int dirfd, const char *path, char *buf,
				  size_t size)
{
	return sys_call(SYS_readlinkat, (long)dirfd, SYS_ARG_PTR(path),
			SYS_ARG_PTR(buf), (long)size, 0L, 0L);
}

/*
 * statx (Linux 4.11; glibc's wrapper is 2.28+, musl 1.2.3 has none, so
 * always raw). The layout is the kernel's, declared here because musl's
 * headers do not declare it; the caller falls back to fstat where statx
 * is refused or absent, losing the birth time (and asks for the mount id
 * elsewhere: mount_id.h).
 */
struct sys_statx_time {
	int64_t tv_sec;
	uint32_t tv_nsec;
	int32_t reserved;
};

struct sys_statx {
	uint32_t stx_mask;
	uint32_t stx_blksize;
	uint64_t stx_attributes;
	uint32_t stx_nlink;
	uint32_t stx_uid;
	uint32_t stx_gid;
	uint16_t stx_mode;
	uint16_t spare0;
	uint64_t stx_ino;
	uint64_t stx_size;
	uint64_t stx_blocks;
	uint64_t stx_attributes_mask;
	struct sys_statx_time stx_atime, stx_btime, stx_ctime, stx_mtime;
	uint32_t stx_rdev_major;
	uint32_t stx_rdev_minor;
	uint32_t stx_dev_major;
	uint32_t stx_dev_minor;
	uint64_t stx_mnt_id;
	uint64_t spare[13]; /* later fields, and room for more */
};
_Static_assert(sizeof(struct sys_statx) == 256 &&
		       offsetof(struct sys_statx, stx_mnt_id) == 144,
	       "struct sys_statx must have the kernel's struct statx layout");

#define SYS_STATX_TYPE 0x0001U
#define SYS_STATX_MODE 0x0002U
#define SYS_STATX_UID 0x0008U
#define SYS_STATX_INO 0x0100U
#define SYS_STATX_BTIME 0x0800U
#define SYS_STATX_MNT_ID 0x1000U

#ifdef SYS_statx
static inline int sys_statx(int dirfd, const char *path, int flags,
			    unsigned int mask, struct sys_statx *stx)
{
	return (int)sys_call(SYS_statx, (long)dirfd, SYS_ARG_PTR(path),
			     (long)flags, (long)mask, SYS_ARG_PTR(stx), 0L);
}
#else
static inline int sys_statx(int dirfd, const char *path, int flags,
			    unsigned int mask, struct sys_statx *stx)
{
	(void)dirfd, (void)path, (void)flags, (void)mask, (void)stx;
	return -ENOSYS;
}
#endif

static inline int sys_fstatfs(int fd, struct statfs *sfs)
{
#ifdef SYS_fstatfs64
	return (int)sys_call(SYS_fstatfs64, (long)fd, (long)sizeof(*sfs),
			     SYS_ARG_PTR(sfs), 0L, 0L, 0L);
#else
	return (int)sys_call(SYS_fstatfs, (long)fd, SYS_ARG_PTR(sfs), 0L, 0L,
			     0L, 0L);
#endif
}

static inline int sys_close(int fd)
{
	return (int)sys_call(SYS_close, (long)fd, 0L, 0L, 0L, 0L, 0L);
}

/*
 * The calls of close_range's and fchmodat's fallbacks (Linux 5.9 and 6.6
 * added the system calls; the fallbacks serve older kernels and policies
 * that refuse them).
 */
static inline int sys_close_range(unsigned int first, unsigned int last,
				  unsigned int flags)
{
	return (int)sys_call(CLOSE_RANGE_NR, (long)first, (long)last,
			     (long)flags, 0L, 0L, 0L);
}

static inline int sys_fchmodat2(int dirfd, const char *path,
				unsigned int mode, int flags)
{
	return (int)sys_call(FCHMODAT2_NR, (long)dirfd, SYS_ARG_PTR(path),
			     (long)mode, (long)flags, 0L, 0L);
}

/* fchmodat(2) as the kernel has had it since 2.6.16: no flags argument,
 * and a symlink is followed. */
static inline int sys_fchmodat(int dirfd, const char *path, unsigned int mode)
{
	return (int)sys_call(SYS_fchmodat, (long)dirfd, SYS_ARG_PTR(path),
			     (long)mode, 0L, 0L, 0L);
}

static inline int sys_fchmod(int fd, unsigned int mode)
{
	return (int)sys_call(SYS_fchmod, (long)fd, (long)mode, 0L, 0L, 0L, 0L);
}

/* struct linux_dirent64's fixed part, as getdents64 writes each record
 * (8-byte aligned within a buffer that is itself 8-byte aligned). */
struct dirent64_head {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

static inline long sys_getdents64(int fd, void *buf, size_t size)
{
	return sys_call(SYS_getdents64, (long)fd, SYS_ARG_PTR(buf), (long)size,
			0L, 0L, 0L);
}

static inline int sys_pipe2(int fds[2], int flags)
{
	return (int)sys_call(SYS_pipe2, SYS_ARG_PTR(fds), (long)flags, 0L, 0L,
			     0L, 0L);
}

/*
 * The calls of the operations beneath a root (src/inroot/) that glibc
 * 2.17 has no wrapper for (mknodat's is 2.33's, renameat2's 2.28's, and
 * name_to_handle_at's asks for a struct file_handle): each acts on one
 * name in a directory the operation holds. Their others (mkdirat,
 * unlinkat, symlinkat, linkat) are the C library's.
 */
/* The kernel takes the device number in 32 bits. */
static inline int sys_mknodat(int dirfd, const char *name, unsigned int mode,
			      unsigned int dev)
{
	return (int)sys_call(SYS_mknodat, (long)dirfd, SYS_ARG_PTR(name),
			     (long)mode, (long)dev, 0L, 0L);
}

static inline int sys_renameat2(int from_dir, const char *from, int to_dir,
				const char *to, unsigned int flags)
{
	return (int)sys_call(SYS_renameat2, (long)from_dir, SYS_ARG_PTR(from),
			     (long)to_dir, SYS_ARG_PTR(to), (long)flags, 0L);
}

/* name_to_handle_at(dirfd, name, handle, mount_id, flags) (Linux 2.6.39). */
static inline int sys_name_to_handle_at(int dirfd, const char *name,
					void *handle, int *mount_id, int flags)
{
	return (int)sys_call(SYS_name_to_handle_at, (long)dirfd,
			     SYS_ARG_PTR(name), SYS_ARG_PTR(handle),
			     SYS_ARG_PTR(mount_id), (long)flags, 0L);
}

/*
 * The calls of freopen's reopen without a name (src/stream_keep.c).
 * ftruncate's 32-bit length is enough for 0, on every ABI alike.
 */
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

static inline int sys_ftruncate_to_zero(int fd)
{
	return (int)sys_call(SYS_ftruncate, (long)fd, 0L, 0L, 0L, 0L, 0L);
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

/* personality(0xffffffff): the process's personality, unchanged. */
static inline long sys_personality_query(void)
{
	return sys_call(SYS_personality, (long)0xffffffffu, 0L, 0L, 0L, 0L, 0L);
}

/* uname(2) into buf, the kernel's struct new_utsname (six fields of 65
 * bytes). SYS_uname is newuname on the ABIs that also have olduname. */
static inline int sys_newuname(char buf[6 * 65])
{
	return (int)sys_call(SYS_uname, SYS_ARG_PTR(buf), 0L, 0L, 0L, 0L, 0L);
}

/*
 * The calls of pidfd_getpid: an ioctl on the pidfd (PIDFD_GET_INFO, Linux
 * 6.13), and the caller's own ids, which its /proc proof compares with.
 */
static inline int sys_ioctl(int fd, unsigned long request, void *arg)
{
	return (int)sys_call(SYS_ioctl, (long)fd, (long)request,
			     SYS_ARG_PTR(arg), 0L, 0L, 0L);
}

/* pidfd_open(pid, 0) (Linux 5.3): 434 on every ABI, x32 with its bit. */
static inline int sys_pidfd_open(long pid)
{
#ifdef SYS_pidfd_open
	return (int)sys_call(SYS_pidfd_open, pid, 0L, 0L, 0L, 0L, 0L);
#else
	(void)pid;
	return -ENOSYS;
#endif
}

/* pidfd_send_signal(pidfd, 0, NULL, 0) (Linux 5.1): 424 on every ABI.
 * Signal 0 sends nothing: EINVAL for a process outside this pid
 * namespace and its descendants, ESRCH for one reaped. */
static inline int sys_pidfd_probe_signal(int pidfd)
{
#ifdef SYS_pidfd_send_signal
	return (int)sys_call(SYS_pidfd_send_signal, (long)pidfd, 0L, 0L, 0L, 0L,
			     0L);
#else
	(void)pidfd;
	return -ENOSYS;
#endif
}

static inline long sys_read(int fd, void *buf, size_t size)
{
	return sys_call(SYS_read, (long)fd, SYS_ARG_PTR(buf), (long)size, 0L,
			0L, 0L);
}

static inline long sys_getpid(void)
{
	return sys_call(SYS_getpid, 0L, 0L, 0L, 0L, 0L, 0L);
}

static inline long sys_gettid(void)
{
	return sys_call(SYS_gettid, 0L, 0L, 0L, 0L, 0L, 0L);
}

/*
 * The credential calls of faccessat's fallback. Raw, never the C
 * library's: glibc's setresuid and friends signal every thread of the
 * process to change them all, and the fallback changes the IDs of one
 * short-lived child only. The 32-bit ABIs' 16-bit calls would truncate
 * IDs: their 32 calls are used there.
 */
#ifdef SYS_getresuid32
#define SYS_GETRESUID SYS_getresuid32
#define SYS_GETRESGID SYS_getresgid32
#define SYS_SETRESUID SYS_setresuid32
#define SYS_SETRESGID SYS_setresgid32
#define SYS_SETFSUID SYS_setfsuid32
#define SYS_SETFSGID SYS_setfsgid32
#else
#define SYS_GETRESUID SYS_getresuid
#define SYS_GETRESGID SYS_getresgid
#define SYS_SETRESUID SYS_setresuid
#define SYS_SETRESGID SYS_setresgid
#define SYS_SETFSUID SYS_setfsuid
#define SYS_SETFSGID SYS_setfsgid
#endif

static inline int sys_getresuid(uid_t *r, uid_t *e, uid_t *s)
{
	return (int)sys_call(SYS_GETRESUID, SYS_ARG_PTR(r), SYS_ARG_PTR(e),
			     SYS_ARG_PTR(s), 0L, 0L, 0L);
}

static inline int sys_getresgid(gid_t *r, gid_t *e, gid_t *s)
{
	return (int)sys_call(SYS_GETRESGID, SYS_ARG_PTR(r), SYS_ARG_PTR(e),
			     SYS_ARG_PTR(s), 0L, 0L, 0L);
}

/* An ID that setresuid and setresgid leave as it is. */
#define SYS_ID_UNCHANGED (-1L)

/* setresuid(r, e, s), each an ID or SYS_ID_UNCHANGED; the filesystem
 * UID follows e. */
static inline int sys_setresuid(long r, long e, long s)
{
	return (int)sys_call(SYS_SETRESUID, r, e, s, 0L, 0L, 0L);
}

static inline int sys_setresgid(long r, long e, long s)
{
	return (int)sys_call(SYS_SETRESGID, r, e, s, 0L, 0L, 0L);
}

/* setfsuid(-1) changes nothing (-1 is no UID) and answers the current
 * filesystem UID; likewise for the GID. */
static inline uid_t sys_fsuid(void)
{
	return (uid_t)sys_call(SYS_SETFSUID, -1L, 0L, 0L, 0L, 0L, 0L);
}

static inline gid_t sys_fsgid(void)
{
	return (gid_t)sys_call(SYS_SETFSGID, -1L, 0L, 0L, 0L, 0L, 0L);
}

/* The kernel's capability sets, version 3 (Linux 2.6.26): two 32-bit
 * words of each set. */
struct sys_cap_header {
	uint32_t version;
	int pid;
};

struct sys_cap_data {
	uint32_t effective;
	uint32_t permitted;
	uint32_t inheritable;
};

#define SYS_CAP_VERSION_3 0x20080522

static inline int sys_capget(struct sys_cap_data data[2])
{
	struct sys_cap_header header = { SYS_CAP_VERSION_3, 0 };

	return (int)sys_call(SYS_capget, SYS_ARG_PTR(&header),
			     SYS_ARG_PTR(data), 0L, 0L, 0L, 0L);
}

static inline int sys_capset(const struct sys_cap_data data[2])
{
	struct sys_cap_header header = { SYS_CAP_VERSION_3, 0 };

	return (int)sys_call(SYS_capset, SYS_ARG_PTR(&header),
			     SYS_ARG_PTR(data), 0L, 0L, 0L, 0L);
}

/* prctl(PR_GET_SECUREBITS): SECBIT_NO_SETUID_FIXUP (bit 2) leaves the
 * old faccessat's check the caller's effective capabilities. */
static inline long sys_securebits(void)
{
	return sys_call(SYS_prctl, 27L /* PR_GET_SECUREBITS */, 0L, 0L, 0L, 0L,
			0L);
}

/* wait4(pid, status, __WALL, NULL): reaps a child with no exit signal.
 * Raw: the C library's waitpid is a cancellation point. */
static inline long sys_wait_clone(long pid, int *status)
{
	return sys_call(SYS_wait4, pid, SYS_ARG_PTR(status),
			(long)0x40000000 /* __WALL */, 0L, 0L, 0L);
}

/* rt_sigprocmask(how, set, old): the kernel's sigset is 8 bytes on every
 * ABI this project builds (64 signals). */
static inline int sys_sigprocmask(int how, const uint64_t *set,
				  uint64_t *old)
{
	return (int)sys_call(SYS_rt_sigprocmask, (long)how, SYS_ARG_PTR(set),
			     SYS_ARG_PTR(old), 8L, 0L, 0L);
}

#endif /* EXECVEAT_SYS_H */
