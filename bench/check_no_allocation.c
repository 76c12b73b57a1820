/*
 * fexecve and execveat allocate nothing on any path, failing or not.
 * POSIX lists fexecve as async-signal-safe and programs call it in vfork
 * children, where malloc could deadlock on a lock the parent holds or
 * corrupt the heap they share.
 *
 *   check-no-allocation PROGRAM             every path with the real /proc
 *   check-no-allocation PROGRAM without-proc  the fallback finding no /proc
 *
 * Each call below is counted by heap_counter.c; a successful exec runs in
 * a vfork child, whose calls land in this process's counter.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hostile_env.h"
#include "execveat.h"
#include "heap_counter.h"

/* .err values that are not errnos. */
#define RAN_AND_EXITED_0 (-2) /* the program ran (in a vfork child) */
#define DID_NOT_RUN (-1)      /* the exec returned 0, or the program failed */

static char *child_argv[] = { "exit-at-once", NULL };
static char *child_envp[] = { NULL };
/* volatile: the compiler must not see these NULLs (glibc's __nonnull). */
static char **volatile no_argv;
static char **volatile no_envp;
/* A "#!" script, close-on-exec, opened for reading and with O_PATH: the
 * fallback reads its first bytes, the second through its /proc name. */
static int cloexec_script = -1, o_path_cloexec_script = -1;

struct counted {
	int err;             /* errno the call returned with */
	unsigned long heap;  /* heap calls it made */
};

static struct counted counted_fexecve(int fd, char **argv, char **envp)
{
	unsigned long before = heap_calls;
	struct counted c;

	errno = 0;
	if (fexecve(fd, argv, envp) != -1)
		errno = DID_NOT_RUN;
	c.err = errno;
	c.heap = heap_calls - before;
	return c;
}

static struct counted counted_execveat(int dirfd, const char *path, int flags)
{
	unsigned long before = heap_calls;
	struct counted c;

	errno = 0;
	if (execveat(dirfd, path, child_argv, child_envp, flags) != -1)
		errno = DID_NOT_RUN;
	c.err = errno;
	c.heap = heap_calls - before;
	return c;
}

/* The library's fexecve in a vfork child; .err is RAN_AND_EXITED_0 when
 * the program ran, else DID_NOT_RUN. */
static struct counted counted_fexecve_run(int fd)
{
	unsigned long before = heap_calls;
	struct counted c = { DID_NOT_RUN, 0 };
	int status;
	pid_t pid = vfork();

	if (pid == 0) {
		fexecve(fd, child_argv, child_envp);
		_exit(127);
	}
	if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 0)
		c.err = RAN_AND_EXITED_0;
	c.heap = heap_calls - before;
	return c;
}

static bool expect(const char *what, struct counted c, int expected_err)
{
	bool ok = c.err == expected_err && c.heap == 0;

	printf("%s %s: %s, %lu heap call(s)\n", ok ? "ok  " : "FAIL", what,
	       c.err == RAN_AND_EXITED_0 ? "program ran"
	       : c.err == DID_NOT_RUN   ? "did not run"
					: strerror(c.err),
	       c.heap);
	return ok;
}

/* Proof that heap_counter.c interposes at all: strdup allocates inside
 * libc, through the same lookup scope libexecveat's calls would use. */
static bool counter_works(void)
{
	unsigned long before = heap_calls;
	/* volatile: compilers delete an allocation that is freed unused. */
	char *volatile copy = strdup("x");

	free(copy);
	return heap_calls - before >= 2;
}

static bool failures_with_execveat(int program, int not_exec, int closed)
{
	bool ok = true;

	ok &= expect("fexecve(-1)", counted_fexecve(-1, child_argv,
						    child_envp), EINVAL);
	ok &= expect("fexecve(argv NULL)",
		     counted_fexecve(program, no_argv, child_envp), EINVAL);
	ok &= expect("fexecve(envp NULL)",
		     counted_fexecve(program, child_argv, no_envp), EINVAL);
	ok &= expect("fexecve(closed fd)",
		     counted_fexecve(closed, child_argv, child_envp), EBADF);
	ok &= expect("fexecve(/dev/null)",
		     counted_fexecve(not_exec, child_argv, child_envp), EACCES);
	ok &= expect("execveat(/dev/null, NULL)",
		     counted_execveat(not_exec, NULL, 0), EACCES);
	ok &= expect("execveat(AT_FDCWD, missing)",
		     counted_execveat(AT_FDCWD, "/nonexistent/program", 0),
		     ENOENT);
	ok &= expect("fexecve(program), fast path",
		     counted_fexecve_run(program), RAN_AND_EXITED_0);
	return ok;
}

/* With execveat refused: the first call learns ENOSYS (and caches it), the
 * later ones try the verified /proc first; EPERM is never cached. */
static bool failures_in_fallback(int program, int not_exec, int closed)
{
	bool ok = true;

	ok &= expect("fexecve(/dev/null), fallback, first call",
		     counted_fexecve(not_exec, child_argv, child_envp), EACCES);
	ok &= expect("fexecve(/dev/null), fallback, later call",
		     counted_fexecve(not_exec, child_argv, child_envp), EACCES);
	ok &= expect("fexecve(closed fd), fallback",
		     counted_fexecve(closed, child_argv, child_envp), EBADF);
	ok &= expect("fexecve(close-on-exec script), fallback",
		     counted_fexecve(cloexec_script, child_argv, child_envp),
		     ENOENT);
	ok &= expect("fexecve(O_PATH close-on-exec script), fallback",
		     counted_fexecve(o_path_cloexec_script, child_argv,
				     child_envp),
		     ENOENT);
	ok &= expect("fexecve(program), fallback",
		     counted_fexecve_run(program), RAN_AND_EXITED_0);
	return ok;
}

static bool without_proc(int program, int not_exec, int closed)
{
	bool ok = true;

	(void)not_exec;
	ok &= expect("fexecve(program), no /proc, first call",
		     counted_fexecve(program, child_argv, child_envp), ENOSYS);
	ok &= expect("fexecve(program), no /proc, later call",
		     counted_fexecve(program, child_argv, child_envp), ENOSYS);
	ok &= expect("fexecve(closed fd), no /proc",
		     counted_fexecve(closed, child_argv, child_envp), EBADF);
	return ok;
}

/* Writes a script into a new temporary file, opens it both ways, and
 * unlinks it: the fds keep it. */
static bool open_cloexec_scripts(void)
{
	static const char text[] = "#!/bin/sh\nexit 0\n";
	char path[] = "/tmp/check-no-allocation.XXXXXX";
	int fd = mkstemp(path);
	bool ok = fd >= 0 &&
		  write(fd, text, sizeof(text) - 1) == sizeof(text) - 1 &&
		  fchmod(fd, 0755) == 0;

	if (fd >= 0)
		close(fd);
	if (ok) {
		cloexec_script = open(path, O_RDONLY | O_CLOEXEC);
		o_path_cloexec_script = open(path, O_PATH | O_CLOEXEC);
	}
	if (fd >= 0)
		unlink(path);
	return ok && cloexec_script >= 0 && o_path_cloexec_script >= 0;
}

typedef bool checks_fn(int program, int not_exec, int closed);

/* Runs checks in a forked child with execveat refused with err (and /proc
 * hidden if asked): seccomp filters cannot be removed again. Returns 0,
 * 1 (a check failed) or 77 (this machine cannot make the world). */
static int in_child(checks_fn *checks, int err, bool hide, int fds[3])
{
	int status, setup;
	pid_t pid;

	printf("-- execveat refused with %s%s:\n", strerrorname_np(err),
	       hide ? ", /proc hidden" : "");
	pid = fork();
	if (pid == 0) {
		setup = hide ? hide_proc() : 0;
		if (setup == 0)
			setup = block_execveat(err);
		if (setup != 0) {
			printf("SKIP: cannot %s: %s\n",
			       hide ? "hide /proc (needs root or user "
				      "namespaces) or use seccomp"
				    : "use seccomp",
			       strerror(setup));
			_exit(77);
		}
		_exit(checks(fds[0], fds[1], fds[2]) ? 0 : 1);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 1;
	return WEXITSTATUS(status);
}

/* A failure outweighs a skip, a skip a pass. */
static int worse(int a, int b)
{
	if (a == 1 || b == 1)
		return 1;
	return a > b ? a : b;
}

int main(int argc, char **argv)
{
	int fds[3], result;

	if (argc < 2) {
		fprintf(stderr, "usage: %s PROGRAM [without-proc]\n", argv[0]);
		return 2;
	}
	/* Before the closed fd is made, so that no later open reuses it. */
	if (!open_cloexec_scripts()) {
		perror("script");
		return 99;
	}
	fds[0] = open(argv[1], O_RDONLY | O_CLOEXEC);
	fds[1] = open("/dev/null", O_RDONLY | O_CLOEXEC);
	fds[2] = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (fds[0] < 0 || fds[1] < 0 || fds[2] < 0 || close(fds[2]) != 0) {
		perror("open");
		return 99;
	}
	if (!counter_works()) {
		printf("the heap counter sees no calls: not interposed\n");
		return 99;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc > 2 && strcmp(argv[2], "without-proc") == 0)
		return in_child(without_proc, ENOSYS, true, fds);
	result = failures_with_execveat(fds[0], fds[1], fds[2]) ? 0 : 1;
	result = worse(result, in_child(failures_in_fallback, ENOSYS, false, fds));
	return worse(result, in_child(failures_in_fallback, EPERM, false, fds));
}
