/*
 * Running the fexec tool in a prepared world and capturing what it said
 * (stdout, stderr) and how it ended.
 */
#ifndef TESTS_FEXEC_RUN_H
#define TESTS_FEXEC_RUN_H

#include <stdbool.h>

enum proc_view {
	PROC_REAL,
	PROC_HIDDEN,      /* an empty tmpfs over /proc */
	PROC_FAKE_ROOT,   /* a tmpfs whose self/fd/N all name "/" */
	PROC_FAKE_IMPOSTOR, /* a tmpfs whose self/fd/3 names the impostor */
	PROC_BORROWED,    /* real procfs, but the test's own fd directory */
};

struct fexec_world {
	enum proc_view proc;
	int execveat_errno;   /* 0: execveat allowed */
	const char *fd3_path; /* opened for fexec at fd 3, or NULL */
	const char *cwd;      /* NULL: the test's own */
	bool before_6_14;     /* execveat answers AT_EXECVE_CHECK with EINVAL */
	int openat2_errno;    /* 0: openat2 allowed */
	int close_range_errno; /* 0: close_range allowed */
	int fchmodat2_errno;  /* 0: fchmodat2 as the kernel has it */
	int faccessat2_errno; /* 0: faccessat2 as the kernel has it */
};

struct fexec_result {
	int exit_status;
	int term_signal;
	char out[4096];
	char err[1024];
};

/* argv[1] onwards of the tool; argv[0] is "fexec". The environment is
 * child_envp (IN_TEST=yes). */
struct fexec_result run_fexec(const struct fexec_world *world,
			      const char *const args[]);

/* The tool's path and the directory of expected outputs: argv[3] and
 * argv[4] of the test (after fixture_init's two). */
void fexec_run_init(int argc, char **argv);

/* The contents of a file in the expected-output directory. */
const char *expected_output(const char *name);

/* Fails the test unless fexec exited with status, printing exactly out on
 * stdout and err on stderr. */
void assert_fexec_result(struct fexec_result r, int status, const char *out,
			 const char *err);

#endif /* TESTS_FEXEC_RUN_H */
