#define _GNU_SOURCE
#include "library_calls.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "execveat.h"
#include "fixture.h"

struct execveat_call {
	int dirfd;
	const char *path;
	int flags;
};

static void call_execveat(void *ctx)
{
	const struct execveat_call *c = ctx;

	execveat(c->dirfd, c->path, child_argv, child_envp, c->flags);
}

static void call_fexecve(void *ctx)
{
	fexecve(*(const int *)ctx, child_argv, child_envp);
}

struct exec_outcome run_execveat(int dirfd, const char *path, int flags)
{
	struct execveat_call c = { dirfd, path, flags };

	return run_in_child(NULL, call_execveat, &c);
}

struct exec_outcome run_fexecve(int fd)
{
	return run_in_child(NULL, call_fexecve, &fd);
}
