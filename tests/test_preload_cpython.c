/*
 * CPython as a client that knows nothing of libexecveat: os.execve(fd,
 * ...) calls fexecve. Each case runs the system's python3 without and
 * with LD_PRELOAD=libexecveat.so.1, in the same world.
 *
 *   test-preload-cpython REPORT_ARGS IMPOSTOR PYTHON3 SCRIPT LIBRARY
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "exec_outcome.h"
#include "fixture.h"
#include "hostile_env.h"
#include "probe_run.h"

static const char *python3_path;
static const char *script_path;
static const char *preload_env;

static int refuse_execveat_eperm(void *ctx)
{
	(void)ctx;
	return block_execveat(EPERM);
}

static int fake_proc_refuse_execveat_enosys(void *ctx)
{
	int err = fake_proc(PROBE_FD, impostor_path);

	(void)ctx;
	return err != 0 ? err : block_execveat(ENOSYS);
}

static struct probe_result run_python(child_setup_fn world, bool preload)
{
	char *argv[] = { (char *)python3_path, (char *)script_path,
			 PROBE_FD_STR, NULL };
	char *envp[] = { preload ? (char *)preload_env : NULL, NULL };

	return run_probe(world, NULL, argv, envp);
}

static void cpython_runs_under_eperm_only_preloaded(void **state)
{
	(void)state;
	/* glibc 2.36's fexecve falls back on ENOSYS only. */
	assert_probe_said(run_python(refuse_execveat_eperm, false),
			  "errno 1\n");
	assert_probe_ran(run_python(refuse_execveat_eperm, true),
			 CHILD_STATUS);
}

static void cpython_preloaded_refuses_fake_proc(void **state)
{
	(void)state;
	/* Plain CPython runs whatever the fake /proc names. */
	assert_probe_ran(run_python(fake_proc_refuse_execveat_enosys, false),
			 IMPOSTOR_STATUS);
	assert_probe_said(run_python(fake_proc_refuse_execveat_enosys, true),
			  "errno 38\n");
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cpython_runs_under_eperm_only_preloaded),
		cmocka_unit_test(cpython_preloaded_refuses_fake_proc),
	};

	if (argc != 6) {
		fprintf(stderr, "usage: %s REPORT_ARGS IMPOSTOR PYTHON3 SCRIPT "
			"LIBRARY\n", argv[0]);
		return 2;
	}
	fixture_init(argc, argv);
	python3_path = argv[3];
	script_path = argv[4];
	preload_env = preload_setting(argv[5]);
	if (access(python3_path, X_OK) != 0) {
		printf("SKIP: no python3 to run (%s)\n", python3_path);
		return 77;
	}
	require_hostile_env();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
