#include "child_errno.h"

#include <errno.h>
#include <sys/wait.h>
#include <unistd.h>

int errno_of_child(int (*try)(void))
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(try() & 0xff);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return errno;
	if (!WIFEXITED(status))
		return EINTR;
	return WEXITSTATUS(status);
}
