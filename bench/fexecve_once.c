/*
 * The subject of count-syscalls.sh: sets up one situation, marks the
 * moment in the trace with a write to fd -1, and calls the library's
 * fexecve once, so that every system call after the mark is fexecve's.
 *
 *   fexecve-once MODE PROGRAM [inherited | cloexec-script SCRIPT]
 *
 * MODE: fast (execveat allowed); enosys-first (execveat refused with
 * ENOSYS, the first call, which learns it); enosys-later (the same after
 * a vfork child has made the first call: the memory lives in the
 * library's, which the child shares); eperm-first and eperm-later (the
 * same refused with EPERM, which the first call proves to be the
 * policy's with a probe before it is remembered).
 *
 * The program's fd is close-on-exec, as most programs open their files,
 * unless "inherited" is given: the fallback asks a close-on-exec fd one
 * more question (is it a script, which execveat would refuse?).
 *
 * With "cloexec-script SCRIPT", the call is made with SCRIPT (a #! script)
 * open close-on-exec instead, which fexecve must refuse with ENOENT, as
 * execveat does; a second mark then ends fexecve's system calls, and the
 * exit status is 0 only for that ENOENT.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hostile_env.h"
#include "execveat.h"

#define MARK "fexecve-once: calling fexecve"
#define END_MARK "fexecve-once: fexecve returned"

static char *child_argv[] = { "exit-at-once", NULL };
static char *child_envp[] = { NULL };

static int learn_refusal_in_vfork_child(int fd)
{
	int status;
	pid_t pid = vfork();

	if (pid == 0) {
		fexecve(fd, child_argv, child_envp);
		_exit(127);
	}
	return pid > 0 && waitpid(pid, &status, 0) == pid &&
	       WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int set_up(const char *mode, int fd)
{
	int err = 0;

	if (strcmp(mode, "fast") == 0)
		return 1;
	if (strcmp(mode, "eperm-first") == 0 ||
	    strcmp(mode, "eperm-later") == 0)
		err = block_execveat(EPERM);
	else if (strcmp(mode, "enosys-first") == 0 ||
		 strcmp(mode, "enosys-later") == 0)
		err = block_execveat(ENOSYS);
	else
		return 0;
	if (err != 0) {
		fprintf(stderr, "seccomp: %s\n", strerror(err));
		return 0;
	}
	return strstr(mode, "-later") == NULL ||
	       learn_refusal_in_vfork_child(fd);
}

/* The script's fd, or -1 for the program's; exits on a bad command line. */
static int open_script_if_asked(int argc, char **argv, int *program_flags)
{
	int fd;

	if (argc == 3)
		return -1;
	if (argc == 4 && strcmp(argv[3], "inherited") == 0) {
		*program_flags = O_RDONLY;
		return -1;
	}
	if (argc == 5 && strcmp(argv[3], "cloexec-script") == 0 &&
	    (fd = open(argv[4], O_RDONLY | O_CLOEXEC)) >= 0)
		return fd;
	fprintf(stderr, "usage: %s MODE PROGRAM [inherited | cloexec-script "
		"SCRIPT]\n", argv[0]);
	exit(2);
}

int main(int argc, char **argv)
{
	int fd, flags = O_RDONLY | O_CLOEXEC;
	int script = open_script_if_asked(argc, argv, &flags);

	fd = open(argv[2], flags);
	if (fd < 0 || !set_up(argv[1], fd)) {
		fprintf(stderr, "%s: cannot set up %s\n", argv[0], argv[1]);
		return 2;
	}
	if (write(-1, MARK, sizeof(MARK) - 1) != -1)
		return 2;
	fexecve(script >= 0 ? script : fd, child_argv, child_envp);
	if (script >= 0) {
		int err = errno;

		/* _exit: LeakSanitizer's exit-time check cannot run under
		 * strace, and a sanitizer build gets here too. */
		if (write(-1, END_MARK, sizeof(END_MARK) - 1) != -1)
			_exit(2);
		if (err == ENOENT)
			_exit(0);
		fprintf(stderr, "fexecve: %s\n", strerror(err));
		_exit(1);
	}
	perror("fexecve");
	return 1;
}
