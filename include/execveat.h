/*
 * libexecveat: execveat() for every libc, and an fexecve() that works
 * without /proc.
 *
 * Link with -lexecveat (pkg-config: execveat), or preload libexecveat.so.1
 * to replace fexecve() in programs that were built against glibc.
 */
#ifndef EXECVEAT_H
#define EXECVEAT_H

/* <unistd.h> first: glibc 2.34+ declares both functions there, and ours
 * must come after it and match it exactly, exception specification and all. */
#include <fcntl.h>
#include <unistd.h>

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

#ifdef __cplusplus
}
#endif

#endif /* EXECVEAT_H */
