/*
 * Given an fd whose flag FD_CLOEXEC is set, execveat runs a binary but
 * refuses a "#!" script with ENOENT (Linux 3.19+, fs/binfmt_script.c): the
 * interpreter would be told to open /dev/fd/N, which the exec has closed.
 * execve of the fd's /proc name cannot know the name came from an fd: it
 * starts the interpreter, which then fails to open its script. So the
 * fallback looks first, and refuses as execveat would.
 *
 * The kernel checks exec permission before it reads the file, so a script
 * the caller may not execute gets EACCES, not ENOENT. A file nobody may
 * execute is left to execve, which says EACCES as execveat would. For a
 * script that someone may execute, the library's faccessat asks whether
 * the caller may (faccessat2, Linux 5.8+, and where that is refused the
 * old faccessat of the proven /proc name): it weighs what the mode bits
 * cannot show, the effective IDs, a noexec mount, security modules.
 *
 * execveat refuses every close-on-exec fd that binfmt_misc would hand to
 * an interpreter (qemu-user and the like) with ENOENT too. That is not
 * looked for: it would mean reading /proc/sys/fs/binfmt_misc and matching
 * each entry against the file on every close-on-exec fallback, binaries
 * included, for a table a sandbox may hide or replace; and entries with
 * the flag O run such an fd by its /proc name. See fexecve(3), BUGS.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <sys/stat.h>

#include "../access/access_fallback.h"
#include "cloexec_script.h"
#include "../fd_table/fd_held.h"
#include "../syscalls/fds.h"
#include "../syscalls/files.h"

static bool anyone_may_execute(mode_t mode)
{
	return S_ISREG(mode) && (mode & (S_IXUSR | S_IXGRP | S_IXOTH)) != 0;
}

static bool is_hash_bang(const char head[2], int n)
{
	return n == 2 && head[0] == '#' && head[1] == '!';
}

/* What execveat would make of the file, where it could be read. */
enum script_verdict { NOT_A_SCRIPT, A_SCRIPT };

static int verdict_of(const char head[2], int n)
{
	return is_hash_bang(head, n) ? A_SCRIPT : NOT_A_SCRIPT;
}

/*
 * read_as_script for an fd that cannot be read (O_PATH): through another
 * fd of the process that reads the file, or the proven name opened where
 * none holds it open to read or write.
 */
static int read_through_another_fd(int fd, const char *proven_name)
{
	struct fd_holders holders;
	struct stat st;
	char head[2];
	int n, reopened;

	if (sys_fstat(fd, &st) != 0)
		return NOT_A_SCRIPT;
	holders = libexecveat_fd_holders(&st);
	if (holders.writing)
		return NOT_A_SCRIPT;
	if (holders.reading != -1)
		return verdict_of(head, sys_pread_start(holders.reading, head,
							sizeof(head)));
	reopened = sys_open_read(proven_name);
	if (reopened < 0)
		return reopened == -EMFILE || reopened == -ENFILE ?
			       reopened :
			       NOT_A_SCRIPT;
	n = sys_pread_start(reopened, head, sizeof(head));
	sys_close(reopened);
	return verdict_of(head, n);
}

/*
 * A_SCRIPT where execveat would read the file as a script, NOT_A_SCRIPT
 * where it would not, -EMFILE (or -ENFILE) where no fd is free to look:
 * the answer cannot be
 * known, and an exec of a script's name would start an interpreter that
 * cannot open it.
 *
 * An exec refuses a file open for writing (ETXTBSY) before it reads it
 * (Linux 5.10 to 7.3, tests/kernels): where fd itself writes, that is
 * left to execve, which answers the same.
 *
 * The first two bytes are read without moving any fd's offset: through fd
 * where it reads (one system call for a binary, as before the question
 * of locks), else through another fd of the process that holds the file
 * open for reading. Only where no fd holds it open to read or write is
 * the proven name opened, and closed again: a close of an fd of a file
 * the process holds open otherwise would drop its record locks on the
 * file (fd_held.h), as execveat never does. That search also sees the
 * process's fds that write the file; for an fd that reads, the other
 * fds are not searched (fexecve(3), NOTES, Scripts).
 */
static int read_as_script(int fd, const char *proven_name)
{
	char head[2];
	int n = sys_pread_start(fd, head, sizeof(head)), flags;

	if (n >= 0 && !is_hash_bang(head, n))
		return NOT_A_SCRIPT;
	flags = sys_fcntl_getfl(fd);
	if (flags < 0 || libexecveat_fd_flags_write(flags))
		return NOT_A_SCRIPT;
	return n >= 0 ? A_SCRIPT : read_through_another_fd(fd, proven_name);
}

/*
 * What execveat would say of a close-on-exec script: -EACCES (or the
 * kernel's other refusal) where the caller may not execute it, else
 * -ENOENT. Where it cannot be asked (faccessat2 refused, ENOSYS or EPERM,
 * and its fallback cannot ask either; EINVAL: an implementation that
 * does not take these flags), the mode bits have spoken already: someone
 * may execute it, and ENOENT it is.
 */
static int script_refusal(int fd)
{
	int r = libexecveat_faccessat_policy(fd, "", X_OK,
					     AT_EACCESS | AT_EMPTY_PATH);

	if (r == 0 || r == -ENOSYS || r == -EPERM || r == -EINVAL)
		return -ENOENT;
	return r;
}

int libexecveat_cloexec_script_refusal(int fd, const struct proc_fd_name *name)
{
	int fd_flags = sys_fcntl_getfd(fd), script;

	if (fd_flags < 0 || (fd_flags & FD_CLOEXEC) == 0 ||
	    !anyone_may_execute(name->mode))
		return 0;
	script = read_as_script(fd, name->path);
	return script == A_SCRIPT ? script_refusal(fd) : script;
}
