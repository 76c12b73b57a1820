/*
 * fexecve's fallback looks into a close-on-exec file before it execs the
 * file's /proc name, to refuse a "#!" script as execveat does
 * (src/exec/cloexec_script.c). Each case holds a POSIX record lock on the file
 * through one fd (or the same) and calls fexecve, first with execveat there
 * (the kernel's answer), then with it refused (ENOSYS, the fallback
 * through a real /proc): both must answer the errno the case names (the
 * fallback otherwise only where fexecve(3) says so), and the lock must
 * still be held after either. A close of
 * any fd of the file that the look opened would drop the lock, as a
 * kernel's execveat never does.
 *
 * Libc-neutral (no cmocka, no libseccomp), and static in the kernel
 * matrix (tests/kernels): the errnos are those of every kernel booted
 * there. Exits 1 if a case failed, 77 where no seccomp filter can be
 * loaded or execveat is refused already (qemu-user): then there is no
 * kernel answer to compare with.
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

#include "child_errno.h"
#include "execveat.h"
#include "execveat_refusal.h"
#include "kernel_env.h"
#include "record_lock.h"

#define RAN (-1000) /* the exec succeeded: something ran */

static char dir[] = "/tmp/libexecveat-cloexec-script-XXXXXX";
static char script[64], binary[64];

struct lock_case {
	const char *name;
	const char *file;   /* script or binary */
	int exec_flags;     /* how the fd given to fexecve is opened */
	int holder_flags;   /* how the lock's fd is opened; -1: the exec fd */
	short lock_type;
	int expected;       /* errno */
	int fallback;       /* the fallback's errno where fexecve(3) says it
			     * differs; 0: expected */
};

static const struct lock_case cases[] = {
	{ "O_PATH script, read lock through a read fd", script,
	  O_PATH | O_CLOEXEC, O_RDONLY, F_RDLCK, ENOENT, 0 },
	{ "O_PATH script, write lock through a read-write fd", script,
	  O_PATH | O_CLOEXEC, O_RDWR, F_WRLCK, ETXTBSY, 0 },
	{ "O_PATH script, write lock through a write-only fd", script,
	  O_PATH | O_CLOEXEC, O_WRONLY, F_WRLCK, ETXTBSY, 0 },
	{ "read fd of the script, read lock through it", script,
	  O_RDONLY | O_CLOEXEC, -1, F_RDLCK, ENOENT, 0 },
	/* fexecve(3), NOTES, Scripts: another fd that writes the file is
	 * not looked for where fd itself reads. */
	{ "read fd of the script, write lock through a read-write fd", script,
	  O_RDONLY | O_CLOEXEC, O_RDWR, F_WRLCK, ETXTBSY, ENOENT },
	{ "write-only fd of the script, write lock through it", script,
	  O_WRONLY | O_CLOEXEC, -1, F_WRLCK, ETXTBSY, 0 },
	{ "read-write fd of the script, read lock through it", script,
	  O_RDWR | O_CLOEXEC, -1, F_RDLCK, ETXTBSY, 0 },
	{ "O_PATH binary, write lock through a write-only fd", binary,
	  O_PATH | O_CLOEXEC, O_WRONLY, F_WRLCK, ETXTBSY, 0 },
};

#define CASE_COUNT (sizeof(cases) / sizeof(cases[0]))

static char *child_argv[] = { "script", NULL };
static char *child_envp[] = { NULL };

/* In a child: the lock, the world, the call; the errno (or RAN) and
 * whether the lock was still held, written to report. */
static void run_child(const struct lock_case *c, bool refuse, int report)
{
	struct flock fl = { .l_type = c->lock_type, .l_whence = SEEK_SET };
	int result[2] = { 0, 0 };
	int fd = open(c->file, c->exec_flags);
	int holder = c->holder_flags == -1 ? fd :
		     open(c->file, c->holder_flags | O_CLOEXEC);

	if (fd < 0 || holder < 0 || fcntl(holder, F_SETLK, &fl) != 0)
		result[0] = -errno;
	else if (refuse && (result[0] = block_execveat(ENOSYS)) != 0)
		result[0] = -result[0];
	else {
		fexecve(fd, child_argv, child_envp);
		result[0] = errno;
		result[1] = record_lock_held(c->file);
	}
	_exit(write(report, result, sizeof(result)) == sizeof(result) ? 0 : 125);
}

/* The errno, RAN, or -errno of a failed setup; *held the lock after. */
static int outcome(const struct lock_case *c, bool refuse, bool *held)
{
	int pipefd[2], result[2] = { RAN, 0 }, status;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC) != 0 || (pid = fork()) < 0) {
		perror("pipe or fork");
		exit(2);
	}
	if (pid == 0)
		run_child(c, refuse, pipefd[1]);
	close(pipefd[1]);
	if (read(pipefd[0], result, sizeof(result)) != sizeof(result))
		result[0] = RAN;
	close(pipefd[0]);
	waitpid(pid, &status, 0);
	*held = result[1];
	return result[0];
}

static const char *describe(int answer)
{
	static char text[64];

	if (answer == RAN)
		return "the exec ran";
	if (answer < 0)
		snprintf(text, sizeof(text), "setup failed: %s",
			 strerror(-answer));
	else
		snprintf(text, sizeof(text), "%s", strerror(answer));
	return text;
}

static bool check(const struct lock_case *c, const char *who, int expected,
		  int answer, bool held)
{
	if (answer == expected && held)
		return true;
	printf("not ok %s (%s): %s, lock %s; expected %s, lock held\n",
	       c->name, who, describe(answer), held ? "held" : "gone",
	       strerror(expected));
	return false;
}

static void make_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text) ||
	    close(fd) != 0) {
		perror(path);
		exit(2);
	}
}

static int refuse_execveat(void)
{
	return block_execveat(ENOSYS);
}

int main(void)
{
	int failed = 0, err;
	bool held;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (execveat_refusal() != 0) {
		printf("SKIP: execveat is refused here (%s): no kernel answer "
		       "to compare with\n", strerror(execveat_refusal()));
		return 77;
	}
	err = errno_of_child(refuse_execveat);
	if (err != 0) {
		printf("SKIP: no seccomp filter can be loaded: %s\n",
		       strerror(err));
		return 77;
	}
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	snprintf(script, sizeof(script), "%s/script", dir);
	snprintf(binary, sizeof(binary), "%s/binary", dir);
	make_file(script, "#!/bin/sh\nexit 42\n");
	/* Never run: every case that execs it holds it open for writing. */
	make_file(binary, "\177ELF");
	for (size_t i = 0; i < CASE_COUNT; i++) {
		const struct lock_case *c = &cases[i];
		int answer = outcome(c, false, &held);
		int fallback = c->fallback ? c->fallback : c->expected;
		bool ok = check(c, "execveat", c->expected, answer, held);

		answer = outcome(c, true, &held);
		ok = check(c, "fallback", fallback, answer, held) && ok;
		if (ok)
			printf("ok %s: %s (the fallback: %s), lock held\n",
			       c->name, strerror(c->expected),
			       strerror(fallback));
		failed += !ok;
	}
	unlink(script);
	unlink(binary);
	rmdir(dir);
	printf("%zu cases, %d failed\n", CASE_COUNT, failed);
	return failed != 0;
}
