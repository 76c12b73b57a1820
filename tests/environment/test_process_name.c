/*
 * The process name (/proc/PID/comm) after fexecve, each way: what the
 * fallback cannot make the same. Since Linux 6.14 execveat names the new
 * process after the file's name ("cat"); execve of /proc/self/fd/N names
 * it after the last component of that path ("N"), as execveat itself did
 * before 6.14. The relation is asserted with the kernel version learned
 * at run time, and printed, so that a kernel that changes it is noticed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "execveat.h"
#include "execveat_refusal.h"
#include "fixture.h"
#include "hostile_env.h"

/* A program whose output is its own name. */
#define CAT "/bin/cat"
#define NAME_FD 7
#define NAME_FD_STR "7"

static int kernel_major, kernel_minor;

static bool kernel_at_least(int major, int minor)
{
	return kernel_major > major ||
	       (kernel_major == major && kernel_minor >= minor);
}

/* fexecve of cat at NAME_FD, in a child whose execveat fails with
 * execveat_errno (0: as this world has it); cat's output, newline cut. */
static const char *name_after_fexecve(int execveat_errno)
{
	static char name[64];
	char *argv[] = { "cat", "/proc/self/comm", NULL };
	int out[2], status, fd = open_or_fail(CAT, O_RDONLY | O_CLOEXEC);
	pid_t pid;

	assert_int_equal(pipe2(out, O_CLOEXEC), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (dup2(out[1], STDOUT_FILENO) < 0 || dup2(fd, NAME_FD) < 0 ||
		    (execveat_errno != 0 && block_execveat(execveat_errno) != 0))
			_exit(124);
		fexecve(NAME_FD, argv, child_envp);
		_exit(125);
	}
	close(out[1]);
	close(fd);
	read_to_end(out[0], name, sizeof(name));
	close(out[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	name[strcspn(name, "\n")] = '\0';
	return name;
}

static void process_name_after_execveat_is_file_name_since_6_14(void **state)
{
	const char *name;

	(void)state;
	name = name_after_fexecve(0);
	printf("Linux %d.%d: after execveat, comm is \"%s\"\n", kernel_major,
	       kernel_minor, name);
	assert_string_equal(name, kernel_at_least(6, 14) ? "cat" : NAME_FD_STR);
}

static void process_name_after_proc_fallback_is_fd_number(void **state)
{
	const char *name;

	(void)state;
	name = name_after_fexecve(ENOSYS);
	printf("Linux %d.%d: after the /proc fallback, comm is \"%s\"\n",
	       kernel_major, kernel_minor, name);
	assert_string_equal(name, NAME_FD_STR);
}

static void learn_kernel_version(void)
{
	struct utsname u;

	if (uname(&u) != 0 ||
	    sscanf(u.release, "%d.%d", &kernel_major, &kernel_minor) != 2) {
		fprintf(stderr, "cannot read the kernel version\n");
		exit(2);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(process_name_after_proc_fallback_is_fd_number),
		cmocka_unit_test(process_name_after_execveat_is_file_name_since_6_14),
	};
	size_t count = sizeof(tests) / sizeof(tests[0]);
	int refusal;

	fixture_init(argc, argv);
	require_hostile_env();
	learn_kernel_version();
	/* Where execveat is refused (qemu-user), no process is named by it. */
	refusal = execveat_refusal();
	if (refusal != 0) {
		printf("not here: %s: execveat fails with %s\n",
		       tests[count - 1].name, strerror(refusal));
		count--;
	}
	return _cmocka_run_group_tests("process-name", tests, count, NULL,
				       NULL);
}
