/*
 * fexec --probe: test, without executing anything, each way libexecveat's
 * fexecve can run a program, with the same proofs the library demands.
 *
 * execveat: Linux 6.14+ has AT_EXECVE_CHECK, which makes execveat do every
 * check of a real exec and return 0 instead of executing; older kernels
 * reject the unknown flag with EINVAL (execveat has refused unknown flags
 * since 3.19). There we ask the kernel to resolve an empty path without
 * AT_EMPTY_PATH, which it always answers with ENOENT before looking at any
 * file. Either way, ENOSYS or EPERM is what a missing system call or a
 * seccomp policy says, and those are what make fexecve fall back.
 *
 * openat2: a call of size 0, which a kernel that has openat2 rejects with
 * EINVAL before looking at anything; ENOSYS or EPERM is a refusal, where
 * the library's openat2() resolves paths itself.
 *
 * proc: the library's own proof (src/proc/proc_fd_name.c, built into fexec
 * too), so that the answer is the one fexecve would get: the fd directory
 * (/proc/self/fd, or for a thread with a table of its own
 * /proc/thread-self/fd) must be on procfs, and its entry N the very file
 * (st_dev, st_ino) open at N.
 *
 * close_range and fchmodat2: calls that a kernel which has them rejects
 * with EINVAL before doing anything (first above last; flags it does not
 * know). Where either is refused, the line says which way the library's
 * closefrom or fchmodat goes instead, judged by the library's own proof
 * of the fd directory (src/proc/proc_fd_dir.c: procfs, and this very table).
 *
 * PIDFD_GET_INFO (Linux 6.13): the ioctl on a pidfd of fexec itself.
 * Where it fails (ENOTTY before 6.13, or a policy's refusal), the line
 * says whether pidfd_getpid() can read a proven fdinfo instead, judged by
 * the library's own proof (src/proc/pidfd_fdinfo.c).
 * freopen(NULL, mode, stream): which way the library's goes, from Linux
 * 7.2's O_EMPTYPATH (an fd's own file opened again, asked of the working
 * directory) and the proof of the proc line.
 * faccessat2 likewise, with a flag no kernel knows: where it is refused,
 * faccessat asks the old system call, and needs /proc only for most of
 * AT_EMPTY_PATH's questions with an empty path.
 */
#define _GNU_SOURCE
#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <sys/auxv.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "execveat.h"
#include "proc/proc_fd_name.h"
#include "proc/pidfd_fdinfo.h"
#include "proc/proc_fd_dir.h"

struct verdict {
	bool usable;
	char text[256];
};

/* If the kernel ever did execute, this argv makes fexec fail loudly. */
static char *const never_run_argv[] = { "fexec", "--probe-must-not-run", NULL };

static bool refusal(int err)
{
	return err == ENOSYS || err == EPERM;
}

static struct verdict refused_with(int err)
{
	struct verdict v = { .usable = false };

	snprintf(v.text, sizeof(v.text),
		 "%s (%s), refused by the kernel or a seccomp policy",
		 err == ENOSYS ? "ENOSYS" : "EPERM", strerror(err));
	return v;
}

static struct verdict usable_because(const char *why)
{
	struct verdict v = { .usable = true };

	snprintf(v.text, sizeof(v.text), "usable (%s)", why);
	return v;
}

/* 0 if the check passed, else the errno (EINVAL before Linux 6.14, which
 * does not know the flag). */
static int execve_check_self(void)
{
	const char *self = (const char *)getauxval(AT_EXECFN);
	int fd, err;

	if (self == NULL || (fd = open(self, O_RDONLY | O_CLOEXEC)) < 0)
		return EINVAL;
	err = execveat(fd, "", never_run_argv, environ,
		       AT_EMPTY_PATH | AT_EXECVE_CHECK) == 0 ? 0 : errno;
	close(fd);
	return err;
}

static struct verdict probe_execveat(void)
{
	int err = execve_check_self();

	if (err == 0)
		return usable_because("AT_EXECVE_CHECK passed on fexec itself");
	if (refusal(err))
		return refused_with(err);
	execveat(-1, "", never_run_argv, environ, 0);
	err = errno;
	if (refusal(err))
		return refused_with(err);
	return usable_because(err == ENOENT ?
		"no AT_EXECVE_CHECK, but an empty path got ENOENT" :
		"no AT_EXECVE_CHECK, but the system call answered");
}

__attribute__((format(printf, 2, 0)))
static struct verdict proc_verdict(bool usable, const char *fmt,
				   const char *detail)
{
	struct verdict v = { .usable = usable };

	snprintf(v.text, sizeof(v.text), fmt, detail);
	return v;
}

/* name->path without its last component: the fd directory. */
static const char *fd_dir_of(struct proc_fd_name *name)
{
	*strrchr(name->path, '/') = '\0';
	return name->path;
}

static struct verdict judge_proc_name(int fd)
{
	struct proc_fd_name name;

	switch (libexecveat_proc_fd_find(fd, &name)) {
	case PROC_FD_SAME_FILE:
		return proc_verdict(true, "usable (%s is procfs and names the"
				    " file open at the fd)", fd_dir_of(&name));
	case PROC_FD_NOT_OPEN:
		return proc_verdict(false, "the fd to test with is not open"
				    " (%s)", strerror(-name.err));
	case PROC_FD_NO_DIR:
		return proc_verdict(false, "/proc/self/fd is missing (%s)",
				    strerror(-name.err));
	case PROC_FD_NOT_PROCFS:
		return proc_verdict(false, "%s is not procfs",
				    fd_dir_of(&name));
	case PROC_FD_UNRESOLVED:
		return proc_verdict(false, "%s cannot be resolved", name.path);
	case PROC_FD_OTHER_FILE:
		break;
	}
	return proc_verdict(false, "%s names another file", name.path);
}

static struct verdict probe_proc(void)
{
	struct verdict v;
	int fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return proc_verdict(false, "cannot open a file to test with"
				    " (%s)", strerror(errno));
	v = judge_proc_name(fd);
	close(fd);
	return v;
}

static struct verdict probe_openat2(void)
{
	struct verdict v;
	int err;

	syscall(SYS_openat2, -1L, NULL, NULL, 0L);
	err = errno;
	if (!refusal(err))
		return usable_because("the system call answered");
	v = refused_with(err);
	strncat(v.text, "; openat2() resolves paths itself",
		sizeof(v.text) - strlen(v.text) - 1);
	return v;
}

/* Why no fd directory is proven here, or that one is. */
static const char *fd_dir_reason(void)
{
	enum proc_fd_dir_verdict verdict;
	int dir = libexecveat_proc_fd_dir_open(&verdict);

	if (dir >= 0)
		close(dir);
	switch (verdict) {
	case PROC_FD_DIR_PROVEN:
		return NULL;
	case PROC_FD_DIR_MISSING:
		return "/proc/self/fd is missing";
	case PROC_FD_DIR_NOT_PROCFS:
		return "/proc/self/fd is not procfs";
	case PROC_FD_DIR_OTHER_TABLE:
		return "/proc/self/fd lists another fd table";
	case PROC_FD_DIR_NO_FD:
		return "no fd is free to prove /proc/self/fd with";
	case PROC_FD_DIR_NO_WITNESS:
		break;
	}
	return "no pipe could be made to prove /proc/self/fd";
}

/* A refused call's line, with the way the library goes instead. */
static struct verdict refused_then(int err, const char *through_proc,
				   const char *without_proc)
{
	struct verdict v = refused_with(err);
	const char *reason = fd_dir_reason();
	size_t used = strlen(v.text);

	if (reason == NULL)
		snprintf(v.text + used, sizeof(v.text) - used, "; %s",
			 through_proc);
	else
		snprintf(v.text + used, sizeof(v.text) - used, "; %s (%s)",
			 without_proc, reason);
	return v;
}

static struct verdict probe_close_range(void)
{
	int err;

	syscall(SYS_close_range, 2L, 1L, 0L);
	err = errno;
	if (!refusal(err))
		return usable_because("the system call answered");
	return refused_then(err,
		"closefrom() reads /proc/self/fd, proven procfs and this table",
		"closefrom() asks every fd number up to its bound");
}

static struct verdict probe_fchmodat2(void)
{
	int err;

	syscall(452 /* fchmodat2: not in Debian 12's headers */, AT_FDCWD, "",
		0L, -1L);
	err = errno;
	if (!refusal(err))
		return usable_because("the system call answered");
	return refused_then(err,
		"fchmodat() changes modes through /proc/self/fd, proven procfs "
		"and this table",
		"fchmodat() opens regular files and directories again");
}

static const char *pidfd_fdinfo_reason(enum pidfd_fdinfo_verdict verdict)
{
	switch (verdict) {
	case PIDFD_FDINFO_PID:
		return NULL;
	case PIDFD_FDINFO_NO_PROC:
		return "no /proc";
	case PIDFD_FDINFO_NOT_PROCFS:
		return "/proc is not procfs";
	case PIDFD_FDINFO_NOT_SELF:
		return "/proc/self is not this process in its own pid namespace";
	case PIDFD_FDINFO_OTHER_FILE:
		return "the fdinfo file is not the fd's own";
	case PIDFD_FDINFO_NOT_PIDFD:
	case PIDFD_FDINFO_NOT_OPEN:
	case PIDFD_FDINFO_UNREADABLE:
		break;
	}
	return "the fdinfo file cannot be read";
}

static struct verdict probe_pidfd_get_info(void)
{
	struct { uint64_t mask, cgroupid; uint32_t pid, rest[11]; } info = {
		.mask = 1 /* PIDFD_INFO_PID */ };
	struct verdict v = { .usable = false };
	const char *reason;
	long pid;
	int err, own = (int)syscall(434 /* pidfd_open */, (long)getpid(), 0L);

	if (own < 0) {
		snprintf(v.text, sizeof(v.text), "no pidfd to ask (pidfd_open: "
			 "%s)", strerror(errno));
		return v;
	}
	if (ioctl(own, _IOWR(0xFF, 11, info), &info) == 0) {
		close(own);
		return usable_because("the ioctl answered");
	}
	reason = pidfd_fdinfo_reason(
		libexecveat_pidfd_fdinfo_pid(own, &pid, &err));
	close(own);
	if (reason == NULL)
		snprintf(v.text, sizeof(v.text), "unanswered (Linux before "
			 "6.13, or refused); pidfd_getpid() reads this thread's "
			 "fdinfo, proven procfs of this pid namespace");
	else
		snprintf(v.text, sizeof(v.text), "unanswered (Linux before "
			 "6.13, or refused); pidfd_getpid() answers ENOSYS (%s)",
			 reason);
	return v;
}

static const char *probe_freopen(bool proc_usable)
{
	int dir = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int reopened = dir < 0 ? -1 : openat(dir, "", O_RDONLY | O_DIRECTORY |
					     O_CLOEXEC | O_EMPTYPATH);
	bool emptypath = reopened >= 0;

	if (reopened >= 0)
		close(reopened);
	if (dir >= 0)
		close(dir);
	if (emptypath)
		return proc_usable
		       ? "the stream's file opened again by O_EMPTYPATH; another "
			 "access through the proven /proc/self/fd name"
		       : "the stream's file opened again by O_EMPTYPATH; another "
			 "access is EBADF";
	return proc_usable
	       ? "the C library's reopen of the proven /proc/self/fd name"
	       : "the open file kept, its flags changed; another access is "
		 "EBADF";
}

/* faccessat2 (Linux 5.8): a flag no kernel knows is EINVAL before any
 * path is looked at. */
static struct verdict probe_faccessat2(void)
{
	int err;

	syscall(SYS_faccessat2, (long)AT_FDCWD, "", 0L, 0x40000000L);
	err = errno;
	if (!refusal(err))
		return usable_because("the system call answered");
	return refused_then(err,
		"faccessat() asks the old faccessat system call, AT_EMPTY_PATH "
		"through /proc/self/fd, proven procfs and this table",
		"faccessat() asks the old faccessat system call; AT_EMPTY_PATH "
		"with \"\" where no /proc is needed, else the refusal");
}

int run_probe(void)
{
	struct verdict by_execveat = probe_execveat();
	struct verdict by_proc = probe_proc();
	struct verdict by_openat2 = probe_openat2();
	const char *choice = by_execveat.usable ? "execveat" :
			     by_proc.usable     ? "proc" :
						  "none";

	printf("execveat: %s\n", by_execveat.text);
	printf("proc: %s\n", by_proc.text);
	printf("fexecve uses: %s\n", choice);
	printf("openat2: %s\n", by_openat2.text);
	printf("close_range: %s\n", probe_close_range().text);
	printf("fchmodat2: %s\n", probe_fchmodat2().text);
	printf("PIDFD_GET_INFO: %s\n", probe_pidfd_get_info().text);
	printf("freopen(NULL): %s\n", probe_freopen(by_proc.usable));
	printf("faccessat2: %s\n", probe_faccessat2().text);
	return strcmp(choice, "none") == 0 ? 1 : 0;
}
