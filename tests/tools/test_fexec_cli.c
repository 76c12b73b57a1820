/*
 * fexec's command line: each mode, each exit status, the exact messages,
 * and --help / --version, on the machine as it is.
 *
 * Where execveat is refused already (qemu-user 7.2: ENOSYS), what fexec
 * does by execveat (PATH, --check) ends in that refusal, and the cases
 * expect what a user sees there; --fd runs through the verified /proc.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "execveat_refusal.h"
#include "fexec_run.h"
#include "fixture.h"
#include "suite.h"

static const struct fexec_world as_is = { .proc = PROC_REAL };
static char scratch[] = "/tmp/fexec-cli-XXXXXX";
static char report_args_dir[PATH_MAX];
static char report_args_name[PATH_MAX];
/* 0 where execveat is there, else what every execveat fails with. */
static int refusal_here;

/* A path in the scratch directory (from a small ring of buffers, so that
 * a few may be used at once). */
static const char *scratch_path(const char *name)
{
	static char paths[8][PATH_MAX];
	static int next;
	char *p = paths[next++ % 8];

	snprintf(p, PATH_MAX, "%s/%s", scratch, name);
	return p;
}

static void write_file(const char *name, const char *text, mode_t mode)
{
	FILE *f = fopen(scratch_path(name), "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(chmod(scratch_path(name), mode), 0);
}

static void make_scratch(void)
{
	if (mkdtemp(scratch) == NULL) {
		perror("mkdtemp");
		exit(2);
	}
	write_file("not-executable", "#!/bin/sh\nexit 0\n", 0644);
	write_file("unknown-format", "neither ELF nor #!\n", 0755);
	write_file("script", "#!/bin/sh\nexit 0\n", 0755);
	if (symlink(report_args_path, scratch_path("link")) != 0) {
		perror("symlink");
		exit(2);
	}
}

static void remove_scratch(void)
{
	unlink(scratch_path("not-executable"));
	unlink(scratch_path("unknown-format"));
	unlink(scratch_path("script"));
	unlink(scratch_path("link"));
	rmdir(scratch);
}

#define FEXEC(...) run_fexec(&as_is, (const char *const[]){ __VA_ARGS__, NULL })

/*
 * For what fexec does by execveat: the status, stdout and stderr expected
 * where execveat is there; where it is refused, what fexec says of name
 * then (the refusal, status 126).
 */
static void assert_by_execveat(struct fexec_result r, const char *name,
			       int status, const char *out, const char *err)
{
	char refused[PATH_MAX + 128];

	if (refusal_here == 0) {
		assert_fexec_result(r, status, out, err);
		return;
	}
	snprintf(refused, sizeof(refused),
		 "fexec: %s: %s (execveat is refused here, by the kernel or a"
		 " seccomp policy)\n",
		 name, strerror(refusal_here));
	assert_fexec_result(r, 126, "", refused);
}

/* The same for --check, whose refusal is status 125: nothing was judged. */
static void assert_check(struct fexec_result r, const char *name, int status,
			 const char *err)
{
	char refused[PATH_MAX + 128];

	if (refusal_here == 0) {
		assert_fexec_result(r, status, "", err);
		return;
	}
	snprintf(refused, sizeof(refused),
		 "fexec: %s: %s (execveat is refused here, and no fallback can"
		 " answer for the kernel)\n",
		 name, strerror(refusal_here));
	assert_fexec_result(r, 125, "", refused);
}

static void help_prints_usage_and_exits_0(void **state)
{
	(void)state;
	assert_fexec_result(FEXEC("--help"), 0, expected_output("help.txt"), "");
}

static void version_prints_project_version(void **state)
{
	(void)state;
	assert_fexec_result(FEXEC("--version"), 0,
			    "fexec (libexecveat) " PROJECT_VERSION "\n", "");
}

static void path_runs_program_with_its_arguments_and_environment(void **state)
{
	(void)state;
	assert_by_execveat(FEXEC(report_args_path, "--", "report_args",
				 CHILD_STATUS_STR),
			   report_args_path, CHILD_STATUS, "", "");
}

static void path_passes_argv0_as_given(void **state)
{
	(void)state;
	assert_by_execveat(FEXEC("/bin/sh", "--", "chosen-name", "-c",
				 "echo \"$0\""),
			   "/bin/sh", 0, "chosen-name\n", "");
}

static void relative_path_resolves_against_cwd_not_search_path(void **state)
{
	struct fexec_world w = { .cwd = report_args_dir };
	const char *const args[] = { report_args_name, "--", "report_args",
				     CHILD_STATUS_STR, NULL };
	const char *const sh[] = { "sh", "--", "sh", "-c", "exit 0", NULL };
	char err[256];

	(void)state;
	assert_by_execveat(run_fexec(&w, args), report_args_name, CHILD_STATUS,
			   "", "");
	/* No $PATH search: "sh" is a file in the cwd, and there is none. */
	snprintf(err, sizeof(err), "fexec: sh: %s\n", strerror(ENOENT));
	assert_by_execveat(run_fexec(&w, sh), "sh", 127, "", err);
}

static void at_dir_resolves_relative_path(void **state)
{
	(void)state;
	assert_by_execveat(FEXEC("--at", report_args_dir, report_args_name,
				 "--", "report_args", CHILD_STATUS_STR),
			   report_args_name, CHILD_STATUS, "", "");
}

static void symlink_runs_its_target(void **state)
{
	(void)state;
	assert_by_execveat(FEXEC(scratch_path("link"), "--", "report_args",
				 CHILD_STATUS_STR),
			   scratch_path("link"), CHILD_STATUS, "", "");
}

static void nofollow_symlink_exits_126_eloop(void **state)
{
	char err[PATH_MAX + 128];

	(void)state;
	snprintf(err, sizeof(err),
		 "fexec: %s: %s (a symbolic link, refused by --nofollow)\n",
		 scratch_path("link"), strerror(ELOOP));
	assert_by_execveat(FEXEC("--nofollow", scratch_path("link"), "--",
				 "report_args", CHILD_STATUS_STR),
			   scratch_path("link"), 126, "", err);
}

static void nofollow_regular_file_runs(void **state)
{
	(void)state;
	assert_by_execveat(FEXEC("--nofollow", report_args_path, "--",
				 "report_args", CHILD_STATUS_STR),
			   report_args_path, CHILD_STATUS, "", "");
}

static void missing_file_exits_127(void **state)
{
	char err[PATH_MAX + 64];

	(void)state;
	snprintf(err, sizeof(err), "fexec: %s: %s\n", scratch_path("missing"),
		 strerror(ENOENT));
	assert_by_execveat(FEXEC(scratch_path("missing"), "--", "x"),
			   scratch_path("missing"), 127, "", err);
}

static void missing_at_dir_exits_127(void **state)
{
	char err[PATH_MAX + 64];

	(void)state;
	snprintf(err, sizeof(err), "fexec: %s: %s\n", scratch_path("no-dir"),
		 strerror(ENOENT));
	assert_fexec_result(FEXEC("--at", scratch_path("no-dir"), "prog", "--", "x"),
			    127, "", err);
}

static void non_executable_file_exits_126_eacces(void **state)
{
	char err[PATH_MAX + 64];

	(void)state;
	snprintf(err, sizeof(err), "fexec: %s: %s\n",
		 scratch_path("not-executable"), strerror(EACCES));
	assert_by_execveat(FEXEC(scratch_path("not-executable"), "--", "x"),
			   scratch_path("not-executable"), 126, "", err);
}

static void directory_exits_126_eacces(void **state)
{
	char err[PATH_MAX + 64];

	(void)state;
	snprintf(err, sizeof(err), "fexec: %s: %s\n", scratch, strerror(EACCES));
	assert_by_execveat(FEXEC(scratch, "--", "x"), scratch, 126, "", err);
}

static void unknown_format_exits_126_enoexec(void **state)
{
	char err[PATH_MAX + 64];

	(void)state;
	snprintf(err, sizeof(err), "fexec: %s: %s\n",
		 scratch_path("unknown-format"), strerror(ENOEXEC));
	assert_by_execveat(FEXEC(scratch_path("unknown-format"), "--", "x"),
			   scratch_path("unknown-format"), 126, "", err);
}

static void fd_runs_the_file_open_there(void **state)
{
	struct fexec_world sh = { .fd3_path = "/bin/sh" };
	struct fexec_world prog = { .fd3_path = report_args_path };
	const char *const sh_args[] = { "--fd", "3", "--", "sh", "-c",
					"exit 7", NULL };
	const char *const prog_args[] = { "--fd", "3", "--", "report_args",
					  CHILD_STATUS_STR, NULL };

	(void)state;
	assert_fexec_result(run_fexec(&sh, sh_args), 7, "", "");
	assert_fexec_result(run_fexec(&prog, prog_args), CHILD_STATUS, "", "");
}

static void fd_not_open_exits_125_ebadf(void **state)
{
	char err[128];

	(void)state;
	snprintf(err, sizeof(err), "fexec: fd 3: %s\n", strerror(EBADF));
	assert_fexec_result(FEXEC("--fd", "3", "--", "x"), 125, "", err);
}

static void bad_fd_numbers_exit_125(void **state)
{
	const char *bad[] = { "-1", "x", "3x", "", "+3", "2147483648",
			      "99999999999999999999" };
	char err[128];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(err, sizeof(err),
			 "fexec: bad fd number: %s (see fexec --help)\n", bad[i]);
		assert_fexec_result(FEXEC("--fd", bad[i], "--", "x"), 125, "",
				    err);
	}
}

static void check_executable_file_exits_0(void **state)
{
	(void)state;
	assert_check(FEXEC("--check", report_args_path), report_args_path, 0,
		     "");
}

/* AT_EXECVE_CHECK judges whether the file may be executed (permission,
 * noexec mounts, security modules), not whether its format or its
 * interpreter would work, nor a close-on-exec script's name (Linux 6.18). */
static void check_judges_permission_not_format(void **state)
{
	(void)state;
	assert_check(FEXEC("--check", scratch_path("unknown-format")),
		     scratch_path("unknown-format"), 0, "");
}

static void check_missing_file_exits_127(void **state)
{
	char err[PATH_MAX + 64];

	(void)state;
	snprintf(err, sizeof(err), "fexec: %s: %s\n", scratch_path("missing"),
		 strerror(ENOENT));
	assert_check(FEXEC("--check", scratch_path("missing")),
		     scratch_path("missing"), 127, err);
}

static void check_non_executable_file_exits_126_eacces(void **state)
{
	char err[PATH_MAX + 64];

	(void)state;
	snprintf(err, sizeof(err), "fexec: %s: %s\n",
		 scratch_path("not-executable"), strerror(EACCES));
	assert_check(FEXEC("--check", scratch_path("not-executable")),
		     scratch_path("not-executable"), 126, err);
}

static void check_nofollow_symlink_exits_126_eloop(void **state)
{
	char err[PATH_MAX + 128];

	(void)state;
	snprintf(err, sizeof(err),
		 "fexec: %s: %s (a symbolic link, refused by --nofollow)\n",
		 scratch_path("link"), strerror(ELOOP));
	assert_check(FEXEC("--check", "--nofollow", scratch_path("link")),
		     scratch_path("link"), 126, err);
}

static void check_fd_asks_about_the_file_open_there(void **state)
{
	struct fexec_world script = { .fd3_path = scratch_path("script") };
	struct fexec_world not_exec = {
		.fd3_path = scratch_path("not-executable")
	};
	const char *const check_fd3[] = { "--check", "--fd", "3", NULL };
	char err[128];

	(void)state;
	assert_check(run_fexec(&script, check_fd3), "fd 3", 0, "");
	snprintf(err, sizeof(err), "fexec: fd 3: %s\n", strerror(EACCES));
	assert_check(run_fexec(&not_exec, check_fd3), "fd 3", 126, err);
}

static void check_fd_not_open_exits_125(void **state)
{
	char err[128];

	(void)state;
	snprintf(err, sizeof(err), "fexec: fd 3: %s\n", strerror(EBADF));
	assert_check(FEXEC("--check", "--fd", "3"), "fd 3", 125, err);
}

static void assert_usage_error(struct fexec_result r, const char *message)
{
	char err[256];

	snprintf(err, sizeof(err), "fexec: %s (see fexec --help)\n", message);
	assert_fexec_result(r, 125, "", err);
}

static void usage_errors_exit_125(void **state)
{
	const struct fexec_world *w = &as_is;

	(void)state;
	assert_usage_error(run_fexec(w, (const char *const[]){ NULL }),
			   "missing PATH");
	assert_usage_error(FEXEC("--bogus", "/bin/sh", "--", "sh"),
			   "unknown option: --bogus");
	assert_usage_error(FEXEC("-v"), "unknown option: -v");
	assert_usage_error(FEXEC("--nofollow", "-x", "/bin/sh", "--", "sh"),
			   "unknown option: -x");
	assert_usage_error(FEXEC("--fd", "0", "--bogus", "--", "sh"),
			   "unknown option: --bogus");
	assert_usage_error(FEXEC("/bin/sh", "sh"), "expected -- before ARGV0");
	assert_usage_error(FEXEC("/bin/sh", "--"), "missing ARGV0");
	assert_usage_error(FEXEC("--", "sh"), "missing PATH");
	assert_usage_error(FEXEC("--at"), "missing value for: --at");
	assert_usage_error(FEXEC("--fd", "0", "/bin/sh", "--", "sh"),
			   "expected -- before ARGV0");
	assert_usage_error(FEXEC("--fd", "0", "--at", "/", "--", "sh"),
			   "--fd takes no --at or --nofollow");
	assert_usage_error(FEXEC("--nofollow", "--nofollow", "/bin/sh", "--",
				 "sh"),
			   "unexpected option: --nofollow");
	assert_usage_error(FEXEC("--probe", "--", "sh"),
			   "unexpected option: --probe");
	assert_usage_error(FEXEC("--help", "/bin/sh", "--", "sh"),
			   "unexpected option: --help");
	assert_usage_error(FEXEC("--check", "/bin/sh", "--", "sh"),
			   "--check takes no -- ARGV0");
	assert_usage_error(FEXEC("--check", "--fd", "0", "--", "sh"),
			   "--check takes no -- ARGV0");
	assert_usage_error(FEXEC("--check"), "missing PATH");
	assert_usage_error(FEXEC("--check", "--check", "/bin/sh"),
			   "unexpected option: --check");
	assert_usage_error(FEXEC("--check", "--probe"),
			   "unexpected option: --probe");
}

/* report_args_path is absolute (fixture_init): "DIR/NAME". */
static void split_report_args_path(void)
{
	const char *slash = strrchr(report_args_path, '/');

	snprintf(report_args_dir, sizeof(report_args_dir), "%.*s",
		 (int)(slash - report_args_path), report_args_path);
	snprintf(report_args_name, sizeof(report_args_name), "%s", slash + 1);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(help_prints_usage_and_exits_0),
	cmocka_unit_test(version_prints_project_version),
	cmocka_unit_test(path_runs_program_with_its_arguments_and_environment),
	cmocka_unit_test(path_passes_argv0_as_given),
	cmocka_unit_test(relative_path_resolves_against_cwd_not_search_path),
	cmocka_unit_test(at_dir_resolves_relative_path),
	cmocka_unit_test(symlink_runs_its_target),
	cmocka_unit_test(nofollow_symlink_exits_126_eloop),
	cmocka_unit_test(nofollow_regular_file_runs),
	cmocka_unit_test(missing_file_exits_127),
	cmocka_unit_test(missing_at_dir_exits_127),
	cmocka_unit_test(non_executable_file_exits_126_eacces),
	cmocka_unit_test(directory_exits_126_eacces),
	cmocka_unit_test(unknown_format_exits_126_enoexec),
	cmocka_unit_test(fd_runs_the_file_open_there),
	cmocka_unit_test(fd_not_open_exits_125_ebadf),
	cmocka_unit_test(bad_fd_numbers_exit_125),
	cmocka_unit_test(check_executable_file_exits_0),
	cmocka_unit_test(check_judges_permission_not_format),
	cmocka_unit_test(check_missing_file_exits_127),
	cmocka_unit_test(check_non_executable_file_exits_126_eacces),
	cmocka_unit_test(check_nofollow_symlink_exits_126_eloop),
	cmocka_unit_test(check_fd_asks_about_the_file_open_there),
	cmocka_unit_test(check_fd_not_open_exits_125),
	cmocka_unit_test(usage_errors_exit_125),
};

int main(int argc, char **argv)
{
	int failed;

	fixture_init(argc, argv);
	fexec_run_init(argc, argv);
	split_report_args_path();
	refusal_here = execveat_refusal();
	if (refusal_here != 0)
		printf("execveat fails with %s here: what fexec does by "
		       "execveat expects that refusal\n",
		       strerror(refusal_here));
	make_scratch();
	failed = RUN_SUITE(tests, NULL, NULL);
	remove_scratch();
	return failed;
}
