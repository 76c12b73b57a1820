/*
 * errno on the calls that return success: execveat with AT_EXECVE_CHECK
 * (Linux 6.14) makes the exec's checks and returns 0 without executing.
 * The library must leave errno as it found it, in every form of the call.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "exec_outcome.h"
#include "execveat.h"
#include "fixture.h"
#include "fixture_dir.h"
#include "library_calls.h"
#include "suite.h"

/* No call sets errno to this: it is not an errno. */
#define UNTOUCHED 0x5eed

struct check_call {
	int dirfd;
	const char *path;
	int flags;
};

static struct fixture_dir dir;

/*
 * Reports errno after a call that returned 0, which must still be
 * UNTOUCHED; a call that failed reports its own errno (never UNTOUCHED).
 */
static void call_with_errno_set(void *ctx)
{
	const struct check_call *c = ctx;
	int rc;

	errno = UNTOUCHED;
	rc = call_execveat(c->dirfd, c->path, child_argv, child_envp, c->flags);
	if (rc != 0 && errno == UNTOUCHED)
		errno = 0;
}

static void assert_errno_untouched(int dirfd, const char *path, int flags)
{
	struct check_call c = { dirfd, path, flags | AT_EXECVE_CHECK };

	assert_exec_failed(run_in_child(NULL, call_with_errno_set, &c),
			   UNTOUCHED);
}

static void null_path_check_leaves_errno(void **state)
{
	(void)state;
	int fd = openat(dir.dfd, FIXTURE_PROGRAM, O_RDONLY);

	assert_true(fd >= 0);
	assert_errno_untouched(fd, NULL, 0);
	close(fd);
}

static void empty_path_check_leaves_errno(void **state)
{
	(void)state;
	int fd = openat(dir.dfd, FIXTURE_PROGRAM, O_RDONLY);

	assert_true(fd >= 0);
	assert_errno_untouched(fd, "", AT_EMPTY_PATH);
	close(fd);
}

static void relative_path_check_leaves_errno(void **state)
{
	(void)state;
	assert_errno_untouched(dir.dfd, FIXTURE_PROGRAM, 0);
}

static void script_check_leaves_errno(void **state)
{
	(void)state;
	assert_errno_untouched(dir.dfd, FIXTURE_SCRIPT, 0);
}

static void call_raw_execveat_with_check_flag(void *ctx)
{
	char *argv[] = { "sh", NULL }, *envp[] = { NULL };

	(void)ctx;
	syscall(SYS_execveat, (long)AT_FDCWD, (long)(uintptr_t)"/bin/sh",
		(long)(uintptr_t)argv, (long)(uintptr_t)envp,
		(long)AT_EXECVE_CHECK);
}

/* A kernel before 6.14 refuses the flag with EINVAL. Anything else (it
 * returned, or a program ran) is for the tests to judge. */
static void require_execve_check(void)
{
	struct exec_outcome o = run_in_child(NULL, call_raw_execveat_with_check_flag, NULL);

	if (o.exec_returned && o.exec_errno == EINVAL) {
		puts("SKIP: the kernel has no AT_EXECVE_CHECK (Linux 6.14+)");
		exit(77);
	}
}

static int make_fixtures(void **state)
{
	(void)state;
	fixture_dir_create(&dir);
	return 0;
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(null_path_check_leaves_errno),
	cmocka_unit_test(empty_path_check_leaves_errno),
	cmocka_unit_test(relative_path_check_leaves_errno),
	cmocka_unit_test(script_check_leaves_errno),
};

int main(int argc, char **argv)
{
	int failed;

	fixture_init(argc, argv);
	require_execve_check();
	failed = RUN_SUITE(tests, make_fixtures, NULL);
	return fixture_dir_remove(&dir) == 0 ? failed : 1;
}
