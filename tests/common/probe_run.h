/*
 * Running an unmodified program (tests/programs/glibc_fexecve_probe.c) in a
 * prepared world, with report_args open at PROBE_FD, and capturing what it
 * printed and how it ended.
 */
#ifndef TESTS_PROBE_RUN_H
#define TESTS_PROBE_RUN_H

#include "exec_outcome.h"

#define PROBE_FD 10
#define PROBE_FD_STR "10"

struct probe_result {
	char output[256]; /* its stdout, "" when the exec succeeded */
	int exit_status;
	int term_signal;
};

/* Forks; the child runs setup(ctx) (if given; a failure fails the test),
 * then execve(argv[0], argv, envp). */
struct probe_result run_probe(child_setup_fn setup, void *ctx,
			      char *const argv[], char *const envp[]);

/* "LD_PRELOAD=<dir>/libexecveat.so.1", dir being that of the library the
 * build made (the loader then finds it by its soname's file). */
const char *preload_setting(const char *built_library);

/* Fails the test unless the probe printed nothing and exited with status. */
void assert_probe_ran(struct probe_result r, int status);

/* Fails the test unless the probe printed exactly this. */
void assert_probe_said(struct probe_result r, const char *output);

#endif /* TESTS_PROBE_RUN_H */
