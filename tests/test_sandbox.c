/*
 * End to end in bubblewrap, as the library is used in the field: an
 * unmodified glibc program in a sandbox whose seccomp filter refuses
 * execveat, with no /proc or a planted one, run without and with
 * LD_PRELOAD=libexecveat.so.1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fixture.h"
#include "hostile_env.h"
#include "probe_run.h"
#include "suite.h"

#define FILTER_FD 11
#define FILTER_FD_STR "11"

/* The bubblewrap recipe of docs/preloading.md binds the library in at
 * this path, which exists only inside the sandbox. */
#define BOUND_LIBRARY "/run/libexecveat.so.1"

static const char *bwrap_path, *probe_path, *library_path;
static const char *preload_env;

enum proc_view { NO_PROC, REAL_PROC, PLANTED_PROC };

enum preload {
	NOT_PRELOADED,
	PRELOADED,       /* LD_PRELOAD naming the library where it was built */
	PRELOADED_BOUND, /* bound in at BOUND_LIBRARY (docs/preloading.md) */
};

struct sandbox {
	enum proc_view proc;
	int execveat_errno; /* 0: no filter */
};

/* bwrap reads a compiled filter from an fd (--seccomp FD). */
static int pass_filter(void *ctx)
{
	struct sandbox *s = ctx;
	struct refused_call execveat_call = { .nr = SYS_execveat,
					      .err = s->execveat_errno };
	int fd;

	if (s->execveat_errno == 0)
		return 0;
	fd = memfd_create("execveat-filter", 0);
	if (fd < 0)
		return ENOMEM;
	if (write_refusal_filter(&execveat_call, 1, fd) != 0 ||
	    lseek(fd, 0, SEEK_SET) != 0 || dup2(fd, FILTER_FD) != FILTER_FD)
		return EIO;
	return 0;
}

static struct probe_result in_sandbox(struct sandbox s, enum preload preload)
{
	char *argv[64] = { (char *)bwrap_path, "--ro-bind", "/", "/",
			   "--dev", "/dev" };
	char *envp[] = { NULL };
	int n = 6;

	if (s.proc == REAL_PROC) {
		argv[n++] = "--proc";
		argv[n++] = "/proc";
	} else {
		argv[n++] = "--tmpfs";
		argv[n++] = "/proc";
	}
	if (s.proc == PLANTED_PROC) {
		char *planted[] = {
			"--dir", "/proc/self", "--dir", "/proc/self/fd",
			"--symlink", (char *)impostor_path,
			"/proc/self/fd/" PROBE_FD_STR,
			"--dir", "/proc/thread-self",
			"--dir", "/proc/thread-self/fd",
			"--symlink", (char *)impostor_path,
			"/proc/thread-self/fd/" PROBE_FD_STR,
		};

		memcpy(argv + n, planted, sizeof(planted));
		n += sizeof(planted) / sizeof(planted[0]);
	}
	if (s.execveat_errno != 0) {
		argv[n++] = "--seccomp";
		argv[n++] = FILTER_FD_STR;
	}
	if (preload == PRELOADED_BOUND) {
		char *bound[] = { "--tmpfs", "/run", "--ro-bind",
				  (char *)library_path, BOUND_LIBRARY };

		memcpy(argv + n, bound, sizeof(bound));
		n += sizeof(bound) / sizeof(bound[0]);
	}
	if (preload != NOT_PRELOADED) {
		/* For the probe only: bwrap itself may be of another ABI. */
		argv[n++] = "--setenv";
		argv[n++] = "LD_PRELOAD";
		argv[n++] = preload == PRELOADED_BOUND ?
			BOUND_LIBRARY : strchr(preload_env, '=') + 1;
	}
	argv[n++] = (char *)probe_path;
	argv[n++] = "fexecve";
	argv[n++] = PROBE_FD_STR;
	/* Fewer than 40 are used: room for more options, never an overrun. */
	assert_true(n < (int)(sizeof(argv) / sizeof(argv[0])));
	return run_probe(pass_filter, &s, argv, envp);
}

static void sandbox_without_proc_runs_binary_either_way(void **state)
{
	(void)state;
	struct sandbox s = { NO_PROC, 0 };

	/* glibc 2.36 tries execveat first too: no difference here. */
	assert_probe_ran(in_sandbox(s, NOT_PRELOADED), CHILD_STATUS);
	assert_probe_ran(in_sandbox(s, PRELOADED), CHILD_STATUS);
}

static void sandbox_refusing_execveat_eperm_runs_only_with_preload(void **state)
{
	(void)state;
	struct sandbox s = { REAL_PROC, EPERM };

	assert_probe_said(in_sandbox(s, NOT_PRELOADED), "errno 1\n");
	assert_probe_ran(in_sandbox(s, PRELOADED), CHILD_STATUS);
}

static void sandbox_planted_proc_runs_impostor_only_without_preload(void **state)
{
	(void)state;
	struct sandbox s = { PLANTED_PROC, ENOSYS };

	assert_probe_ran(in_sandbox(s, NOT_PRELOADED), IMPOSTOR_STATUS);
	assert_probe_said(in_sandbox(s, PRELOADED), "errno 38\n");
}

static void sandbox_without_proc_or_execveat_runs_nothing(void **state)
{
	(void)state;
	struct sandbox s = { NO_PROC, ENOSYS };

	assert_probe_said(in_sandbox(s, NOT_PRELOADED), "errno 38\n");
	assert_probe_said(in_sandbox(s, PRELOADED), "errno 38\n");
}

/*
 * The recipe of docs/preloading.md: the library bound in read-only at a
 * path of the sandbox's own, LD_PRELOAD set with --setenv. Where /proc is a tmpfs and
 * execveat is refused with EPERM the program starts with it preloaded,
 * and fexecve says EPERM, since nothing can stand in for execveat there;
 * the other two worlds show that the bound library is the fexecve used.
 */
static void recipe_without_proc_eperm_starts_and_says_eperm(void **state)
{
	(void)state;
	struct sandbox s = { NO_PROC, EPERM };

	assert_probe_said(in_sandbox(s, PRELOADED_BOUND), "errno 1\n");
}

static void recipe_eperm_with_proc_runs_binary(void **state)
{
	(void)state;
	struct sandbox s = { REAL_PROC, EPERM };

	assert_probe_ran(in_sandbox(s, PRELOADED_BOUND), CHILD_STATUS);
}

static void recipe_planted_proc_refuses_impostor(void **state)
{
	(void)state;
	struct sandbox s = { PLANTED_PROC, ENOSYS };

	assert_probe_said(in_sandbox(s, PRELOADED_BOUND), "errno 38\n");
}

/* Exits 77 unless bwrap can make a sandbox here at all (it cannot in a
 * chroot, whose / is not a mount point), quoting what bwrap said. */
static void require_working_bwrap(void)
{
	char command[4200], said[512] = "";
	FILE *out;

	if (access(bwrap_path, X_OK) != 0) {
		printf("SKIP: needs bubblewrap (bwrap), not found\n");
		exit(77);
	}
	snprintf(command, sizeof(command),
		 "'%s' --ro-bind / / --dev /dev true 2>&1", bwrap_path);
	out = popen(command, "r");
	if (out == NULL)
		return;
	if (fgets(said, sizeof(said), out) == NULL)
		said[0] = '\0';
	if (pclose(out) != 0) {
		printf("SKIP: bwrap cannot make a sandbox here: %s\n", said);
		exit(77);
	}
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(sandbox_without_proc_runs_binary_either_way),
	cmocka_unit_test(sandbox_refusing_execveat_eperm_runs_only_with_preload),
	cmocka_unit_test(sandbox_planted_proc_runs_impostor_only_without_preload),
	cmocka_unit_test(sandbox_without_proc_or_execveat_runs_nothing),
	cmocka_unit_test(recipe_without_proc_eperm_starts_and_says_eperm),
	cmocka_unit_test(recipe_eperm_with_proc_runs_binary),
	cmocka_unit_test(recipe_planted_proc_refuses_impostor),
};

int main(int argc, char **argv)
{
	if (argc != 6) {
		fprintf(stderr,
			"usage: %s REPORT_ARGS IMPOSTOR PROBE LIBRARY BWRAP\n",
			argv[0]);
		return 2;
	}
	fixture_init(argc, argv);
	probe_path = argv[3];
	bwrap_path = argv[5];
	library_path = argv[4];
	require_working_bwrap();
	if (access(BOUND_LIBRARY, F_OK) == 0) {
		fprintf(stderr, "%s exists outside the sandbox: the recipe's "
			"tests would prove nothing\n", BOUND_LIBRARY);
		return 1;
	}
	preload_env = preload_setting(argv[4]);
	return RUN_SUITE(tests, NULL, NULL);
}
