/*
 * faccessat's question about the file open at dirfd itself (AT_EMPTY_PATH
 * with ""), or about the working directory (AT_FDCWD), where faccessat2
 * is refused: the old faccessat has no empty path, so the question is
 * asked of something else that asks the same, the first of these that
 * does:
 *
 * 1. F_OK: the lookup found the file, and the kernel's check with no
 *    access bit always passes (generic_permission; the security modules
 *    judge read, write and execute only): 0.
 * 2. The file's /proc name (/proc/self/fd/N or the thread's, or
 *    /proc/thread-self/cwd), proven on procfs and the very file (device
 *    and inode): the kernel follows it to the fd's own file and mount.
 * 3. A directory, through ".": the same file on the same mount, whose
 *    lookup needs search permission on the directory, which the empty
 *    path does not. So "." is asked X_OK first: granted, "." asks the
 *    same question; refused, that EACCES is the answer for a mode with
 *    X_OK (the same search permission) and without W_OK (whose checks
 *    come first: EROFS on a read-only filesystem, EPERM on an immutable
 *    directory); no other mode can be asked.
 * 4. X_OK alone of a regular file, where the lookups are the question's
 *    and the caller lets the file be opened (not where a refusal is only
 *    remembered, call_refused.h):
 *    execveat's AT_EXECVE_CHECK (Linux 6.14), the permission checks of an
 *    exec (filesystem IDs, effective capabilities, a noexec mount), with
 *    nothing run. Its open has effects a permission check lacks: it
 *    breaks another process's write lease (F_SETLEASE: the holder gets
 *    the lease-break signal), and for a moment makes others' opens for
 *    writing fail ETXTBSY. Neither can happen where dirfd is open for
 *    writing and holds no lease: no other process can hold a lease on a
 *    file open for writing (a read lease needs no writer, a write lease
 *    no writer but its own), and the check, which cannot deny writes
 *    while one is open, answers ETXTBSY after its permission checks, an
 *    "allowed". It is taken only there. Its file is never in the fd
 *    table, so no record lock is dropped; inotify and fanotify see an
 *    open.
 *
 * Linux 7.2's O_EMPTYPATH could reopen the file to ask R_OK and W_OK; it
 * is not taken. The close of a reopened fd drops every POSIX record lock
 * the process holds on the file, and the only state in which the open
 * breaks no lease (the file open for writing here) is the one in which
 * the process may hold them; and an open for writing makes inotify
 * report a write (IN_CLOSE_WRITE) that never happened.
 */
#define _GNU_SOURCE
#include "access_empty_path.h"

#include <errno.h>
#include <fcntl.h>

#include "execveat.h" /* AT_EXECVE_CHECK */
#include "../fd_table/fd_held.h"
#include "../proc/proc_fd_name.h"
#include "../syscalls/fds.h"
#include "../syscalls/files.h"
#include "../syscalls/process.h"

/* Step 2: 1 where no name is proven. */
static int ask_proc_name(int dirfd, int mode)
{
	struct proc_fd_name name;
	enum proc_fd_verdict verdict =
		dirfd == AT_FDCWD ? libexecveat_proc_cwd_find(&name) :
		dirfd >= 0	  ? libexecveat_proc_fd_find(dirfd, &name) :
				    PROC_FD_NOT_OPEN;

	if (verdict != PROC_FD_SAME_FILE)
		return 1;
	return sys_faccessat(AT_FDCWD, name.path, mode);
}

/* Step 3. */
static int ask_dot(int dirfd, int mode)
{
	int r = sys_faccessat(dirfd, ".", X_OK);

	if (r == 0)
		return mode == X_OK ? 0 : sys_faccessat(dirfd, ".", mode);
	if (r == -EACCES && (mode & X_OK) && !(mode & W_OK))
		return r;
	return ACCESS_CANNOT_ASK;
}

/* Step 4: where it may be taken. */
static int ask_exec_check(int fd)
{
	static char *const no_args[] = { "", NULL };
	static char *const no_env[] = { NULL };
	int flags = sys_fcntl_getfl(fd), r;

	if (flags < 0 || !libexecveat_fd_flags_write(flags) ||
	    sys_fcntl_getlease(fd) != F_UNLCK)
		return ACCESS_CANNOT_ASK;
	r = sys_execveat(fd, "", no_args, no_env,
			 AT_EMPTY_PATH | AT_EXECVE_CHECK);
	if (r == 0 || r == -ETXTBSY)
		return 0;
	/* EACCES: refused. Anything else is no answer: EINVAL from a
	 * kernel before 6.14, a refused execveat, RLIMIT_NPROC's EAGAIN. */
	return r == -EACCES ? r : ACCESS_CANNOT_ASK;
}

int libexecveat_access_empty_path(int dirfd, mode_t type, int mode,
				  bool may_open)
{
	int rc;

	if (mode == F_OK)
		return 0;
	rc = ask_proc_name(dirfd, mode);
	if (rc != 1)
		return rc;
	if (S_ISDIR(type))
		return ask_dot(dirfd, mode);
	if (S_ISREG(type) && mode == X_OK && may_open && dirfd != AT_FDCWD)
		return ask_exec_check(dirfd);
	return ACCESS_CANNOT_ASK;
}
