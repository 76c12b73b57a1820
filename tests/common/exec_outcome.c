#define _GNU_SOURCE
#include "exec_outcome.h"
#include "execveat_refusal.h"
#include "fixture.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

/*
 * The child reports a failed setup or a returned exec through a CLOEXEC
 * pipe: a successful exec closes it unwritten, so the parent can tell
 * "the exec came back" from "a program ran and exited".
 */
static void report(int fd, int value)
{
	ssize_t n = write(fd, &value, sizeof(value));

	_exit(n == (ssize_t)sizeof(value) ? 0 : 125);
}

struct exec_outcome run_in_child(child_setup_fn setup, child_exec_fn exec_call,
				 void *ctx)
{
	struct exec_outcome outcome = { 0 };
	int pipefd[2], status, reported;
	pid_t pid;

	assert_int_equal(pipe2(pipefd, O_CLOEXEC), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(pipefd[0]);
		if (setup != NULL && setup(ctx) != 0)
			report(pipefd[1], SETUP_FAILED);
		errno = 0;
		exec_call(ctx);
		report(pipefd[1], errno);
	}
	close(pipefd[1]);
	if (read(pipefd[0], &reported, sizeof(reported)) ==
	    (ssize_t)sizeof(reported)) {
		outcome.exec_returned = true;
		outcome.exec_errno = reported;
	}
	close(pipefd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (WIFEXITED(status))
		outcome.exit_status = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		outcome.term_signal = WTERMSIG(status);
	return outcome;
}

void assert_program_ran(struct exec_outcome o, int status)
{
	if (o.exec_returned)
		fail_msg("the exec failed: %s", strerror(o.exec_errno));
	assert_int_equal(o.term_signal, 0);
	assert_int_equal(o.exit_status, status);
}

void assert_exec_failed(struct exec_outcome o, int expected_errno)
{
	if (!o.exec_returned)
		fail_msg("a program ran (status %d), expected errno %d",
			 o.exit_status, expected_errno);
	assert_int_equal(o.exec_errno, expected_errno);
}

void assert_execveat_ran(struct exec_outcome o, int status)
{
	int refusal = execveat_refusal();

	if (refusal != 0)
		assert_exec_failed(o, refusal);
	else
		assert_program_ran(o, status);
}

void assert_execveat_failed(struct exec_outcome o, int expected_errno)
{
	assert_exec_failed(o, execveat_outcome_errno(expected_errno));
}

int kernel_errno_without_proc(void)
{
	static bool asked;
	static int answer;

	if (!asked) {
		answer = execveat_refusal() != 0 ? 0 :
			 execveat_errno_without_proc(report_args_path);
		asked = true;
	}
	return answer > 0 ? answer : 0;
}

void assert_fd_exec_ran_without_proc(struct exec_outcome o, int status)
{
	int err = kernel_errno_without_proc();

	if (err != 0)
		assert_exec_failed(o, err);
	else
		assert_execveat_ran(o, status);
}
