/*
 * The execveat() wrapper: the system call, plus the 2014 draft's NULL path.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "execveat.h"
#include "exec_outcome.h"
#include "fixture.h"
#include "unchecked_calls.h"
#include "suite.h"

struct execveat_call {
	int dirfd;
	const char *path;
	int flags;
};

static void call_library_execveat(void *ctx)
{
	struct execveat_call *c = ctx;

	execveat_unchecked(c->dirfd, c->path, child_argv, child_envp,
			   c->flags);
}

static void call_raw_syscall(void *ctx)
{
	struct execveat_call *c = ctx;

	syscall(SYS_execveat, (long)c->dirfd, (long)(uintptr_t)c->path,
		(long)(uintptr_t)child_argv, (long)(uintptr_t)child_envp,
		(long)c->flags);
}

static void null_path_runs_file_behind_fd(void **state)
{
	(void)state;
	struct execveat_call c = { open_or_fail(report_args_path, O_RDONLY),
				   NULL, 0 };

	assert_execveat_ran(run_in_child(NULL, call_library_execveat, &c),
			   CHILD_STATUS);
	close(c.dirfd);
}

static void null_path_keeps_other_flags(void **state)
{
	(void)state;
	struct execveat_call c = { open_or_fail(report_args_path, O_RDONLY),
				   NULL, AT_SYMLINK_NOFOLLOW };

	assert_execveat_ran(run_in_child(NULL, call_library_execveat, &c),
			   CHILD_STATUS);
	close(c.dirfd);
}

static void null_path_is_efault_for_the_kernel(void **state)
{
	(void)state;
	struct execveat_call c = { open_or_fail(report_args_path, O_RDONLY),
				   NULL, AT_EMPTY_PATH };

	/* The control: mainline rejects NULL, so the wrapper is what runs it. */
	assert_execveat_failed(run_in_child(NULL, call_raw_syscall, &c),
			       EFAULT);
	close(c.dirfd);
}

static void empty_path_with_at_empty_path_runs_fd(void **state)
{
	(void)state;
	struct execveat_call c = { open_or_fail(report_args_path, O_RDONLY),
				   "", AT_EMPTY_PATH };

	assert_execveat_ran(run_in_child(NULL, call_library_execveat, &c),
			   CHILD_STATUS);
	close(c.dirfd);
}

static void empty_path_without_at_empty_path_fails_enoent(void **state)
{
	(void)state;
	struct execveat_call c = { open_or_fail(report_args_path, O_RDONLY),
				   "", 0 };

	assert_execveat_failed(run_in_child(NULL, call_library_execveat, &c),
			   ENOENT);
	close(c.dirfd);
}

static void absolute_path_runs_program(void **state)
{
	(void)state;
	struct execveat_call c = { AT_FDCWD, report_args_path, 0 };

	assert_execveat_ran(run_in_child(NULL, call_library_execveat, &c),
			   CHILD_STATUS);
}

static void unknown_flags_fail_einval(void **state)
{
	(void)state;
	struct execveat_call c = { open_or_fail(report_args_path, O_RDONLY),
				   "", 0xFFFF };

	assert_execveat_failed(run_in_child(NULL, call_library_execveat, &c),
			   EINVAL);
	c.path = NULL;
	assert_execveat_failed(run_in_child(NULL, call_library_execveat, &c),
			   EINVAL);
	close(c.dirfd);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(null_path_runs_file_behind_fd),
	cmocka_unit_test(null_path_keeps_other_flags),
	cmocka_unit_test(null_path_is_efault_for_the_kernel),
	cmocka_unit_test(empty_path_with_at_empty_path_runs_fd),
	cmocka_unit_test(empty_path_without_at_empty_path_fails_enoent),
	cmocka_unit_test(absolute_path_runs_program),
	cmocka_unit_test(unknown_flags_fail_einval),
};

int main(int argc, char **argv)
{
	fixture_init(argc, argv);
	return RUN_SUITE(tests, NULL, NULL);
}
