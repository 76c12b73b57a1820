/*
 * The raw system calls on processes (call.h says how they answer): exec,
 * pidfds, this process's ids and capabilities, a child's wait, the
 * signal mask, and what the kernel says of itself.
 */
#ifndef EXECVEAT_SYSCALLS_PROCESS_H
#define EXECVEAT_SYSCALLS_PROCESS_H

#include <stdint.h>
#include <sys/types.h>

#include "call.h"

static inline int sys_execveat(int dirfd, const char *path, char *const argv[],
			       char *const envp[], int flags)
{
	return (int)sys_call(EXECVEAT_NR, (long)dirfd, SYS_ARG_PTR(path),
			     SYS_ARG_PTR(argv), SYS_ARG_PTR(envp), (long)flags,
			     0L);
}

static inline int sys_execve(const char *path, char *const argv[],
			     char *const envp[])
{
	return (int)sys_call(SYS_execve, SYS_ARG_PTR(path), SYS_ARG_PTR(argv),
			     SYS_ARG_PTR(envp), 0L, 0L, 0L);
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

#endif /* EXECVEAT_SYSCALLS_PROCESS_H */
