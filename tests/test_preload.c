/*
 * LD_PRELOAD=libexecveat.so.1 into a program built against glibc alone:
 * its fexecve becomes ours, its execveat stays glibc's. Each case runs the
 * program twice, without the preload (glibc's answer, the control) and
 * with it, in the same world.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "exec_outcome.h"
#include "execveat_refusal.h"
#include "fixture.h"
#include "hostile_env.h"
#include "suite.h"
#include "probe_run.h"

static const char *probe_path;
static const char *preload_env;

enum world_kind { NORMAL, BLOCKED_ENOSYS, BLOCKED_EPERM, FAKE_PROC_ENOSYS };

static int make_world(void *ctx)
{
	switch (*(enum world_kind *)ctx) {
	case NORMAL:
		return 0;
	case BLOCKED_ENOSYS:
		return block_execveat(ENOSYS);
	case BLOCKED_EPERM:
		return block_execveat(EPERM);
	case FAKE_PROC_ENOSYS: {
		int err = fake_proc(PROBE_FD, impostor_path);

		return err != 0 ? err : block_execveat(ENOSYS);
	}
	}
	return EINVAL;
}

static struct probe_result probe(enum world_kind world, const char *mode,
				 bool preload)
{
	char *argv[] = { (char *)probe_path, (char *)mode, PROBE_FD_STR, NULL };
	char *envp[] = { preload ? (char *)preload_env : NULL, NULL };

	return run_probe(make_world, &world, argv, envp);
}

static void preloaded_fexecve_runs_binary(void **state)
{
	(void)state;
	assert_probe_ran(probe(NORMAL, "fexecve", false), CHILD_STATUS);
	assert_probe_ran(probe(NORMAL, "fexecve", true), CHILD_STATUS);
}

static void preloaded_fexecve_falls_back_on_enosys(void **state)
{
	(void)state;
	assert_probe_ran(probe(BLOCKED_ENOSYS, "fexecve", false), CHILD_STATUS);
	assert_probe_ran(probe(BLOCKED_ENOSYS, "fexecve", true), CHILD_STATUS);
}

static void preloaded_fexecve_falls_back_on_eperm(void **state)
{
	(void)state;
	/* glibc 2.36 falls back on ENOSYS only. */
	assert_probe_said(probe(BLOCKED_EPERM, "fexecve", false), "errno 1\n");
	assert_probe_ran(probe(BLOCKED_EPERM, "fexecve", true), CHILD_STATUS);
}

static void preloaded_fexecve_refuses_fake_proc(void **state)
{
	(void)state;
	/* glibc execs whatever the fake /proc names. */
	assert_probe_ran(probe(FAKE_PROC_ENOSYS, "fexecve", false),
			 IMPOSTOR_STATUS);
	assert_probe_said(probe(FAKE_PROC_ENOSYS, "fexecve", true),
			  "errno 38\n");
}

static void preload_leaves_glibc_execveat_alone(void **state)
{
	(void)state;
	char expected[32];

	/* NULL path: EFAULT from glibc's execveat, preloaded or not; where
	 * execveat is refused (qemu-user), that refusal, preloaded or not. */
	snprintf(expected, sizeof(expected), "errno %d\n",
		 execveat_outcome_errno(EFAULT));
	assert_probe_said(probe(NORMAL, "execveat-null", false), expected);
	assert_probe_said(probe(NORMAL, "execveat-null", true), expected);
}

static void preloaded_fexecve_works_in_signal_handler(void **state)
{
	(void)state;
	assert_probe_ran(probe(BLOCKED_EPERM, "signal", true), CHILD_STATUS);
}

static void preloaded_fexecve_works_in_vfork_child(void **state)
{
	(void)state;
	struct probe_result r = probe(BLOCKED_EPERM, "vfork", true);

	assert_probe_said(r, "child status 42\n");
	assert_int_equal(r.exit_status, 0);
}

static void preloaded_fexecve_leaks_no_fd_when_refused(void **state)
{
	(void)state;
	struct probe_result r = probe(FAKE_PROC_ENOSYS, "fd-count", true);
	int err, before, after;

	assert_int_equal(sscanf(r.output, "errno %d fds %d -> %d", &err,
				&before, &after), 3);
	assert_int_equal(err, ENOSYS);
	assert_int_equal(after, before);
}

/* Cases whose world qemu-user can make too. */
static const struct CMUnitTest in_any_world[] = {
	cmocka_unit_test(preloaded_fexecve_runs_binary),
	cmocka_unit_test(preloaded_fexecve_falls_back_on_enosys),
	cmocka_unit_test(preloaded_fexecve_refuses_fake_proc),
	cmocka_unit_test(preload_leaves_glibc_execveat_alone),
	cmocka_unit_test(preloaded_fexecve_leaks_no_fd_when_refused),
};

/* Cases under an EPERM filter of their own. */
static const struct CMUnitTest with_own_filters[] = {
	cmocka_unit_test(preloaded_fexecve_falls_back_on_eperm),
	cmocka_unit_test(preloaded_fexecve_works_in_signal_handler),
	cmocka_unit_test(preloaded_fexecve_works_in_vfork_child),
};

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: %s REPORT_ARGS IMPOSTOR PROBE LIBRARY\n",
			argv[0]);
		return 2;
	}
	fixture_init(argc, argv);
	probe_path = argv[3];
	preload_env = preload_setting(argv[4]);
	require_hostile_env();
	return RUN_SUITE_WITH_OWN_FILTERS(in_any_world, with_own_filters);
}
