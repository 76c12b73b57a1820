/*
 * The raw system calls on files and directories (call.h says how they
 * answer): opens, stats, links, listings, access and mode checks, mode,
 * owner and time changes, and the *at calls of the operations beneath a
 * root.
 *
 * Build with _FILE_OFFSET_BITS=64 (and without _TIME_BITS=64): then the C
 * library's struct stat and struct statfs have the layout of the kernel's
 * *64 calls on 32-bit ABIs.
 */
#ifndef EXECVEAT_SYSCALLS_FILES_H
#define EXECVEAT_SYSCALLS_FILES_H

#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>

#include "call.h"

#ifndef AT_FDCWD
#define AT_FDCWD -100
#endif

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

/* openat2; how is passed as void, so that this header needs no struct
 * open_how and the probe can pass what no caller could. */
static inline int sys_openat2(int dirfd, const char *path, const void *how,
			      size_t size)
{
	return (int)sys_call(OPENAT2_NR, (long)dirfd, SYS_ARG_PTR(path),
			     SYS_ARG_PTR(how), (long)size, 0L, 0L);
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

/* openat rather than open: every open the library makes for itself, the
 * walk's every step among them, is relative to a directory fd. */
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

/* fchmodat2 (Linux 6.6): fchmodat with the flags the old call lacks. */
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

/* fchownat takes 32-bit ids on every ABI (it came after chown32). */
static inline int sys_fchownat(int dirfd, const char *path, uid_t uid,
			       gid_t gid, int flags)
{
	return (int)sys_call(SYS_fchownat, (long)dirfd, SYS_ARG_PTR(path),
			     (long)uid, (long)gid, (long)flags, 0L);
}

/* utimensat with the C library's struct timespec: on 32-bit ABIs built
 * without _TIME_BITS=64 (above) that is the kernel's old timespec, which
 * utimensat (not utimensat_time64) takes. */
static inline int sys_utimensat(int dirfd, const char *path,
				const struct timespec ts[2], int flags)
{
	return (int)sys_call(SYS_utimensat, (long)dirfd, SYS_ARG_PTR(path),
			     SYS_ARG_PTR(ts), (long)flags, 0L, 0L);
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

/* ftruncate(fd, 0): its 32-bit length is enough for 0, on every ABI
 * alike. */
static inline int sys_ftruncate_to_zero(int fd)
{
	return (int)sys_call(SYS_ftruncate, (long)fd, 0L, 0L, 0L, 0L, 0L);
}

static inline long sys_read(int fd, void *buf, size_t size)
{
	return sys_call(SYS_read, (long)fd, SYS_ARG_PTR(buf), (long)size, 0L,
			0L, 0L);
}

#endif /* EXECVEAT_SYSCALLS_FILES_H */
