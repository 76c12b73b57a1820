#include "library_calls.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fixture.h"
#include "unchecked_calls.h"

struct execveat_call {
	int dirfd;
	const char *path;
	int flags;
};

int call_execveat(int dirfd, const char *path, char *const argv[],
		  char *const envp[], int flags)
{
	return execveat_unchecked(dirfd, path, argv, envp, flags);
}

int call_fexecve(int fd, char *const argv[], char *const envp[])
{
	return fexecve_unchecked(fd, argv, envp);
}

static void call_execveat_in_child(void *ctx)
{
	const struct execveat_call *c = ctx;

	call_execveat(c->dirfd, c->path, child_argv, child_envp, c->flags);
}

static void call_fexecve_in_child(void *ctx)
{
	call_fexecve(*(const int *)ctx, child_argv, child_envp);
}

struct exec_outcome run_execveat(int dirfd, const char *path, int flags)
{
	struct execveat_call c = { dirfd, path, flags };

	return run_in_child(NULL, call_execveat_in_child, &c);
}

struct exec_outcome run_fexecve(int fd)
{
	return run_in_child(NULL, call_fexecve_in_child, &fd);
}
