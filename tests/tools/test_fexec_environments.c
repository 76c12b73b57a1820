/*
 * fexec where the library matters: no /proc, a fake /proc, another
 * process's fd directory at /proc/self/fd, execveat refused by seccomp
 * (ENOSYS or EPERM). --probe must say exactly what fexecve does there, and
 * the fd mode must do exactly that; --check must say when it cannot ask.
 *
 * Where execveat is refused already (qemu-user 7.2: ENOSYS), the worlds
 * without a refusal of their own are that refusal's world, and expect its
 * golden outputs; those that need another refusal, or a kernel before
 * 6.14, load a filter of their own and run only where filters can be
 * loaded.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <stdbool.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "exec_outcome.h"
#include "execveat_refusal.h"
#include "fexec_run.h"
#include "fixture.h"
#include "hostile_env.h"
#include "suite.h"

static const char *const probe[] = { "--probe", NULL };

/* 0 where execveat is there, else what every execveat fails with. */
static int refusal_here;

/* 0 where openat2 is there, else what it fails with (qemu-user 7.2:
 * ENOSYS). The kernel checks the size before anything else: EINVAL. */
static int openat2_refusal_here;

static int openat2_refusal(void)
{
	if (syscall(SYS_openat2, -1L, 0L, 0L, 0L) == -1 &&
	    (errno == ENOSYS || errno == EPERM))
		return errno;
	return 0;
}

/* 0 where fchmodat2 is there (Linux 6.6), else what it fails with
 * (qemu-user 7.2: ENOSYS). Unknown flags: EINVAL from the kernel. */
static int fchmodat2_refusal_here;

/* Whether the kernel answers PIDFD_GET_INFO (Linux 6.13) on a pidfd. */
static bool pidfd_get_info_here;

static bool pidfd_get_info_answers(void)
{
	struct { uint64_t mask, cgroupid; uint32_t pid, rest[11]; } info = {
		.mask = 1 };
	int fd = (int)syscall(434 /* pidfd_open */, (long)getpid(), 0L);
	bool answers = fd >= 0 && ioctl(fd, _IOWR(0xFF, 11, info), &info) == 0;

	if (fd >= 0)
		close(fd);
	return answers;
}

static int fchmodat2_refusal(void)
{
	if (syscall(452, (long)AT_FDCWD, "", 0L, -1L) == -1 &&
	    (errno == ENOSYS || errno == EPERM))
		return errno;
	return 0;
}

/* Replaces text's line that starts with prefix by the line of the golden
 * file from that starts so. */
static void replace_line(char *text, size_t size, const char *prefix,
			 const char *from)
{
	char line[512], rest[4096];
	char *at = strstr(text, prefix), *end;
	const char *source = strstr(expected_output(from), prefix);

	assert_non_null(at);
	assert_non_null(source);
	snprintf(line, sizeof(line), "%.*s", (int)strcspn(source, "\n"),
		 source);
	end = at + strcspn(at, "\n");
	snprintf(rest, sizeof(rest), "%s", end);
	snprintf(at, size - (size_t)(at - text), "%s%s", line, rest);
}

/* The golden file with fchmodat2 refused with ENOSYS, for a proc view. */
static const char *fchmodat2_enosys_golden(enum proc_view proc)
{
	switch (proc) {
	case PROC_REAL: return "probe-fchmodat2-enosys.txt";
	case PROC_HIDDEN: return "probe-fchmodat2-enosys-no-proc.txt";
	case PROC_BORROWED: return "probe-fchmodat2-enosys-borrowed-proc.txt";
	default: return "probe-fchmodat2-enosys-fake-proc.txt";
	}
}

/*
 * Before Linux 6.13, the PIDFD_GET_INFO line says that pidfd_getpid reads
 * a proven fdinfo: a procfs of this process, not the borrowed fd
 * directory, is all it needs.
 */
static void replace_pidfd_line(char *text, size_t size, enum proc_view proc)
{
	if (!pidfd_get_info_here)
		replace_line(text, size, "PIDFD_GET_INFO: ",
			     proc == PROC_REAL || proc == PROC_BORROWED ?
				     "probe-pidfd-get-info-refused.txt" :
				     "probe-pidfd-get-info-refused-no-proc.txt");
}

/* A golden output of a world with /proc as it is, its PIDFD_GET_INFO
 * line as this kernel gives it. */
static const char *expected_real_proc(const char *name)
{
	static char text[4096];

	snprintf(text, sizeof(text), "%s", expected_output(name));
	replace_pidfd_line(text, sizeof(text), PROC_REAL);
	return text;
}

/*
 * The golden output of a probe. Its openat2 and fchmodat2 lines are given
 * as in a world that has those calls; where openat2 is refused already,
 * every world's openat2 line is the refused one of
 * probe-openat2-enosys.txt, and where fchmodat2 is, its line is that of
 * the refused world with the same /proc.
 */
static const char *expected_probe(const char *name, enum proc_view proc)
{
	static char text[4096];

	snprintf(text, sizeof(text), "%s", expected_output(name));
	if (openat2_refusal_here != 0) {
		assert_int_equal(openat2_refusal_here, ENOSYS);
		replace_line(text, sizeof(text), "openat2: ",
			     "probe-openat2-enosys.txt");
	}
	if (fchmodat2_refusal_here != 0) {
		assert_int_equal(fchmodat2_refusal_here, ENOSYS);
		replace_line(text, sizeof(text), "fchmodat2: ",
			     fchmodat2_enosys_golden(proc));
	}
	replace_pidfd_line(text, sizeof(text), proc);
	return text;
}

static void assert_probe(enum proc_view proc, int execveat_errno,
			 const char *expected, int status)
{
	struct fexec_world w = { .proc = proc,
				 .execveat_errno = execveat_errno };

	assert_fexec_result(run_fexec(&w, probe), status,
			    expected_probe(expected, proc), "");
}

/* A world that refuses nothing of its own: as_is where execveat is there,
 * else the ENOSYS world's golden output (the only refusal a world makes
 * by itself here: qemu-user, a kernel before 3.19). */
static void assert_probe_as_is(enum proc_view proc, const char *as_is,
			       int status, const char *where_enosys,
			       int status_where_enosys)
{
	if (refusal_here == 0)
		assert_probe(proc, 0, as_is, status);
	else if (refusal_here == ENOSYS)
		assert_probe(proc, 0, where_enosys, status_where_enosys);
	else
		fail_msg("no golden output for a world whose execveat fails "
			 "with %s", strerror(refusal_here));
}

static void probe_real_proc_takes_execveat(void **state)
{
	(void)state;
	assert_probe_as_is(PROC_REAL, "probe-real.txt", 0, "probe-enosys.txt",
			   0);
}

static void probe_without_proc_takes_execveat(void **state)
{
	(void)state;
	assert_probe_as_is(PROC_HIDDEN, "probe-no-proc.txt", 0,
			   "probe-enosys-no-proc.txt", 1);
}

static void probe_fake_proc_is_not_procfs(void **state)
{
	(void)state;
	assert_probe_as_is(PROC_FAKE_ROOT, "probe-fake-proc.txt", 0,
			   "probe-enosys-fake-proc.txt", 1);
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
			    expected_real_proc("probe-openat2-enosys.txt"), "");
	assert_fexec_result(run_fexec(&eperm, probe), 0,
			    expected_real_proc("probe-openat2-eperm.txt"), "");
}

/* close_range, fchmodat2 and faccessat2 refused: each line says which
 * way the library goes instead, through the proven fd directory or
 * without it, and why. */
static void probe_close_range_and_fchmodat2_refused_say_so(void **state)
{
	static const struct {
		enum proc_view proc;
		int err;
		const char *golden;
	} worlds[] = {
		{ PROC_REAL, EPERM, "probe-close-range-fchmodat2-eperm.txt" },
		{ PROC_HIDDEN, ENOSYS,
		  "probe-close-range-fchmodat2-enosys-no-proc.txt" },
		{ PROC_FAKE_ROOT, ENOSYS,
		  "probe-close-range-fchmodat2-enosys-fake-proc.txt" },
		{ PROC_BORROWED, EPERM,
		  "probe-close-range-fchmodat2-eperm-borrowed-proc.txt" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(worlds) / sizeof(worlds[0]); i++) {
		struct fexec_world w = { .proc = worlds[i].proc,
					 .close_range_errno = worlds[i].err,
					 .fchmodat2_errno = worlds[i].err,
					 .faccessat2_errno = worlds[i].err };
		struct fexec_result r = run_fexec(&w, probe);
		const char *want = expected_output(worlds[i].golden);

		/* The execveat and proc lines are the worlds' own, checked
		 * above: the last two lines are this test's. */
		assert_int_equal(r.term_signal, 0);
		assert_non_null(strstr(r.out, "close_range: "));
		assert_string_equal(strstr(r.out, "close_range: "),
				    strstr(want, "close_range: "));
	}
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
			    expected_probe("probe-before-6.14.txt", PROC_REAL),
			    "");
	assert_fexec_result(run_fexec(&refused, probe), 1,
			    expected_probe("probe-enosys-no-proc.txt",
					   PROC_HIDDEN), "");
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

static void assert_refused(struct fexec_result r, int err)
{
	char expected[256];

	snprintf(expected, sizeof(expected),
		 "fexec: fd 3: %s (execveat is refused here, and there is no"
		 " verified /proc to fall back on)\n",
		 strerror(err));
	assert_fexec_result(r, 126, "", expected);
}

/* The shell form: fexec --fd 3 -- sh ... 3</bin/sh, with /proc hidden.
 * Where execveat is refused, nothing can run it there. */
static void fd_without_proc_runs_shell(void **state)
{
	const char *const args[] = { "--fd", "3", "--", "sh", "-c",
				     "echo ran; exit 9", NULL };
	struct fexec_result r = fd3_run(PROC_HIDDEN, 0, "/bin/sh", args);

	(void)state;
	if (refusal_here != 0)
		assert_refused(r, refusal_here);
	else
		assert_fexec_result(r, 9, "ran\n", "");
}

static void fd_without_proc_runs_binary(void **state)
{
	struct fexec_result r = fd3_run(PROC_HIDDEN, 0, report_args_path,
					report_args_at_fd3);

	(void)state;
	if (refusal_here != 0)
		assert_refused(r, refusal_here);
	else
		assert_fexec_result(r, CHILD_STATUS, "", "");
}

static void fd_execveat_enosys_falls_back_to_proc(void **state)
{
	(void)state;
	assert_fexec_result(fd3_run(PROC_REAL, ENOSYS, report_args_path,
				    report_args_at_fd3),
			    CHILD_STATUS, "", "");
}

static void fd_execveat_eperm_falls_back_to_proc(void **state)
{
	(void)state;
	assert_fexec_result(fd3_run(PROC_REAL, EPERM, report_args_path,
				    report_args_at_fd3),
			    CHILD_STATUS, "", "");
}

static void fd_execveat_enosys_without_proc_exits_126(void **state)
{
	(void)state;
	assert_refused(fd3_run(PROC_HIDDEN, ENOSYS, report_args_path,
			       report_args_at_fd3),
		       ENOSYS);
}

static void fd_execveat_eperm_without_proc_exits_126(void **state)
{
	(void)state;
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
	struct fexec_result r = fd3_run(PROC_HIDDEN, 0, NULL, args);
	char expected[PATH_MAX + 128];

	(void)state;
	if (refusal_here == 0) {
		assert_fexec_result(r, CHILD_STATUS, "", "");
		return;
	}
	snprintf(expected, sizeof(expected),
		 "fexec: %s: %s (execveat is refused here, by the kernel or a"
		 " seccomp policy)\n",
		 report_args_path, strerror(refusal_here));
	assert_fexec_result(r, 126, "", expected);
}

static const char *const check_fd3[] = { "--check", "--fd", "3", NULL };

/* AT_EXECVE_CHECK needs no /proc: the kernel answers, or nothing does. */
static void check_without_proc_asks_the_kernel(void **state)
{
	struct fexec_result r = fd3_run(PROC_HIDDEN, 0, report_args_path,
					check_fd3);

	(void)state;
	if (refusal_here == ENOSYS)
		assert_fexec_result(r, 125, "", expected_output("check-enosys.txt"));
	else
		assert_fexec_result(r, 0, "", "");
}

/* Where execveat is refused, the /proc fallback has no answer to give. */
static void check_execveat_enosys_exits_125(void **state)
{
	(void)state;
	assert_fexec_result(fd3_run(PROC_REAL, ENOSYS, report_args_path,
				    check_fd3),
			    125, "", expected_output("check-enosys.txt"));
}

static void check_execveat_eperm_exits_125(void **state)
{
	(void)state;
	assert_fexec_result(fd3_run(PROC_REAL, EPERM, report_args_path,
				    check_fd3),
			    125, "", expected_output("check-eperm.txt"));
}

static void check_before_6_14_exits_125_einval(void **state)
{
	struct fexec_world w = { .fd3_path = report_args_path,
				 .before_6_14 = true };

	(void)state;
	assert_fexec_result(run_fexec(&w, check_fd3), 125, "",
			    expected_output("check-before-6.14.txt"));
}

static const struct CMUnitTest in_this_world[] = {
	cmocka_unit_test(probe_real_proc_takes_execveat),
	cmocka_unit_test(probe_without_proc_takes_execveat),
	cmocka_unit_test(probe_fake_proc_is_not_procfs),
	cmocka_unit_test(probe_enosys_takes_proc),
	cmocka_unit_test(probe_enosys_without_proc_has_none),
	cmocka_unit_test(probe_enosys_fake_proc_has_none),
	cmocka_unit_test(fd_without_proc_runs_shell),
	cmocka_unit_test(fd_without_proc_runs_binary),
	cmocka_unit_test(fd_execveat_enosys_falls_back_to_proc),
	cmocka_unit_test(fd_execveat_enosys_without_proc_exits_126),
	cmocka_unit_test(fd_execveat_refused_fake_proc_never_runs_impostor),
	cmocka_unit_test(fd_not_open_without_proc_exits_125_ebadf),
	cmocka_unit_test(path_without_proc_runs),
	cmocka_unit_test(check_without_proc_asks_the_kernel),
	cmocka_unit_test(check_execveat_enosys_exits_125),
};

/* EPERM worlds, and kernels before 6.14, made by filters. */
static const struct CMUnitTest with_own_filters[] = {
	cmocka_unit_test(probe_eperm_takes_proc),
	cmocka_unit_test(probe_eperm_borrowed_fd_dir_has_none),
	cmocka_unit_test(probe_openat2_refused_says_so),
	cmocka_unit_test(probe_close_range_and_fchmodat2_refused_say_so),
	cmocka_unit_test(probe_before_6_14_uses_empty_path),
	cmocka_unit_test(fd_execveat_eperm_falls_back_to_proc),
	cmocka_unit_test(fd_execveat_eperm_without_proc_exits_126),
	cmocka_unit_test(fd_execveat_refused_borrowed_fd_dir_exits_126),
	cmocka_unit_test(check_execveat_eperm_exits_125),
	cmocka_unit_test(check_before_6_14_exits_125_einval),
};

int main(int argc, char **argv)
{
	fixture_init(argc, argv);
	fexec_run_init(argc, argv);
	require_hostile_env();
	refusal_here = execveat_refusal();
	openat2_refusal_here = openat2_refusal();
	fchmodat2_refusal_here = fchmodat2_refusal();
	pidfd_get_info_here = pidfd_get_info_answers();
	if (refusal_here != 0)
		printf("execveat fails with %s here: the worlds without a "
		       "refusal of their own expect that refusal's answers\n",
		       strerror(refusal_here));
	return RUN_SUITE_WITH_OWN_FILTERS(in_this_world, with_own_filters);
}
