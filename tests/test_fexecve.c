/*
 * fexecve(): execveat first, a verified /proc name of the fd only when
 * execveat is refused, and nothing at all when /proc cannot be trusted.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
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
#include "hostile_env.h"
#include "suite.h"
#include "unchecked_calls.h"

enum proc_state { PROC_REAL, PROC_HIDDEN, PROC_FAKE_IMPOSTOR, PROC_FAKE_SAME };

struct world {
	enum proc_state proc;
	int execveat_errno; /* 0: execveat allowed */
	int fd;
};

static int make_world(void *ctx)
{
	struct world *w = ctx;
	int err = 0;

	switch (w->proc) {
	case PROC_REAL:
		break;
	case PROC_HIDDEN:
		err = hide_proc();
		break;
	case PROC_FAKE_IMPOSTOR:
		err = fake_proc(w->fd, impostor_path);
		break;
	case PROC_FAKE_SAME:
		err = fake_proc(w->fd, report_args_path);
		break;
	}
	if (err == 0 && w->execveat_errno != 0)
		err = block_execveat(w->execveat_errno);
	return err;
}

static void call_fexecve(void *ctx)
{
	struct world *w = ctx;

	fexecve(w->fd, child_argv, child_envp);
}

static struct exec_outcome fexecve_in(enum proc_state proc, int execveat_errno)
{
	struct world w = { proc, execveat_errno,
			   open_or_fail(report_args_path, O_RDONLY) };
	struct exec_outcome o = run_in_child(make_world, call_fexecve, &w);

	close(w.fd);
	assert_false(o.exec_returned && o.exec_errno == SETUP_FAILED);
	return o;
}

static void fexecve_runs_binary(void **state)
{
	(void)state;
	assert_program_ran(fexecve_in(PROC_REAL, 0), CHILD_STATUS);
}

static void fexecve_without_proc_runs_binary(void **state)
{
	(void)state;
	/* Where execveat is refused already (qemu-user), nothing is left to
	 * run it by, and the refusal is the answer. */
	assert_fd_exec_ran_without_proc(fexecve_in(PROC_HIDDEN, 0),
					CHILD_STATUS);
}

static void fexecve_falls_back_to_proc_on_enosys(void **state)
{
	(void)state;
	assert_program_ran(fexecve_in(PROC_REAL, ENOSYS), CHILD_STATUS);
}

static void fexecve_falls_back_to_proc_on_eperm(void **state)
{
	(void)state;
	assert_program_ran(fexecve_in(PROC_REAL, EPERM), CHILD_STATUS);
}

static void fexecve_blocked_without_proc_fails_enosys(void **state)
{
	(void)state;
	assert_exec_failed(fexecve_in(PROC_HIDDEN, ENOSYS), ENOSYS);
}

static void fexecve_blocked_without_proc_fails_eperm(void **state)
{
	(void)state;
	assert_exec_failed(fexecve_in(PROC_HIDDEN, EPERM), EPERM);
}

static void fexecve_refuses_fake_proc_naming_impostor_enosys(void **state)
{
	(void)state;
	assert_exec_failed(fexecve_in(PROC_FAKE_IMPOSTOR, ENOSYS), ENOSYS);
}

static void fexecve_refuses_fake_proc_naming_impostor_eperm(void **state)
{
	(void)state;
	assert_exec_failed(fexecve_in(PROC_FAKE_IMPOSTOR, EPERM), EPERM);
}

static void fexecve_refuses_fake_proc_naming_same_file(void **state)
{
	(void)state;
	/* The name points at the right file, but it does not come from
	 * procfs, so nothing vouches for it. */
	assert_exec_failed(fexecve_in(PROC_FAKE_SAME, ENOSYS), ENOSYS);
}

struct borrowed_fd {
	pid_t parent;
	int fd;      /* the impostor in the parent, report_args in the child */
	int child_file;
};

static int make_procfs_naming_another_file(void *ctx)
{
	struct borrowed_fd *b = ctx;
	int err;

	if (dup2(b->child_file, b->fd) != b->fd)
		return errno;
	err = borrow_proc_fd_dir(b->parent);
	if (err == 0)
		err = block_execveat(ENOSYS);
	return err;
}

static void call_fexecve_borrowed(void *ctx)
{
	struct borrowed_fd *b = ctx;

	fexecve(b->fd, child_argv, child_envp);
}

static void fexecve_refuses_procfs_naming_another_file(void **state)
{
	(void)state;
	/* Real procfs, but our fd directories are the parent's, where our
	 * fd number is the impostor: only the st_dev/st_ino proof stops it. */
	struct borrowed_fd b = { getpid(), open_or_fail(impostor_path, O_RDONLY),
				 open_or_fail(report_args_path, O_RDONLY) };

	assert_exec_failed(run_in_child(make_procfs_naming_another_file,
					call_fexecve_borrowed, &b),
			   ENOSYS);
	close(b.fd);
	close(b.child_file);
}

static void call_fexecve_closed_fd(void *ctx)
{
	(void)ctx;
	fexecve(99, child_argv, child_envp);
}

static void fexecve_closed_fd_fails_ebadf(void **state)
{
	(void)state;
	struct world w = { PROC_REAL, 0, -1 };

	assert_exec_failed(run_in_child(make_world, call_fexecve_closed_fd, &w),
			   EBADF);
	w.execveat_errno = ENOSYS;
	assert_exec_failed(run_in_child(make_world, call_fexecve_closed_fd, &w),
			   EBADF);
}

/* From now on execveat (and, if asked, execve) kills the process. */
static int kill_on_exec(bool also_execve)
{
	const struct refused_call calls[] = {
		{ .nr = SYS_execveat, .err = REFUSAL_KILLS },
		{ .nr = SYS_execve, .err = REFUSAL_KILLS },
	};

	return refuse_calls(calls, also_execve ? 2 : 1);
}

static int kill_on_any_exec(void *ctx)
{
	(void)ctx;
	return kill_on_exec(true);
}

struct bad_args {
	int fd;
	char **argv;
	char **envp;
};

static void call_fexecve_bad_args(void *ctx)
{
	struct bad_args *a = ctx;

	fexecve_unchecked(a->fd, a->argv, a->envp);
}

static void fexecve_bad_args_fail_einval_without_syscall(void **state)
{
	(void)state;
	int fd = open_or_fail(report_args_path, O_RDONLY);
	struct bad_args cases[] = {
		{ -1, child_argv, child_envp },
		{ fd, NULL, child_envp },
		{ fd, child_argv, NULL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_exec_failed(run_in_child(kill_on_any_exec,
						call_fexecve_bad_args,
						&cases[i]),
				   EINVAL);
	close(fd);
}

static void call_fexecve_twice(void *ctx)
{
	struct world *w = ctx;

	/* The first call learns ENOSYS (and fails: fd 99 is not open). */
	if (fexecve(99, child_argv, child_envp) == 0 || errno != EBADF)
		return;
	/* From now on a call to execveat would kill us: the cached ENOSYS
	 * must send the second call straight to /proc. */
	if (kill_on_exec(false) != 0)
		return;
	fexecve(w->fd, child_argv, child_envp);
}

static void fexecve_remembers_enosys(void **state)
{
	(void)state;
	struct world w = { PROC_REAL, ENOSYS,
			   open_or_fail(report_args_path, O_RDONLY) };

	assert_program_ran(run_in_child(make_world, call_fexecve_twice, &w),
			   CHILD_STATUS);
	close(w.fd);
}

static int without_proc(void *ctx)
{
	(void)ctx;
	return hide_proc();
}

/* Under its own seccomp filter (filters belong to threads), this thread
 * teaches the library that execveat is missing. */
static void *learn_enosys_under_own_filter(void *unused)
{
	(void)unused;
	if (block_execveat(ENOSYS) == 0)
		fexecve(99, child_argv, child_envp);
	return NULL;
}

static void call_fexecve_after_other_thread_learned(void *ctx)
{
	struct world *w = ctx;
	pthread_t learner;

	if (pthread_create(&learner, NULL, learn_enosys_under_own_filter,
			   NULL) != 0 ||
	    pthread_join(learner, NULL) != 0)
		return;
	/* This thread has no filter: no /proc can stand in, but execveat
	 * still works, and must be asked. */
	fexecve(w->fd, child_argv, child_envp);
}

static void fexecve_asks_execveat_when_flag_came_from_another_thread(void **state)
{
	(void)state;
	struct world w = { PROC_HIDDEN, 0,
			   open_or_fail(report_args_path, O_RDONLY) };

	assert_fd_exec_ran_without_proc(
		run_in_child(without_proc,
			     call_fexecve_after_other_thread_learned, &w),
		CHILD_STATUS);
	close(w.fd);
}

struct own_table {
	int fd;  /* the impostor in the process's table */
	int err; /* what fexecve left in errno, in the thread */
};

/*
 * A thread with an fd table of its own, where fd is the program while the
 * process's table still holds the impostor at that number; execveat is
 * refused for this thread alone (a filter without TSYNC, where it is not
 * refused already).
 */
static void *exec_with_own_fd_table(void *ctx)
{
	struct own_table *t = ctx;

	/* open returns the lowest free number: the one just closed. */
	if (unshare(CLONE_FILES) != 0 || close(t->fd) != 0 ||
	    open(report_args_path, O_RDONLY) != t->fd ||
	    (errno = block_execveat(ENOSYS)) != 0) {
		t->err = errno;
		return NULL;
	}
	fexecve(t->fd, child_argv, child_envp);
	t->err = errno;
	return NULL;
}

static void call_fexecve_in_thread_with_own_table(void *ctx)
{
	struct own_table *t = ctx;
	pthread_t thread;

	if (pthread_create(&thread, NULL, exec_with_own_fd_table, t) != 0 ||
	    pthread_join(thread, NULL) != 0)
		return;
	errno = t->err;
}

static void fexecve_in_thread_with_own_fd_table_runs_its_file(void **state)
{
	(void)state;
	/* /proc/self/fd/N is the process's impostor; only the thread's own
	 * /proc/thread-self/fd/N names the program. */
	struct own_table t = { open_or_fail(impostor_path, O_RDONLY), 0 };

	assert_program_ran(run_in_child(NULL,
					call_fexecve_in_thread_with_own_table,
					&t),
			   CHILD_STATUS);
	close(t.fd);
}

/* Cases whose world any machine that passes require_hostile_env()
 * can make, qemu-user too. */
static const struct CMUnitTest in_any_world[] = {
	cmocka_unit_test(fexecve_runs_binary),
	cmocka_unit_test(fexecve_closed_fd_fails_ebadf),
	cmocka_unit_test(fexecve_without_proc_runs_binary),
	cmocka_unit_test(fexecve_falls_back_to_proc_on_enosys),
	cmocka_unit_test(fexecve_blocked_without_proc_fails_enosys),
	cmocka_unit_test(fexecve_refuses_fake_proc_naming_impostor_enosys),
	cmocka_unit_test(fexecve_refuses_fake_proc_naming_same_file),
	cmocka_unit_test(fexecve_refuses_procfs_naming_another_file),
	cmocka_unit_test(fexecve_in_thread_with_own_fd_table_runs_its_file),
};

/* Cases that load seccomp filters of their own: EPERM, killing
 * filters, one thread's filter and not another's. */
static const struct CMUnitTest with_own_filters[] = {
	cmocka_unit_test(fexecve_bad_args_fail_einval_without_syscall),
	cmocka_unit_test(fexecve_falls_back_to_proc_on_eperm),
	cmocka_unit_test(fexecve_blocked_without_proc_fails_eperm),
	cmocka_unit_test(fexecve_refuses_fake_proc_naming_impostor_eperm),
	cmocka_unit_test(fexecve_remembers_enosys),
	cmocka_unit_test(fexecve_asks_execveat_when_flag_came_from_another_thread),
};

int main(int argc, char **argv)
{
	fixture_init(argc, argv);
	require_hostile_env();
	return RUN_SUITE_WITH_OWN_FILTERS(in_any_world, with_own_filters);
}
