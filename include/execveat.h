/*
 * libexecveat: execveat() for every libc, an fexecve() that works without
 * /proc, (since 1.1) an openat2() that resolves RESOLVE_BENEATH and the
 * other RESOLVE_ flags itself where the system call is refused, and (since
 * 1.2) closefrom(), close_range(), fchmodat() and lchmod() that need no
 * /proc and never trust a fake one, and (since 1.3) a faccessat() that
 * answers as the kernel does where faccessat2 is refused, a pidfd_getpid()
 * that asks the kernel and trusts only a proven /proc, and a freopen()
 * and freopen64() (declared by <stdio.h>) whose NULL name never reopens
 * another file. Since 2.0, file operations beneath a root directory
 * (inroot_mkdir_all(), inroot_remove_all() and the others) are declared
 * in <inroot.h>, not here.
 *
 * Link with -lexecveat (pkg-config: execveat), or preload libexecveat.so.1
 * to replace fexecve(), openat2(), closefrom(), close_range(), fchmodat(),
 * lchmod(), faccessat(), pidfd_getpid(), freopen() and freopen64() in
 * programs that were built against glibc.
 */
#ifndef EXECVEAT_H
#define EXECVEAT_H

/* <unistd.h> and <sys/stat.h> first: glibc declares execveat, closefrom,
 * close_range and faccessat in the one and fchmodat and lchmod in the
 * other, and ours must come after them and match them exactly, exception
 * specification and all. */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/*
 * struct open_how and the RESOLVE_ flags: the kernel's own header where it
 * is installed (glibc 2.43's <fcntl.h> takes them from there too), else
 * glibc 2.43's definitions if <fcntl.h> gave them (it defines RESOLVE_
 * and struct open_how together), else ours, with the kernel's layout.
 */
#if defined(__has_include)
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#endif
#endif
#if !defined(_LINUX_OPENAT2_H) && !defined(RESOLVE_NO_XDEV)
struct open_how {
	uint64_t flags;   /* O_ flags */
	uint64_t mode;    /* for O_CREAT and O_TMPFILE only */
	uint64_t resolve; /* RESOLVE_ flags */
};
#endif
#ifndef RESOLVE_NO_XDEV
#define RESOLVE_NO_XDEV 0x01       /* no mount crossings */
#endif
#ifndef RESOLVE_NO_MAGICLINKS
#define RESOLVE_NO_MAGICLINKS 0x02 /* no procfs magic links */
#endif
#ifndef RESOLVE_NO_SYMLINKS
#define RESOLVE_NO_SYMLINKS 0x04   /* no symlinks at all */
#endif
#ifndef RESOLVE_BENEATH
#define RESOLVE_BENEATH 0x08       /* fail (EXDEV) rather than leave dirfd */
#endif
#ifndef RESOLVE_IN_ROOT
#define RESOLVE_IN_ROOT 0x10       /* dirfd is "/" and ".." stops there */
#endif
#ifndef RESOLVE_CACHED
#define RESOLVE_CACHED 0x20        /* only from the dentry cache, or EAGAIN */
#endif

/*
 * Linux 7.2's open flags, where the system headers lack them: with the
 * empty name, O_EMPTYPATH opens the file of dirfd itself (openat and
 * openat2); OPENAT2_REGULAR (openat2's how.flags only) opens a regular
 * file and refuses anything else with EFTYPE, opening nothing. EFTYPE is
 * the asm-generic value: the ABIs with errno numbers of their own (MIPS,
 * Alpha, SPARC, PA-RISC) get no definition, and the library answers
 * OPENAT2_REGULAR as a kernel without it there (EINVAL).
 */
#ifndef O_EMPTYPATH
#define O_EMPTYPATH 0400000000 /* 1 << 26 */
#endif
#ifndef OPENAT2_REGULAR
#define OPENAT2_REGULAR (UINT64_C(1) << 32)
#endif
#if !defined(EFTYPE) && !defined(__mips__) && !defined(__alpha__) && \
	!defined(__sparc__) && !defined(__hppa__)
#define EFTYPE 134
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Values from <linux/fcntl.h>; older C libraries do not define them all. */
#ifndef AT_SYMLINK_NOFOLLOW
#define AT_SYMLINK_NOFOLLOW 0x100
#endif
#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif
#ifndef AT_EXECVE_CHECK
#define AT_EXECVE_CHECK 0x10000 /* Linux 6.14 */
#endif

/* close_range's flags, spelt as <linux/close_range.h> spells them, so that
 * either header may come first. */
#ifndef CLOSE_RANGE_UNSHARE
#define CLOSE_RANGE_UNSHARE	(1U << 1)
#endif
#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC	(1U << 2)
#endif

/* glibc marks its declarations __THROW (noexcept in C++); a redeclaration
 * must say the same, and other C libraries have no such macro. */
#ifdef __THROW
#define EXECVEAT_NOTHROW __THROW
#else
#define EXECVEAT_NOTHROW
#endif

/**
 * Execute the program named by @p pathname relative to the directory
 * @p dirfd, as the execveat(2) system call does.
 *
 * @param dirfd     a directory fd, AT_FDCWD, or (with AT_EMPTY_PATH and an
 *                  empty @p pathname) the fd of the program itself
 * @param pathname  the program; NULL means the file behind @p dirfd, as if
 *                  "" had been given with AT_EMPTY_PATH (the 2014 draft API)
 * @param argv      the new program's arguments, NULL-terminated
 * @param envp      the new program's environment, NULL-terminated
 * @param flags     AT_EMPTY_PATH, AT_SYMLINK_NOFOLLOW, AT_EXECVE_CHECK;
 *                  passed to the kernel untouched
 *
 * @return does not return on success; -1 with errno set on failure, with
 *         the kernel's errno (ENOSYS where the kernel or a seccomp policy
 *         has no execveat).
 */
int execveat(int dirfd, const char *pathname, char *const argv[],
	     char *const envp[], int flags) EXECVEAT_NOTHROW;

/**
 * Execute the program open at @p fd, without needing /proc.
 *
 * Calls execveat(fd, "", argv, envp, AT_EMPTY_PATH). Only when that fails
 * with ENOSYS or EPERM (no execveat in the kernel, or a seccomp policy
 * refusing it) does it execute /proc/self/fd/N instead, and only after
 * proving that /proc/self/fd is procfs and that the name refers to the
 * same file as @p fd.
 *
 * Async-signal-safe and safe in a vfork() child: it allocates nothing and
 * takes no locks.
 *
 * @return does not return on success; -1 with errno set on failure:
 *         EINVAL if @p fd is negative or @p argv or @p envp is NULL;
 *         execveat's ENOSYS or EPERM when no verified /proc can stand in;
 *         EBADF if @p fd is not open; otherwise the error of the exec.
 */
int fexecve(int fd, char *const argv[], char *const envp[]) EXECVEAT_NOTHROW;

/**
 * Open @p pathname relative to @p dirfd as the openat2(2) system call does
 * (Linux 5.6), with glibc 2.43's prototype. Since libexecveat 1.1.
 *
 * Makes that one system call and returns its answer unchanged. Only where
 * the call itself is refused (ENOSYS or EPERM: a kernel before 5.6,
 * qemu-user, a seccomp policy) does it check @p how as the kernel would
 * and resolve @p pathname itself, one component at a time, without /proc,
 * never leaving @p dirfd under RESOLVE_BENEATH or RESOLVE_IN_ROOT; there
 * RESOLVE_CACHED gets EAGAIN, and Linux 7.2's O_EMPTYPATH and
 * OPENAT2_REGULAR are taken where the kernel has them (EINVAL where it
 * does not). openat2(3) lists where that answer can differ from the
 * kernel's.
 *
 * Safe in a signal handler and in a vfork() child: it allocates nothing
 * and takes no locks. Unlike glibc's, not a cancellation point.
 *
 * @param how   flags, mode and resolve; @p size bytes of it are read, and
 *              bytes past struct open_how must be zero
 * @param size  sizeof(struct open_how), or more (at most a page)
 *
 * @return a new file descriptor, or -1 with errno set as the kernel sets
 *         it (EFAULT for a NULL @p pathname or @p how, as the system call
 *         gives).
 *
 * Declared without glibc's __THROW, as glibc 2.43 declares it (a
 * cancellation point there), so that the two declarations agree in C++.
 */
int openat2(int dirfd, const char *pathname, const struct open_how *how,
	    size_t size);

/**
 * Close every open fd from @p first to @p last, as the close_range(2)
 * system call does (Linux 5.9), with glibc 2.34's prototype. Since
 * libexecveat 1.2.
 *
 * Makes that one system call. Only where it is refused (ENOSYS or EPERM:
 * a kernel before 5.9, a seccomp policy) does it close the fds itself:
 * those that this thread's fd directory lists, once it is proven to be
 * procfs and this very table, and without one, every fd number up to
 * the table's proven end or a bound (at least 1048576, or the hard
 * RLIMIT_NOFILE if higher), including fds above a lowered limit.
 *
 * @param flags  0, CLOSE_RANGE_CLOEXEC (mark close-on-exec instead of
 *               closing), CLOSE_RANGE_UNSHARE (first give this thread an
 *               fd table of its own)
 *
 * @return 0, or -1 with errno: EINVAL for unknown flags or @p first
 *         greater than @p last; ENOMEM or EMFILE where the table cannot be
 *         unshared; with CLOSE_RANGE_UNSHARE where the system call and
 *         unshare(2) are both refused, the system call's ENOSYS or EPERM.
 *
 * Async-signal-safe and safe in a vfork() child: it allocates nothing and
 * takes no locks.
 */
int close_range(unsigned int first, unsigned int last,
		int flags) EXECVEAT_NOTHROW;

/**
 * Close every open fd from @p lowfd up (a negative @p lowfd is 0), as
 * close_range(lowfd, ~0U, 0) does. Since libexecveat 1.2.
 *
 * Never fails and never aborts (glibc's aborts where the system call is
 * refused and /proc cannot be listed); async-signal-safe.
 */
void closefrom(int lowfd) EXECVEAT_NOTHROW;

/**
 * Change the mode of @p pathname relative to @p dirfd, as fchmodat(2)
 * does, with glibc's prototype. Since libexecveat 1.2.
 *
 * With @p flags 0, the fchmodat system call, untouched. With
 * AT_SYMLINK_NOFOLLOW (and AT_EMPTY_PATH), the fchmodat2 system call
 * (Linux 6.6); only where that is refused, the file is opened O_PATH and
 * a symlink gets EOPNOTSUPP; anything else is changed through this
 * thread's fd directory once it is proven to be procfs and this table,
 * and without one, a regular file or a directory by opening it again and
 * checking that it is still the same file. A device or FIFO without
 * /proc gets EOPNOTSUPP, as from glibc.
 *
 * @return 0, or -1 with errno set as the kernel sets it (EPERM for a file
 *         the caller does not own, EOPNOTSUPP for a symlink, ...); EAGAIN
 *         where the name came to name another file during the call.
 */
int fchmodat(int dirfd, const char *pathname, mode_t mode,
	     int flags) EXECVEAT_NOTHROW;

/**
 * Change the mode of @p pathname itself, never of a symlink's target:
 * fchmodat(AT_FDCWD, pathname, mode, AT_SYMLINK_NOFOLLOW). Since
 * libexecveat 1.2.
 */
int lchmod(const char *pathname, mode_t mode) EXECVEAT_NOTHROW;

/**
 * The pid of the process that the pidfd @p pidfd refers to, in the
 * caller's pid namespace, with glibc 2.39's prototype (<sys/pidfd.h>).
 * Since libexecveat 1.3.
 *
 * Asks the kernel with the PIDFD_GET_INFO ioctl (Linux 6.13), one system
 * call. Only where the kernel has no such ioctl, or a policy refuses it,
 * does it read the pid from this thread's fdinfo file of @p pidfd, once
 * /proc is proven to be procfs of the caller's own pid namespace, showing
 * this process, and the file is proven to be the fd's own.
 *
 * @return the pid, or -1 with errno: EBADF where @p pidfd is not open or
 *         not a pidfd; ESRCH where the process has been reaped; EREMOTE
 *         where it is not in the caller's pid namespace; ENOSYS where the
 *         kernel has no PIDFD_GET_INFO (or it is refused) and no proven
 *         /proc can answer.
 *
 * Async-signal-safe: it allocates nothing and takes no locks.
 *
 * Not declared to C++ on glibc 2.39 and later: glibc's <sys/pidfd.h>
 * (2.36 and 2.43 checked) declares it without extern "C", and a C
 * declaration beside that one would stop either header from compiling.
 * A C++ program there declares it itself, extern "C".
 */
#if !defined(__cplusplus) || !defined(__GLIBC__) || \
	!(__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 39))
pid_t pidfd_getpid(int pidfd) EXECVEAT_NOTHROW;
#endif

/**
 * Check the caller's permission to access @p pathname relative to
 * @p dirfd, as faccessat(2) does, with glibc's prototype. Since
 * libexecveat 1.3.
 *
 * The faccessat2 system call (Linux 5.8), its answer returned as it is;
 * only where that call is refused (ENOSYS, or an EPERM that no file
 * gave), the old faccessat system call, asked with the question's IDs
 * (under AT_EACCESS with other real IDs, by a short-lived child that
 * takes them); AT_SYMLINK_NOFOLLOW on a symlink answered from the
 * mount; AT_EMPTY_PATH with "" through a proven /proc.
 *
 * @return 0, or -1 with errno set as the kernel sets it; where the
 *         question cannot be asked (faccessat(3) says when), the errno
 *         faccessat2 was refused with.
 */
int faccessat(int dirfd, const char *pathname, int mode,
	      int flags) EXECVEAT_NOTHROW;

#ifdef __cplusplus
}
#endif

#endif /* EXECVEAT_H */
