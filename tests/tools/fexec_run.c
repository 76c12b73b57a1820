#define _GNU_SOURCE
#include "fexec_run.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "execveat.h"
#include "fixture.h"
#include "hostile_env.h"

#define CHILD_SETUP_FAILED 123
#define CHILD_EXEC_FAILED 122
#define FAKE_FDS 16

static const char *fexec_path;
static const char *expected_dir;

void fexec_run_init(int argc, char **argv)
{
	if (argc < 5) {
		fprintf(stderr, "usage: %s REPORT_ARGS IMPOSTOR FEXEC EXPECTED_DIR\n",
			argv[0]);
		exit(2);
	}
	/* Absolute: some tests run the tool from another directory. */
	fexec_path = realpath(argv[3], NULL);
	expected_dir = argv[4];
	if (fexec_path == NULL) {
		perror(argv[3]);
		exit(2);
	}
}

/* Every fd name points at "/": the probe's test file, so only the
 * procfs proof can tell this /proc from the real one. */
static int fake_proc_naming_root(void)
{
	int err = hide_proc();

	for (int fd = 0; err == 0 && fd < FAKE_FDS; fd++)
		err = fake_proc_link(fd, "/");
	return err;
}

static int make_proc_view(enum proc_view proc)
{
	switch (proc) {
	case PROC_REAL:
		return 0;
	case PROC_HIDDEN:
		return hide_proc();
	case PROC_FAKE_ROOT:
		return fake_proc_naming_root();
	case PROC_FAKE_IMPOSTOR:
		return fake_proc(3, impostor_path);
	case PROC_BORROWED:
		return borrow_proc_fd_dir(getppid());
	}
	return EINVAL;
}

/*
 * A kernel before 6.14, as far as fexec can tell: execveat with
 * AT_EXECVE_CHECK fails with EINVAL, the answer of every kernel that does
 * not know the flag. Installed after block_execveat, its EINVAL wins for
 * those calls (seccomp returns the newest filter's errno among equals).
 */
static int pretend_before_6_14(void)
{
	const struct refused_call execveat_check = {
		.nr = SYS_execveat, .err = EINVAL, .arg = 4,
		.mask = AT_EXECVE_CHECK, .value = AT_EXECVE_CHECK
	};

	return refuse_calls(&execveat_check, 1);
}

/* close_range (Linux 5.9) or fchmodat2 (Linux 6.6; 452, which Debian
 * 12's libseccomp 2.5.4 cannot name): numbers the C library may not
 * have. */
#define CLOSE_RANGE_NR 436
#define FCHMODAT2_NR 452
#define FACCESSAT2_NR 439 /* Linux 5.8 */

/* Only fds 0-2, and 3 if asked for, reach the tool. */
static int arrange_fds(int out, int err, const char *fd3_path)
{
	if (dup2(out, STDOUT_FILENO) < 0 || dup2(err, STDERR_FILENO) < 0)
		return errno;
	if (fd3_path != NULL) {
		int fd = open(fd3_path, O_RDONLY);

		if (fd < 0 || (fd != 3 && dup2(fd, 3) < 0))
			return errno;
	}
	close_range(fd3_path != NULL ? 4 : 3, ~0U, 0);
	return 0;
}

static void start_fexec(const struct fexec_world *w, int out, int err,
			const char *const args[])
{
	const char *argv[32] = { "fexec" };
	size_t n = 1;

	while (args[n - 1] != NULL && n + 1 < sizeof(argv) / sizeof(argv[0])) {
		argv[n] = args[n - 1];
		n++;
	}
	if (arrange_fds(out, err, w->fd3_path) != 0 ||
	    (w->cwd != NULL && chdir(w->cwd) != 0) ||
	    make_proc_view(w->proc) != 0 ||
	    (w->execveat_errno != 0 && block_execveat(w->execveat_errno) != 0) ||
	    (w->before_6_14 && pretend_before_6_14() != 0) ||
	    (w->openat2_errno != 0 &&
	     refuse_call(SYS_openat2, w->openat2_errno) != 0) ||
	    (w->close_range_errno != 0 &&
	     refuse_call(CLOSE_RANGE_NR, w->close_range_errno) != 0) ||
	    (w->fchmodat2_errno != 0 &&
	     refuse_call(FCHMODAT2_NR, w->fchmodat2_errno) != 0) ||
	    (w->faccessat2_errno != 0 &&
	     refuse_call(FACCESSAT2_NR, w->faccessat2_errno) != 0))
		_exit(CHILD_SETUP_FAILED);
	/* execve, not execveat: the filter above leaves it alone. */
	execve(fexec_path, (char *const *)argv, child_envp);
	_exit(CHILD_EXEC_FAILED);
}

struct fexec_result run_fexec(const struct fexec_world *world,
			      const char *const args[])
{
	struct fexec_result r = { .exit_status = -1 };
	int out[2], err[2], status;
	pid_t pid;

	assert_int_equal(pipe2(out, O_CLOEXEC), 0);
	assert_int_equal(pipe2(err, O_CLOEXEC), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		start_fexec(world, out[1], err[1], args);
	close(out[1]);
	close(err[1]);
	read_to_end(out[0], r.out, sizeof(r.out));
	read_to_end(err[0], r.err, sizeof(r.err));
	close(out[0]);
	close(err[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (WIFEXITED(status))
		r.exit_status = WEXITSTATUS(status);
	else
		r.term_signal = WTERMSIG(status);
	assert_int_not_equal(r.exit_status, CHILD_SETUP_FAILED);
	assert_int_not_equal(r.exit_status, CHILD_EXEC_FAILED);
	return r;
}

const char *expected_output(const char *name)
{
	static char text[4096];
	char path[4096];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", expected_dir, name);
	f = fopen(path, "r");
	if (f == NULL)
		fail_msg("%s: %s", path, strerror(errno));
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	return text;
}

void assert_fexec_result(struct fexec_result r, int status, const char *out,
			 const char *err)
{
	assert_string_equal(r.out, out);
	assert_string_equal(r.err, err);
	assert_int_equal(r.term_signal, 0);
	assert_int_equal(r.exit_status, status);
}
