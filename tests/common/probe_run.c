#define _GNU_SOURCE
#include "probe_run.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fixture.h"

struct probe_result run_probe(child_setup_fn setup, void *ctx,
			      char *const argv[], char *const envp[])
{
	struct probe_result r = { .exit_status = -1 };
	int out[2], status;
	int target = open_or_fail(report_args_path, O_RDONLY | O_CLOEXEC);
	pid_t pid;

	assert_int_equal(pipe2(out, O_CLOEXEC), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* dup2 clears O_CLOEXEC: the probe inherits both. */
		if (dup2(out[1], STDOUT_FILENO) < 0 ||
		    dup2(target, PROBE_FD) < 0)
			_exit(124);
		if (setup != NULL && setup(ctx) != 0)
			_exit(123);
		execve(argv[0], argv, envp);
		_exit(122);
	}
	close(out[1]);
	close(target);
	read_to_end(out[0], r.output, sizeof(r.output));
	close(out[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (WIFEXITED(status))
		r.exit_status = WEXITSTATUS(status);
	else
		r.term_signal = WTERMSIG(status);
	assert_int_not_equal(r.exit_status, 122); /* could not start it */
	assert_int_not_equal(r.exit_status, 123); /* setup failed */
	assert_int_not_equal(r.exit_status, 124);
	return r;
}

void assert_probe_ran(struct probe_result r, int status)
{
	assert_string_equal(r.output, "");
	assert_int_equal(r.term_signal, 0);
	assert_int_equal(r.exit_status, status);
}

void assert_probe_said(struct probe_result r, const char *output)
{
	assert_string_equal(r.output, output);
}

const char *preload_setting(const char *built_library)
{
	static char setting[4096];
	char *copy = strdup(built_library);

	assert_non_null(copy);
	snprintf(setting, sizeof(setting), "LD_PRELOAD=%s/libexecveat.so.1",
		 dirname(copy));
	free(copy);
	return setting;
}
