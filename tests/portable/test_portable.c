/*
 * execveat() and fexecve() through the public header only, with nothing
 * but the C library and the kernel: the suite for C libraries and ABIs
 * that have no cmocka or libseccomp (musl, x32), and a second opinion
 * everywhere else.
 *
 *   test-portable GROUP REPORT_ARGS IMPOSTOR
 *
 * GROUP "execveat" needs nothing; GROUP "fexecve" needs a mount namespace
 * and seccomp (or an execveat refused already, as under qemu-user), and
 * exits 77 (skipped) with the reason where they cannot be had. Prints one
 * line per case and exits 1 if any failed.
 *
 * No _GNU_SOURCE: glibc 2.34+ would then declare execveat with its path
 * __nonnull, and the NULL-path case would be undefined behaviour to the
 * compiler (UBSan reports it), though it is this library's documented API.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "execveat.h"
#include "child_errno.h"
#include "execveat_refusal.h"
#include "kernel_env.h"

#define CHILD_STATUS 42     /* what report_args exits with, given "42" */
#define IMPOSTOR_STATUS 66  /* tests/programs/impostor.c */

static char *child_argv[] = { "report_args", "42", NULL };
static char *child_envp[] = { "IN_TEST=yes", NULL };
static const char *report_args_path;
static const char *impostor_path;
static int refusal; /* execveat_refusal(): 0, or ENOSYS under qemu-user */

enum proc_state { PROC_REAL, PROC_HIDDEN, PROC_FAKE_IMPOSTOR };

struct exec_case {
	const char *name;
	enum proc_state proc;
	int blocked_with;   /* execveat fails with this errno; 0: allowed */
	int (*exec)(int fd);
	int expect_status;  /* the program ran and exited so, or */
	int expect_errno;   /* (if nonzero) the exec returned this errno */
};

static int exec_path(int fd)
{
	(void)fd;
	return execveat(AT_FDCWD, report_args_path, child_argv, child_envp, 0);
}

static int exec_null_path(int fd)
{
	/* volatile: the compiler must not see the NULL coming. */
	const char *volatile no_path = NULL;

	return execveat(fd, no_path, child_argv, child_envp, 0);
}

static int exec_empty_path_without_flag(int fd)
{
	return execveat(fd, "", child_argv, child_envp, 0);
}

static int exec_fd(int fd)
{
	return fexecve(fd, child_argv, child_envp);
}

static const struct exec_case execveat_cases[] = {
	{ "execveat_path_runs_program", PROC_REAL, 0, exec_path,
	  CHILD_STATUS, 0 },
	{ "execveat_null_path_runs_fd", PROC_REAL, 0, exec_null_path,
	  CHILD_STATUS, 0 },
	{ "execveat_empty_path_without_flag_is_enoent", PROC_REAL, 0,
	  exec_empty_path_without_flag, 0, ENOENT },
	{ "fexecve_runs_program", PROC_REAL, 0, exec_fd, CHILD_STATUS, 0 },
	{ NULL, 0, 0, NULL, 0, 0 },
};

/* The last three are where a C library's own fexecve (glibc's, musl's)
 * answers differently: EPERM, and the impostor's status. */
static const struct exec_case fexecve_cases[] = {
	{ "fexecve_without_proc_runs_program", PROC_HIDDEN, 0, exec_fd,
	  CHILD_STATUS, 0 },
	{ "fexecve_without_proc_or_execveat_is_enosys", PROC_HIDDEN, ENOSYS,
	  exec_fd, 0, ENOSYS },
	{ "fexecve_execveat_eperm_falls_back_to_proc", PROC_REAL, EPERM,
	  exec_fd, CHILD_STATUS, 0 },
	{ "fexecve_refuses_fake_proc", PROC_FAKE_IMPOSTOR, ENOSYS, exec_fd,
	  0, ENOSYS },
	{ NULL, 0, 0, NULL, 0, 0 },
};

/* What the child reported (returned: the exec came back with errno
 * reported) or how the program it ran ended (status). */
struct outcome {
	bool returned;
	int reported;
	int status;
};

/*
 * What a case must see in this world. Where execveat is refused (and the
 * case refuses nothing itself), a case that calls it gets the refusal
 * through the raw wrapper, whatever the file; fexecve still runs the
 * program through a real /proc, and without one answers the refusal.
 */
static struct exec_case in_this_world(const struct exec_case *c)
{
	struct exec_case here = *c;

	if (refusal == 0 || c->blocked_with != 0)
		return here;
	if (c->exec != exec_fd || c->proc != PROC_REAL) {
		here.expect_status = 0;
		here.expect_errno = refusal;
	}
	return here;
}

/* A case that needs execveat refused with another errno than the one it
 * is refused with here (EPERM under qemu-user) cannot be made where no
 * filter can be loaded: qemu-user lets no program load one. */
static bool cannot_be_made_here(const struct exec_case *c, struct outcome o)
{
	if (!(o.returned && o.reported < 0) || refusal == 0 ||
	    c->blocked_with == 0 || c->blocked_with == refusal)
		return false;
	printf("not here %s: execveat fails with %s here, and no filter can "
	       "make it %s (%s)\n", c->name, strerror(refusal),
	       strerror(c->blocked_with), strerror(-o.reported));
	return true;
}

static int make_world(const struct exec_case *c, int fd)
{
	int err = 0;

	if (c->proc == PROC_HIDDEN)
		err = hide_proc();
	else if (c->proc == PROC_FAKE_IMPOSTOR)
		err = fake_proc(fd, impostor_path);
	if (err == 0 && c->blocked_with != 0)
		err = block_execveat(c->blocked_with);
	return err;
}

/* The child writes the errno of a failed setup or a returned exec to a
 * CLOEXEC pipe; a successful exec closes it unwritten. */
static void run_child(const struct exec_case *c, int fd, int report_fd)
{
	int reported = make_world(c, fd);

	if (reported == 0) {
		c->exec(fd);
		reported = errno;
	} else {
		reported = -reported;
	}
	_exit(write(report_fd, &reported, sizeof(reported)) ==
	      (ssize_t)sizeof(reported) ? 0 : 125);
}

/* Prints why the outcome is not the case's expectation; false if it is. */
static bool outcome_differs(const struct exec_case *c, struct outcome o)
{
	if (o.returned && o.reported < 0)
		printf("not ok %s: making the environment: %s\n", c->name,
		       strerror(-o.reported));
	else if (c->expect_errno != 0 && o.returned) {
		if (o.reported == c->expect_errno)
			return false;
		printf("not ok %s: errno %s, expected %s\n", c->name,
		       strerror(o.reported), strerror(c->expect_errno));
	} else if (c->expect_errno != 0)
		printf("not ok %s: a program ran (status 0x%x), expected errno "
		       "%s\n", c->name, (unsigned)o.status,
		       strerror(c->expect_errno));
	else if (o.returned)
		printf("not ok %s: exec failed: %s\n", c->name,
		       strerror(o.reported));
	else if (!WIFEXITED(o.status) ||
		 WEXITSTATUS(o.status) != c->expect_status)
		printf("not ok %s: status 0x%x, expected exit %d%s\n", c->name,
		       (unsigned)o.status, c->expect_status,
		       WIFEXITED(o.status) &&
		       WEXITSTATUS(o.status) == IMPOSTOR_STATUS ?
		       " (the impostor ran)" : "");
	else
		return false;
	return true;
}

enum verdict { PASSED, FAILED, NOT_HERE };

static enum verdict run_case(const struct exec_case *c)
{
	struct exec_case here = in_this_world(c);
	int fd = open(report_args_path, O_RDONLY), pipefd[2];
	struct outcome o = { false, 0, 0 };
	pid_t pid;

	if (fd < 0 || pipe(pipefd) != 0 ||
	    fcntl(pipefd[1], F_SETFD, FD_CLOEXEC) != 0 || (pid = fork()) < 0) {
		printf("not ok %s: setup: %s\n", c->name, strerror(errno));
		return FAILED;
	}
	if (pid == 0)
		run_child(c, fd, pipefd[1]);
	close(pipefd[1]);
	o.returned = read(pipefd[0], &o.reported, sizeof(o.reported)) ==
		     (ssize_t)sizeof(o.reported);
	close(pipefd[0]);
	close(fd);
	waitpid(pid, &o.status, 0);
	if (cannot_be_made_here(c, o))
		return NOT_HERE;
	if (outcome_differs(&here, o))
		return FAILED;
	printf("ok %s\n", c->name);
	return PASSED;
}

/* Exits 77 unless a child can hide /proc and install a seccomp filter. */
static void require_kernel_env(void)
{
	int err = errno_of_child(hide_proc_and_block_execveat);

	if (err != 0) {
		printf("SKIP: needs root (a mount namespace, for a tmpfs over"
		       " /proc) and seccomp: %s\n", strerror(err));
		exit(77);
	}
}

int main(int argc, char **argv)
{
	const struct exec_case *cases;
	int counts[3] = { 0, 0, 0 };

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc != 4) {
		fprintf(stderr, "usage: %s execveat|fexecve REPORT_ARGS "
			"IMPOSTOR\n", argv[0]);
		return 2;
	}
	/* Absolute: a fake /proc's symlinks must not resolve relative to it. */
	report_args_path = realpath(argv[2], NULL);
	impostor_path = realpath(argv[3], NULL);
	if (report_args_path == NULL || impostor_path == NULL) {
		perror("realpath");
		return 2;
	}
	if (strcmp(argv[1], "execveat") == 0) {
		cases = execveat_cases;
	} else if (strcmp(argv[1], "fexecve") == 0) {
		require_kernel_env();
		cases = fexecve_cases;
	} else {
		fprintf(stderr, "unknown group %s\n", argv[1]);
		return 2;
	}
	refusal = execveat_refusal();
	if (refusal != 0)
		printf("execveat fails with %s here: the cases that call it "
		       "expect that\n", strerror(refusal));
	for (; cases->name != NULL; cases++)
		counts[run_case(cases)]++;
	if (counts[NOT_HERE] != 0)
		printf("%d case(s) cannot be made here\n", counts[NOT_HERE]);
	printf("%d passed, %d failed\n", counts[PASSED], counts[FAILED]);
	return counts[FAILED] != 0;
}
