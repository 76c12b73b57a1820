/*
 * Given an fd whose flag FD_CLOEXEC is set, execveat runs a binary but
 * refuses a "#!" script with ENOENT (Linux 3.19+, fs/binfmt_script.c): the
 * interpreter would be told to open /dev/fd/N, which the exec has closed.
 * execve of the fd's /proc name cannot know the name came from an fd: it
 * starts the interpreter, which then fails to open its script. So the
 * fallback looks first, and refuses as execveat would.
 *
 * The kernel checks exec permission before it reads the file; a file
 * nobody may execute is left to execve, which says EACCES as execveat
 * would.
 */
#include <fcntl.h>
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

bool libexecveat_is_cloexec_script(int fd, const struct proc_fd_name *name)
{
	int fd_flags = sys_fcntl_getfd(fd);

	return fd_flags >= 0 && (fd_flags & FD_CLOEXEC) != 0 &&
	       anyone_may_execute(name->mode) &&
	       starts_with_hash_bang(fd, name->path);
}
