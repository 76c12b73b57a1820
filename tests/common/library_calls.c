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

/*
 * glibc declares fexecve's argv __nonnull, and (2.34+, with _GNU_SOURCE)
 * execveat's path too: passing NULL to them by name is undefined behaviour
 * in the caller (UBSan stops there), whatever the library then does with
 * it. A pointer to the function carries no such attribute.
 */
static int (*volatile execveat_ptr)(int, const char *, char *const[],
				    char *const[], int) = execveat;
static int (*volatile fexecve_ptr)(int, char *const[], char *const[]) =
	fexecve;

int call_execveat(int dirfd, const char *path, char *const argv[],
		  char *const envp[], int flags)
{
	return execveat_ptr(dirfd, path, argv, envp, flags);
}

int call_fexecve(int fd, char *const argv[], char *const envp[])
{
	return fexecve_ptr(fd, argv, envp);
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
