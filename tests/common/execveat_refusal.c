#define _GNU_SOURCE
#include "execveat_refusal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc_mounts.h"
#include "refuse_call.h"

/*
 * fd -1 with AT_EMPTY_PATH: a kernel that has execveat looks at the fd
 * first and says EBADF, so the probe never execs anything. Any answer but
 * ENOSYS or EPERM (the refusals the library falls back on) means present.
 */
int execveat_refusal(void)
{
	char *no_args[] = { NULL };

	return refusal_of(syscall(SYS_execveat, -1L, (long)(uintptr_t)"",
				  (long)(uintptr_t)no_args,
				  (long)(uintptr_t)no_args, (long)AT_EMPTY_PATH));
}

int execveat_outcome_errno(int expected)
{
	int refusal = execveat_refusal();

	return refusal != 0 ? refusal : expected;
}

int block_execveat(int err)
{
	return refuse_call_unless_so(execveat_refusal(), SYS_execveat, err);
}

int hide_proc_and_block_execveat(void)
{
	int err = hide_proc();

	return err != 0 ? err : block_execveat(ENOSYS);
}

int execveat_errno_without_proc(const char *program)
{
	char *argv[] = { (char *)program, NULL };
	char *envp[] = { NULL };
	int report[2], answer = -1, status;
	pid_t pid;

	if (pipe2(report, O_CLOEXEC) != 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		int fd = open(program, O_RDONLY | O_CLOEXEC);

		answer = hide_proc() != 0 || fd < 0 ? -1 : 0;
		if (answer == 0) {
			syscall(SYS_execveat, (long)fd, (long)(uintptr_t)"",
				(long)(uintptr_t)argv, (long)(uintptr_t)envp,
				(long)AT_EMPTY_PATH);
			answer = errno;
		}
		_exit(write(report[1], &answer, sizeof(answer)) ==
		      (ssize_t)sizeof(answer) ? 0 : 125);
	}
	close(report[1]);
	/* Nothing written: the exec closed the pipe, and ran. */
	if (pid < 0 || read(report[0], &answer, sizeof(answer)) == 0)
		answer = pid < 0 ? -1 : 0;
	close(report[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
	return answer;
}
