#define _GNU_SOURCE
#include "scratch_child.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scratch_dir.h"

int scratch_child_run(char *template, const char *what, scratch_child *child,
		      void *arg)
{
	int top_fd = scratch_dir_make(template), status = 2 << 8;
	pid_t pid;

	if (top_fd < 0) {
		perror("the scratch directory");
		return 2;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		/* The world dies with the test. */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0)
			_exit(2);
		child(template, arg);
		_exit(2);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		status = 2 << 8;
	scratch_dir_remove(template, top_fd);
	if (WIFSIGNALED(status))
		fprintf(stderr, "%s: killed by signal %d\n", what,
			WTERMSIG(status));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}
