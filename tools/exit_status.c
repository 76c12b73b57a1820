/*
 * Exit statuses as POSIX shells give them (127: not found, 126: found but
 * not executable), so that fexec can stand in a script where the program
 * itself would have been named.
 */
#include "exit_status.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static bool path_exists(const struct exec_target *target)
{
	struct stat st;

	return fstatat(target->dirfd, target->name, &st, 0) == 0;
}

/*
 * ENOENT from an exec is not always about the file: the kernel also gives
 * it for a missing interpreter (#! line or ELF PT_INTERP), and for a script
 * whose own name would be gone after the exec (an fd or directory fd with
 * close-on-exec set, as /dev/fd/N).
 */
static bool file_missing(const struct exec_target *target, int err)
{
	if (target->by_fd)
		return false;
	if (err == ENOTDIR)
		return true;
	return err == ENOENT && !path_exists(target);
}

/*
 * AT_EXECVE_CHECK cannot be asked: a kernel before 6.14 rejects the flag
 * with EINVAL, and where execveat itself is refused, nothing can answer
 * for the kernel. Either way the file was not judged.
 */
static bool check_unanswered(const struct exec_target *target, int err)
{
	return target->check && (err == EINVAL || err == ENOSYS || err == EPERM);
}

static const char *explanation(const struct exec_target *target, int err)
{
	if (target->check && err == EINVAL)
		return " (the kernel has no AT_EXECVE_CHECK: Linux 6.14 added"
		       " it, and no fallback can answer for the kernel)";
	if (check_unanswered(target, err))
		return " (execveat is refused here, and no fallback can answer"
		       " for the kernel)";
	if (err == ELOOP && target->nofollow)
		return " (a symbolic link, refused by --nofollow)";
	if (err == ENOENT && !file_missing(target, err))
		return " (the file exists: its interpreter is missing, or it is"
		       " a script whose name is gone after the exec)";
	if (target->by_fd && (err == ENOSYS || err == EPERM))
		return " (execveat is refused here, and there is no verified"
		       " /proc to fall back on)";
	if (err == ENOSYS || err == EPERM)
		return " (execveat is refused here, by the kernel or a seccomp"
		       " policy)";
	return "";
}

int report_exec_failure(const struct exec_target *target, int err)
{
	fprintf(stderr, "fexec: %s: %s%s\n", target->name, strerror(err),
		explanation(target, err));
	if ((target->by_fd && err == EBADF) || check_unanswered(target, err))
		return EXIT_USAGE;
	return file_missing(target, err) ? EXIT_NOT_FOUND : EXIT_CANNOT_EXEC;
}

int report_usage_error(const char *message, const char *detail)
{
	if (detail != NULL)
		fprintf(stderr, "fexec: %s: %s (see fexec --help)\n", message,
			detail);
	else
		fprintf(stderr, "fexec: %s (see fexec --help)\n", message);
	return EXIT_USAGE;
}
