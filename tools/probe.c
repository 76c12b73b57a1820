/*
 * fexec --probe: test, without executing anything, each way libexecveat's
 * fexecve can run a program, with the same proofs the library demands.
 *
 * execveat: Linux 6.14+ has AT_EXECVE_CHECK, which makes execveat do every
 * check of a real exec and return 0 instead of executing; older kernels
 * reject the unknown flag with EINVAL (execveat has refused unknown flags
 * since 3.19). There we ask the kernel to resolve an empty path without
 * AT_EMPTY_PATH, which it always answers with ENOENT before looking at any
 * file. Either way, ENOSYS or EPERM is what a missing system call or a
 * seccomp policy says, and those are what make fexecve fall back.
 *
 * proc: /proc/self/fd must be on procfs (statfs magic) and
 * /proc/self/fd/N must be the very file (st_dev, st_ino) open at N.
 */
#define _GNU_SOURCE
#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "execveat.h"

#define PROC_FD_DIR "/proc/self/fd"
/* <linux/magic.h>, which musl-gcc cannot see. */
#define PROC_SUPER_MAGIC 0x9fa0

struct verdict {
	bool usable;
	char text[200];
};

/* If the kernel ever did execute, this argv makes fexec fail loudly. */
static char *const never_run_argv[] = { "fexec", "--probe-must-not-run", NULL };

static bool refusal(int err)
{
	return err == ENOSYS || err == EPERM;
}

static struct verdict refused_with(int err)
{
	struct verdict v = { .usable = false };

	snprintf(v.text, sizeof(v.text),
		 "%s (%s), refused by the kernel or a seccomp policy",
		 err == ENOSYS ? "ENOSYS" : "EPERM", strerror(err));
	return v;
}

static struct verdict usable_because(const char *why)
{
	struct verdict v = { .usable = true };

	snprintf(v.text, sizeof(v.text), "usable (%s)", why);
	return v;
}

/* 0 if the check passed, else the errno (EINVAL before Linux 6.14, which
 * does not know the flag). */
static int execve_check_self(void)
{
	const char *self = (const char *)getauxval(AT_EXECFN);
	int fd, err;

	if (self == NULL || (fd = open(self, O_RDONLY | O_CLOEXEC)) < 0)
		return EINVAL;
	err = execveat(fd, "", never_run_argv, environ,
		       AT_EMPTY_PATH | AT_EXECVE_CHECK) == 0 ? 0 : errno;
	close(fd);
	return err;
}

static struct verdict probe_execveat(void)
{
	int err = execve_check_self();

	if (err == 0)
		return usable_because("AT_EXECVE_CHECK passed on fexec itself");
	if (refusal(err))
		return refused_with(err);
	execveat(-1, "", never_run_argv, environ, 0);
	err = errno;
	if (refusal(err))
		return refused_with(err);
	return usable_because(err == ENOENT ?
		"no AT_EXECVE_CHECK, but an empty path got ENOENT" :
		"no AT_EXECVE_CHECK, but the system call answered");
}

__attribute__((format(printf, 1, 0)))
static struct verdict proc_refused(const char *fmt, const char *detail)
{
	struct verdict v = { .usable = false };

	snprintf(v.text, sizeof(v.text), fmt, detail);
	return v;
}

static struct verdict judge_proc_name(int fd)
{
	char name[sizeof(PROC_FD_DIR) + 16];
	struct stat by_fd, by_name;

	snprintf(name, sizeof(name), PROC_FD_DIR "/%d", fd);
	if (fstat(fd, &by_fd) != 0 || stat(name, &by_name) != 0)
		return proc_refused("%s cannot be resolved", name);
	if (by_fd.st_dev != by_name.st_dev || by_fd.st_ino != by_name.st_ino)
		return proc_refused("%s names another file", name);
	return usable_because(PROC_FD_DIR " is procfs and names the file"
			      " open at the fd");
}

static struct verdict probe_proc(void)
{
	struct statfs sfs;
	struct verdict v;
	int fd;

	if (statfs(PROC_FD_DIR "/", &sfs) != 0)
		return proc_refused(PROC_FD_DIR " is missing (%s)",
				    strerror(errno));
	if (sfs.f_type != PROC_SUPER_MAGIC)
		return proc_refused("%s is not procfs", "/proc");
	fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return proc_refused("cannot open a file to test with (%s)",
				    strerror(errno));
	v = judge_proc_name(fd);
	close(fd);
	return v;
}

int run_probe(void)
{
	struct verdict by_execveat = probe_execveat();
	struct verdict by_proc = probe_proc();
	const char *choice = by_execveat.usable ? "execveat" :
			     by_proc.usable     ? "proc" :
						  "none";

	printf("execveat: %s\n", by_execveat.text);
	printf("proc: %s\n", by_proc.text);
	printf("fexecve uses: %s\n", choice);
	return strcmp(choice, "none") == 0 ? 1 : 0;
}
