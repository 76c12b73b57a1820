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
 * script that someone may execute, the kernel is asked whether the caller
 * may (faccessat2, Linux 5.8+): it weighs what the mode bits cannot show,
 * the effective IDs, a noexec mount, security modules.
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

#include "cloexec_script.h"
#include "sys.h"

static bool anyone_may_execute(mode_t mode)
{
	return S_ISREG(mode) && (mode & (S_IXUSR | S_IXGRP | S_IXOTH)) != 0;
}

/* The first two bytes of the file, read without moving the fd's offset.
 * An O_PATH fd cannot be read: then the proven name is opened. */
static bool starts_with_hash_bang(int fd, const char *proven_name)
{
	char head[2];
	int n = sys_pread_start(fd, head, sizeof(head));

	if (n < 0) {
		int reopened = sys_open_read(proven_name);

		if (reopened < 0)
			return false;
		n = sys_pread_start(reopened, head, sizeof(head));
		sys_close(reopened);
	}
	return n == 2 && head[0] == '#' && head[1] == '!';
}

/*
 * What execveat would say of a close-on-exec script: EACCES (or the
 * kernel's other refusal) where the caller may not execute it, else
 * ENOENT. Where faccessat2 itself is refused (ENOSYS: before 5.8, or a
 * seccomp policy that does not know it; EPERM: a policy; EINVAL: an
 * implementation that does not take these flags), the mode bits have
 * spoken already: someone may execute it, and ENOENT it is.
 */
static int script_refusal(int fd)
{
	int err;

	if (sys_faccessat2_exec(fd) == 0)
		return ENOENT;
	err = errno;
	if (err == ENOSYS || err == EPERM || err == EINVAL)
		return ENOENT;
	return err;
}

int libexecveat_cloexec_script_refusal(int fd, const struct proc_fd_name *name)
{
	int fd_flags = sys_fcntl_getfd(fd);

	if (fd_flags < 0 || (fd_flags & FD_CLOEXEC) == 0 ||
	    !anyone_may_execute(name->mode) ||
	    !starts_with_hash_bang(fd, name->path))
		return 0;
	return script_refusal(fd);
}
