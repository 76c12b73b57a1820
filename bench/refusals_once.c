/*
 * The subject of count-refused-calls.sh: for every call of the library
 * that has a fallback, in a child of its own where a seccomp filter
 * refuses its system call (ENOSYS, then EPERM), 100 calls of it between
 * marks written to fd -1, each checked to have answered as the fallback
 * must. strace then counts the refused system calls between the marks.
 *
 *   refusals-once
 *
 * The questions are ones the fallback answers by itself (/proc is there):
 * openat2 of a file beneath a directory, inroot_open of a file in a root,
 * fchmodat of a file with AT_SYMLINK_NOFOLLOW, and with inroot_chmod and
 * inroot_fchmod (an O_PATH fd) of it, faccessat with AT_EACCESS
 * (as root, whose IDs are all the same: no child), close_range of a
 * number no fd has, fexecve of a file no one may execute, whose /proc
 * exec fails EACCES; 2.1's inroot_getxattr of a file the process holds
 * open to read (the four *xattrat calls refused, as a policy older than
 * Linux 6.13 refuses them), and inroot_futimens of an fd open to write
 * where utimensat answers EINVAL to AT_EMPTY_PATH, as a kernel before
 * 5.8 does (a filter that judges that argument stands in for it).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "execveat.h"
#include "inroot.h"
#include "refuse_call.h"

#define CALLS 100
#define MARK(text) (void)!write(-1, text, strlen(text))

static int dirfd_under_test;
static char *no_args[] = { "refusals-once", NULL };
static char *no_env[] = { NULL };

/* One call; 1 where it answered as it must. */
static int call_openat2(void)
{
	struct open_how how = { O_RDONLY | O_CLOEXEC, 0, RESOLVE_BENEATH };
	int fd = openat2(dirfd_under_test, "file", &how, sizeof(how));

	return fd >= 0 && close(fd) == 0;
}

static int call_inroot_open(void)
{
	int fd = inroot_open(dirfd_under_test, "file", O_RDONLY | O_CLOEXEC);

	return fd >= 0 && close(fd) == 0;
}

static int call_fchmodat(void)
{
	return fchmodat(dirfd_under_test, "file", 0600,
			AT_SYMLINK_NOFOLLOW) == 0;
}

/* inroot_chmod, inroot_fchmod and fchmodat share one memory of
 * fchmodat2's refusal: the first of the three proves it for all. */
static int call_inroot_chmod(void)
{
	int fd = openat(dirfd_under_test, "file", O_PATH | O_CLOEXEC);
	int ok = fd >= 0 &&
		 inroot_chmod(dirfd_under_test, "file", 0600, 0) == 0 &&
		 inroot_fchmod(fd, 0640) == 0 &&
		 fchmodat(dirfd_under_test, "file", 0600,
			  AT_SYMLINK_NOFOLLOW) == 0;

	return fd >= 0 && close(fd) == 0 && ok;
}

static int call_faccessat(void)
{
	return faccessat(dirfd_under_test, "file", R_OK, AT_EACCESS) == 0;
}

static int call_close_range(void)
{
	return close_range(1000, 1000, 0) == 0;
}

static int call_inroot_getxattr(void)
{
	int held = openat(dirfd_under_test, "file", O_RDONLY | O_CLOEXEC);
	ssize_t r = inroot_getxattr(dirfd_under_test, "file", "user.none",
				    NULL, 0, 0);
	int ok = r == -1 && (errno == ENODATA || errno == EOPNOTSUPP);

	return held >= 0 && close(held) == 0 && ok;
}

static int call_inroot_futimens(void)
{
	int fd = openat(dirfd_under_test, "file", O_WRONLY | O_CLOEXEC);
	int ok = fd >= 0 && inroot_futimens(fd, NULL) == 0;

	return fd >= 0 && close(fd) == 0 && ok;
}

static int call_fexecve(void)
{
	int fd = openat(dirfd_under_test, "file", O_PATH | O_CLOEXEC);
	int ok = fd >= 0 && fexecve(fd, no_args, no_env) == -1 &&
		 errno == EACCES;

	return fd >= 0 && close(fd) == 0 && ok;
}

#define AT_EMPTY_PATH_FLAG 0x1000

static const struct {
	const char *name;
	struct refused_call refused[4]; /* nr 0: none; err 0: each errno */
	int only_err;                   /* 0: ENOSYS, then EPERM */
	int (*call)(void);
} calls[] = {
	{ "openat2", { { .nr = 437 } }, 0, call_openat2 },
	{ "inroot_open", { { .nr = 437 } }, 0, call_inroot_open },
	{ "fchmodat", { { .nr = 452 } }, 0, call_fchmodat },
	{ "inroot_chmod", { { .nr = 452 } }, 0, call_inroot_chmod },
	{ "faccessat", { { .nr = 439 } }, 0, call_faccessat },
	{ "close_range", { { .nr = 436 } }, 0, call_close_range },
	{ "fexecve", { { .nr = SYS_execveat } }, 0, call_fexecve },
	/* setxattrat, getxattrat, listxattrat, removexattrat. */
	{ "inroot_getxattr", { { .nr = 463 }, { .nr = 464 }, { .nr = 465 },
			       { .nr = 466 } }, 0, call_inroot_getxattr },
	{ "inroot_futimens", { { .nr = SYS_utimensat, .arg = 3,
				 .mask = AT_EMPTY_PATH_FLAG,
				 .value = AT_EMPTY_PATH_FLAG } }, EINVAL,
	  call_inroot_futimens },
};

/* In a child: the call refused with err, then CALLS calls between
 * marks. 0 when every one answered as it must. */
static int refused_calls(size_t c, int err)
{
	struct refused_call refused[4];
	char mark[128];
	size_t n = 0;
	int ok = 1;

	for (; n < 4 && calls[c].refused[n].nr != 0; n++) {
		refused[n] = calls[c].refused[n];
		refused[n].err = err;
	}
	if (refuse_calls(refused, n) != 0)
		return 2;
	snprintf(mark, sizeof(mark), "refusals-once: %s %s", calls[c].name,
		 err == ENOSYS ? "ENOSYS" : err == EPERM ? "EPERM" : "EINVAL");
	MARK(mark);
	for (int i = 0; i < CALLS; i++)
		ok &= calls[c].call();
	MARK("refusals-once: end");
	return ok ? 0 : 1;
}

int main(void)
{
	char dir[] = "/tmp/refusals-once.XXXXXX";
	int fd, failed = 0;

	if (mkdtemp(dir) == NULL ||
	    (dirfd_under_test = open(dir, O_DIRECTORY | O_RDONLY)) < 0 ||
	    (fd = openat(dirfd_under_test, "file", O_CREAT | O_WRONLY,
			 0644)) < 0 || close(fd) != 0)
		return 2;
	for (size_t c = 0; c < sizeof(calls) / sizeof(calls[0]); c++) {
		for (int e = 0; e < (calls[c].only_err ? 1 : 2); e++) {
			int err = calls[c].only_err ? calls[c].only_err :
				  e == 0 ? ENOSYS : EPERM, status = -1;
			pid_t pid = fork();

			if (pid == 0)
				_exit(refused_calls(c, err));
			if (pid < 0 || waitpid(pid, &status, 0) != pid ||
			    !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
				fprintf(stderr, "refusals-once: %s refused %s: "
					"%s\n", calls[c].name, strerror(err),
					WIFEXITED(status) &&
							WEXITSTATUS(status) == 2 ?
						"no filter" : "a wrong answer");
				failed = 1;
			}
		}
	}
	unlinkat(dirfd_under_test, "file", 0);
	rmdir(dir);
	return failed;
}
