/*
 * fexec where the library matters: no /proc, a fake /proc, another
 * process's fd directory at /proc/self/fd, execveat refused by seccomp
 * (ENOSYS or EPERM). --probe must say exactly what fexecve does there, and
 * the fd mode must do exactly that.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "exec_outcome.h"
#include "fexec_run.h"
#include "fixture.h"
#include "hostile_env.h"

static const char *const probe[] = { "--probe", NULL };

static void assert_probe(enum proc_view proc, int execveat_errno,
			 const char *expected, int status)
{
	struct fexec_world w = { .proc = proc,
				 .execveat_errno = execveat_errno };

	assert_fexec_result(run_fexec(&w, probe), status,
			    expected_output(expected), "");
}

static void probe_real_proc_takes_execveat(void **state)
{
	(void)state;
	assert_probe(PROC_REAL, 0, "probe-real.txt", 0);
}

static void probe_without_proc_takes_execveat(void **state)
{
	(void)state;
	assert_probe(PROC_HIDDEN, 0, "probe-no-proc.txt", 0);
}

static void probe_fake_proc_is_not_procfs(void **state)
{
	(void)state;
	assert_probe(PROC_FAKE_ROOT, 0, "probe-fake-proc.txt", 0);
}

static void probe_enosys_takes_proc(void **state)
{
	(void)state;
	assert_probe(PROC_REAL, ENOSYS, "probe-enosys.txt", 0);
}

static void probe_eperm_takes_proc(void **state)
{
	(void)state;
	assert_probe(PROC_REAL, EPERM, "probe-eperm.txt", 0);
}

static void probe_enosys_without_proc_has_none(void **state)
{
	(void)state;
	assert_probe(PROC_HIDDEN, ENOSYS, "probe-enosys-no-proc.txt", 1);
}

static void probe_enosys_fake_proc_has_none(void **state)
{
	(void)state;
	assert_probe(PROC_FAKE_ROOT, ENOSYS, "probe-enosys-fake-proc.txt", 1);
}

static void probe_eperm_borrowed_fd_dir_has_none(void **state)
{
	(void)state;
	assert_probe(PROC_BORROWED, EPERM, "probe-eperm-borrowed-proc.txt", 1);
}

/* openat2 refused (the execveat answers are the real world's). */
static void probe_openat2_refused_says_so(void **state)
{
	struct fexec_world enosys = { .openat2_errno = ENOSYS };
	struct fexec_world eperm = { .openat2_errno = EPERM };

	(void)state;
	assert_fexec_result(run_fexec(&enosys, probe), 0,
			    expected_output("probe-openat2-enosys.txt"), "");
	assert_fexec_result(run_fexec(&eperm, probe), 0,
			    expected_output("probe-openat2-eperm.txt"), "");
}

/* The method for kernels without AT_EXECVE_CHECK, which must not execute
 * anything either (fexec would then complain of --probe-must-not-run). */
static void probe_before_6_14_uses_empty_path(void **state)
{
	struct fexec_world allowed = { .before_6_14 = true };
	struct fexec_world refused = { .proc = PROC_HIDDEN,
				       .execveat_errno = ENOSYS,
				       .before_6_14 = true };

	(void)state;
	assert_fexec_result(run_fexec(&allowed, probe), 0,
			    expected_output("probe-before-6.14.txt"), "");
	assert_fexec_result(run_fexec(&refused, probe), 1,
			    expected_output("probe-enosys-no-proc.txt"), "");
}

static struct fexec_result fd3_run(enum proc_view proc, int execveat_errno,
				   const char *file, const char *const args[])
{
	struct fexec_world w = { .proc = proc,
				 .execveat_errno = execveat_errno,
				 .fd3_path = file };

	return run_fexec(&w, args);
}

static const char *const report_args_at_fd3[] = {
	"--fd", "3", "--", "report_args", CHILD_STATUS_STR, NULL
};

/* The shell form: fexec --fd 3 -- sh ... 3</bin/sh, with /proc hidden. */
static void fd_without_proc_runs_shell(void **state)
{
	const char *const args[] = { "--fd", "3", "--", "sh", "-c",
				     "echo ran; exit 9", NULL };

	(void)state;
	assert_fexec_result(fd3_run(PROC_HIDDEN, 0, "/bin/sh", args), 9,
			    "ran\n", "");
}

static void fd_without_proc_runs_binary(void **state)
{
	(void)state;
	assert_fexec_result(fd3_run(PROC_HIDDEN, 0, report_args_path,
				    report_args_at_fd3),
			    CHILD_STATUS, "", "");
}

static void fd_execveat_refused_falls_back_to_proc(void **state)
{
	(void)state;
	assert_fexec_result(fd3_run(PROC_REAL, ENOSYS, report_args_path,
				    report_args_at_fd3),
			    CHILD_STATUS, "", "");
	assert_fexec_result(fd3_run(PROC_REAL, EPERM, report_args_path,
				    report_args_at_fd3),
			    CHILD_STATUS, "", "");
}

static void assert_refused(struct fexec_result r, int err)
{
	char expected[256];

	snprintf(expected, sizeof(expected),
		 "fexec: fd 3: %s (execveat is refused here, and there is no"
		 " verified /proc to fall back on)\n",
		 strerror(err));
	assert_fexec_result(r, 126, "", expected);
}

static void fd_execveat_refused_without_proc_exits_126(void **state)
{
	(void)state;
	assert_refused(fd3_run(PROC_HIDDEN, ENOSYS, report_args_path,
			       report_args_at_fd3),
		       ENOSYS);
	assert_refused(fd3_run(PROC_HIDDEN, EPERM, report_args_path,
			       report_args_at_fd3),
		       EPERM);
}

static void fd_execveat_refused_fake_proc_never_runs_impostor(void **state)
{
	struct fexec_result r = fd3_run(PROC_FAKE_IMPOSTOR, ENOSYS,
					report_args_path, report_args_at_fd3);

	(void)state;
	assert_int_not_equal(r.exit_status, IMPOSTOR_STATUS);
	assert_refused(r, ENOSYS);
}

static void fd_execveat_refused_borrowed_fd_dir_exits_126(void **state)
{
	(void)state;
	assert_refused(fd3_run(PROC_BORROWED, EPERM, report_args_path,
			       report_args_at_fd3),
		       EPERM);
}

static void fd_not_open_without_proc_exits_125_ebadf(void **state)
{
	char expected[64];

	(void)state;
	snprintf(expected, sizeof(expected), "fexec: fd 3: %s\n",
		 strerror(EBADF));
	assert_fexec_result(fd3_run(PROC_HIDDEN, ENOSYS, NULL,
				    report_args_at_fd3),
			    125, "", expected);
}

static void path_without_proc_runs(void **state)
{
	const char *const args[] = { report_args_path, "--", "report_args",
				     CHILD_STATUS_STR, NULL };

	(void)state;
	assert_fexec_result(fd3_run(PROC_HIDDEN, 0, NULL, args), CHILD_STATUS,
			    "", "");
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(probe_real_proc_takes_execveat),
		cmocka_unit_test(probe_without_proc_takes_execveat),
		cmocka_unit_test(probe_fake_proc_is_not_procfs),
		cmocka_unit_test(probe_enosys_takes_proc),
		cmocka_unit_test(probe_eperm_takes_proc),
		cmocka_unit_test(probe_enosys_without_proc_has_none),
		cmocka_unit_test(probe_enosys_fake_proc_has_none),
		cmocka_unit_test(probe_eperm_borrowed_fd_dir_has_none),
		cmocka_unit_test(probe_openat2_refused_says_so),
		cmocka_unit_test(probe_before_6_14_uses_empty_path),
		cmocka_unit_test(fd_without_proc_runs_shell),
		cmocka_unit_test(fd_without_proc_runs_binary),
		cmocka_unit_test(fd_execveat_refused_falls_back_to_proc),
		cmocka_unit_test(fd_execveat_refused_without_proc_exits_126),
		cmocka_unit_test(fd_execveat_refused_fake_proc_never_runs_impostor),
		cmocka_unit_test(fd_execveat_refused_borrowed_fd_dir_exits_126),
		cmocka_unit_test(fd_not_open_without_proc_exits_125_ebadf),
		cmocka_unit_test(path_without_proc_runs),
	};

	fixture_init(argc, argv);
	fexec_run_init(argc, argv);
	require_hostile_env();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
