/*
 * Bad input to both calls: fds that are not programs or not open at all,
 * missing argv or envp, an argv too large for the kernel, unknown flags.
 * Each gets its documented errno, and nothing runs; the one exception is
 * execveat's NULL argv or envp, which it passes to the kernel untouched,
 * and the kernel runs the program with an empty list. Where execveat is
 * refused (qemu-user), its calls get that refusal instead.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
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

#define KNOWN_FLAGS (AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH | AT_EXECVE_CHECK)

/* The status report_args gives when IN_TEST=yes is missing, or when it
 * was not given exactly one argument (tests/programs/report_args.c). */
#define NO_ENVIRONMENT_STATUS 3
#define WRONG_ARGC_STATUS 4

enum call { EXECVEAT_NULL_PATH, EXECVEAT_EMPTY_PATH, FEXECVE };

struct bad_call {
	enum call call;
	int fd;
	char *const *argv;
	char *const *envp;
	int flags;
};


static struct fixture_dir dir;

static void make_call(void *ctx)
{
	const struct bad_call *c = ctx;

	switch (c->call) {
	case EXECVEAT_NULL_PATH:
		call_execveat(c->fd, NULL, c->argv, c->envp, c->flags);
		break;
	case EXECVEAT_EMPTY_PATH:
		call_execveat(c->fd, "", c->argv, c->envp,
			      c->flags | AT_EMPTY_PATH);
		break;
	case FEXECVE:
		call_fexecve(c->fd, c->argv, c->envp);
		break;
	}
}

static struct exec_outcome run_call(enum call call, int fd, int flags)
{
	struct bad_call c = { call, fd, child_argv, child_envp, flags };

	return run_in_child(NULL, make_call, &c);
}

/* Both of execveat's ways to name the fd, then fexecve. */
static void assert_each_call_fails(int fd, int execveat_errno,
				   int fexecve_errno)
{
	assert_execveat_failed(run_call(EXECVEAT_NULL_PATH, fd, 0),
			       execveat_errno);
	assert_execveat_failed(run_call(EXECVEAT_EMPTY_PATH, fd, 0),
			       execveat_errno);
	assert_exec_failed(run_call(FEXECVE, fd, 0), fexecve_errno);
}

static int program_fd(void)
{
	char path[PATH_MAX];

	return open_or_fail(fixture_path(&dir, FIXTURE_PROGRAM, path),
			    O_RDONLY);
}

/* fexecve refuses a negative fd itself, as POSIX and glibc do. */
static void fd_minus_one_fails_ebadf_or_einval(void **state)
{
	(void)state;
	assert_each_call_fails(-1, EBADF, EINVAL);
}

static void closed_fd_fails_ebadf(void **state)
{
	(void)state;
	int fd = program_fd();

	close(fd);
	assert_each_call_fails(fd, EBADF, EBADF);
}

static void fd_99_fails_ebadf(void **state)
{
	(void)state;
	assert_true(fcntl(99, F_GETFD) == -1 && errno == EBADF);
	assert_each_call_fails(99, EBADF, EBADF);
}

static void fd_int_max_fails_ebadf(void **state)
{
	(void)state;
	assert_each_call_fails(INT_MAX, EBADF, EBADF);
}

static void directory_fails_eacces(void **state)
{
	(void)state;
	assert_each_call_fails(dir.dfd, EACCES, EACCES);
}

static void pipe_fails_eacces(void **state)
{
	(void)state;
	int fds[2];

	assert_int_equal(pipe(fds), 0);
	assert_each_call_fails(fds[0], EACCES, EACCES);
	assert_each_call_fails(fds[1], EACCES, EACCES);
	close(fds[0]);
	close(fds[1]);
}

static void socket_fails_eacces(void **state)
{
	(void)state;
	int fds[2];

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
	assert_each_call_fails(fds[0], EACCES, EACCES);
	close(fds[0]);
	close(fds[1]);
}

/* O_PATH reaches the file without opening it; a directory still does
 * not run. */
static void o_path_directory_fails_eacces(void **state)
{
	(void)state;
	int fd = open_or_fail(dir.path, O_PATH | O_DIRECTORY);

	assert_each_call_fails(fd, EACCES, EACCES);
	close(fd);
}

/*
 * execveat passes argv to the kernel untouched, and since Linux 5.18 the
 * kernel runs a program given no argv with argv = { "" }: argc is 1, so
 * report_args says "wrong argc". fexecve refuses NULL itself.
 */
static void null_argv_runs_with_empty_argv_or_einval(void **state)
{
	(void)state;
	int fd = program_fd();
	struct bad_call c = { EXECVEAT_NULL_PATH, fd, NULL, child_envp, 0 };

	assert_execveat_ran(run_in_child(NULL, make_call, &c),
			    WRONG_ARGC_STATUS);
	c.call = FEXECVE;
	assert_exec_failed(run_in_child(NULL, make_call, &c), EINVAL);
	close(fd);
}

/* The kernel takes a NULL envp as an empty environment. */
static void null_envp_runs_with_empty_env_or_einval(void **state)
{
	(void)state;
	int fd = program_fd();
	struct bad_call c = { EXECVEAT_NULL_PATH, fd, child_argv, NULL, 0 };

	assert_execveat_ran(run_in_child(NULL, make_call, &c),
			    NO_ENVIRONMENT_STATUS);
	c.call = FEXECVE;
	assert_exec_failed(run_in_child(NULL, make_call, &c), EINVAL);
	close(fd);
}

/* One argument longer than the kernel's MAX_ARG_STRLEN (32 pages). E2BIG
 * is about the arguments, so fexecve must not try /proc with them. */
#define MAX_ARG_STRLEN (32 * 4096) /* <linux/binfmts.h>, 4 KiB pages */

static void oversized_argument_fails_e2big(void **state)
{
	(void)state;
	static char huge[MAX_ARG_STRLEN + 1]; /* + its NUL: one byte over */
	char *argv[] = { "report_args", huge, NULL };
	int fd = program_fd();

	assert_int_equal(sysconf(_SC_PAGESIZE), 4096);
	memset(huge, 'a', sizeof(huge) - 1);
	for (enum call call = EXECVEAT_NULL_PATH; call <= FEXECVE; call++) {
		struct bad_call c = { call, fd, argv, child_envp, 0 };
		struct exec_outcome o = run_in_child(NULL, make_call, &c);

		if (call == FEXECVE)
			assert_exec_failed(o, E2BIG);
		else
			assert_execveat_failed(o, E2BIG);
	}
	close(fd);
}

/* Each bit the kernel does not know, one at a time and all together. */
static void every_unknown_flag_fails_einval(void **state)
{
	(void)state;
	int fd = program_fd();

	for (int bit = 0; bit < 32; bit++) {
		int flag = (int)(1U << bit);

		if (flag & KNOWN_FLAGS)
			continue;
		assert_execveat_failed(run_call(EXECVEAT_NULL_PATH, fd, flag),
				       EINVAL);
		assert_execveat_failed(run_call(EXECVEAT_EMPTY_PATH, fd, flag),
				       EINVAL);
	}
	assert_execveat_failed(run_call(EXECVEAT_NULL_PATH, fd, ~KNOWN_FLAGS),
			       EINVAL);
	assert_execveat_failed(run_call(EXECVEAT_EMPTY_PATH, fd, ~KNOWN_FLAGS),
			       EINVAL);
	close(fd);
}

static int make_fixtures(void **state)
{
	(void)state;
	fixture_dir_create(&dir);
	return 0;
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(fd_minus_one_fails_ebadf_or_einval),
	cmocka_unit_test(closed_fd_fails_ebadf),
	cmocka_unit_test(fd_99_fails_ebadf),
	cmocka_unit_test(fd_int_max_fails_ebadf),
	cmocka_unit_test(directory_fails_eacces),
	cmocka_unit_test(pipe_fails_eacces),
	cmocka_unit_test(socket_fails_eacces),
	cmocka_unit_test(o_path_directory_fails_eacces),
	cmocka_unit_test(null_argv_runs_with_empty_argv_or_einval),
	cmocka_unit_test(null_envp_runs_with_empty_env_or_einval),
	cmocka_unit_test(oversized_argument_fails_e2big),
	cmocka_unit_test(every_unknown_flag_fails_einval),
};

int main(int argc, char **argv)
{
	int failed;

	fixture_init(argc, argv);
	failed = RUN_SUITE(tests, make_fixtures, NULL);
	return fixture_dir_remove(&dir) == 0 ? failed : 1;
}
