/*
 * A program built against glibc 2.39 or later and never linked with
 * libexecveat, for the compat suite's sid root: it calls glibc's own
 * pidfd_getpid() for a pidfd of a child of its own, in the world its
 * argument names, and prints the answer: "the child's pid", "the decoy"
 * (the pid the fake /proc names), or the errno's text. Exits 0 when the
 * answer is the child's pid, 1 otherwise.
 *
 *   glibc_pidfd_client allowed|no-proc|enotty|enotty-no-proc|enotty-fake-proc
 *
 * enotty: the PIDFD_GET_INFO ioctl answered as a kernel before 6.13 does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pidfd_worlds.h"
#include "proc_mounts.h"

/* [enotty-]allowed|no-proc|fake-proc ("enotty" alone: allowed). */
static int make_world(const char *world, int fd)
{
	const char *proc = world;
	int err = 0;

	if (strncmp(world, "enotty", 6) == 0) {
		err = refuse_pidfd_get_info(ENOTTY);
		proc = world[6] == '-' ? world + 7 : "allowed";
	}
	if (err != 0 || strcmp(proc, "allowed") == 0)
		return err;
	if (strcmp(proc, "no-proc") == 0)
		return hide_proc();
	if (strcmp(proc, "fake-proc") == 0)
		return fake_proc_naming_decoy(fd);
	return EINVAL;
}

int main(int argc, char **argv)
{
	pid_t child, answer;
	int fd, err, status;

	if (argc != 2) {
		fprintf(stderr, "usage: %s allowed|no-proc|enotty|"
				"enotty-no-proc|enotty-fake-proc\n", argv[0]);
		return 2;
	}
	child = fork();
	if (child == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		pause();
		_exit(0);
	}
	fd = (int)syscall(SYS_pidfd_open, (long)child, 0L);
	err = fd < 0 ? errno : make_world(argv[1], fd);
	if (child < 0 || err != 0) {
		fprintf(stderr, "setup: %s\n", strerror(child < 0 ? errno : err));
		return 2;
	}
	errno = 0;
	answer = pidfd_getpid(fd);
	if (answer == child)
		printf("the child's pid\n");
	else if (answer == PIDFD_DECOY)
		printf("the decoy\n");
	else if (answer == -1)
		printf("%s\n", strerror(errno));
	else
		printf("another pid, %d\n", (int)answer);
	kill(child, SIGKILL);
	waitpid(child, &status, 0);
	return answer == child ? 0 : 1;
}
