#define _GNU_SOURCE
#include "exec_ways.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "execveat.h"
#include "glibc_fexecve.h"

static const char *const way_names[WAY_COUNT] = {
	[WAY_RAW] = "raw",
	[WAY_LIB] = "lib",
	[WAY_GLIBC] = "glibc",
	[WAY_PATH] = "path",
	[WAY_SPAWN] = "spawn",
};

const char *exec_way_name(enum exec_way way)
{
	return way_names[way];
}

/* Looked up once, before any timing, so that no vfork child pays for it. */
static fexecve_fn *glibc_fn;
static int glibc_looked_up;

int exec_way_available(enum exec_way way)
{
	if (way != WAY_GLIBC)
		return 1;
	if (!glibc_looked_up) {
		glibc_fn = glibc_fexecve();
		glibc_looked_up = 1;
	}
	return glibc_fn != NULL;
}

/* In the vfork child: only calls that are safe there, then _exit. */
static void exec_in_child(enum exec_way way, const struct exec_target *t)
{
	switch (way) {
	case WAY_RAW:
		syscall(SYS_execveat, (long)t->fd, (long)(uintptr_t)"",
			(long)(uintptr_t)t->argv, (long)(uintptr_t)t->envp,
			(long)AT_EMPTY_PATH);
		break;
	case WAY_LIB:
		fexecve(t->fd, t->argv, t->envp);
		break;
	case WAY_GLIBC:
		glibc_fn(t->fd, t->argv, t->envp);
		break;
	case WAY_PATH:
		execve(t->path, t->argv, t->envp);
		break;
	case WAY_SPAWN:
	case WAY_COUNT:
		break;
	}
	_exit(127);
}

void fault_in_exec_code(const struct exec_target *t)
{
	int saved = errno;

	fexecve(-1, t->argv, t->envp);
	if (exec_way_available(WAY_GLIBC))
		glibc_fn(-1, t->argv, t->envp);
	errno = saved;
}

static pid_t start(enum exec_way way, const struct exec_target *t)
{
	pid_t pid;

	if (way == WAY_SPAWN) {
		errno = posix_spawn(&pid, t->path, NULL, NULL, t->argv, t->envp);
		return errno == 0 ? pid : -1;
	}
	pid = vfork();
	if (pid == 0)
		exec_in_child(way, t);
	return pid;
}

static double microseconds(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) * 1e6 +
	       (double)(b->tv_nsec - a->tv_nsec) / 1e3;
}

double time_exec(enum exec_way way, const struct exec_target *target)
{
	struct timespec before, after;
	int status;
	pid_t pid;

	if (!exec_way_available(way)) {
		fprintf(stderr, "%s: not available in this build\n",
			exec_way_name(way));
		exit(1);
	}
	clock_gettime(CLOCK_MONOTONIC, &before);
	pid = start(way, target);
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		fprintf(stderr, "%s: %s\n", exec_way_name(way), strerror(errno));
		exit(1);
	}
	clock_gettime(CLOCK_MONOTONIC, &after);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "%s: %s did not run (wait status 0x%x)\n",
			exec_way_name(way), target->path, (unsigned)status);
		exit(1);
	}
	return microseconds(&before, &after);
}
