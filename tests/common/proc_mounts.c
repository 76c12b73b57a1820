#define _GNU_SOURCE
#include "proc_mounts.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/*
 * A mount namespace whose mounts never propagate back to the real /proc.
 * Making / private covers everything; in a chroot, / is not a mount point
 * (EINVAL), but every mount the tests make sits on the /proc mount, and
 * a mount's propagation follows the mount it is attached to.
 */
int private_mount_namespace(void)
{
	if (unshare(CLONE_NEWNS) != 0)
		return errno;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0)
		return 0;
	if (errno == EINVAL &&
	    mount(NULL, "/proc", NULL, MS_REC | MS_PRIVATE, NULL) == 0)
		return 0;
	return errno;
}

int hide_proc(void)
{
	int err = private_mount_namespace();

	if (err == 0 && mount("none", "/proc", "tmpfs", 0, NULL) != 0)
		err = errno;
	return err;
}

static int make_dir(const char *path)
{
	return mkdir(path, 0755) == 0 || errno == EEXIST ? 0 : errno;
}

/* /proc/<dir>/fd/<fd> -> target, in the tmpfs of hide_proc. */
static int fake_fd_link(const char *dir, int fd, const char *target)
{
	char path[64];
	int err;

	snprintf(path, sizeof(path), "/proc/%s", dir);
	err = make_dir(path);
	snprintf(path, sizeof(path), "/proc/%s/fd", dir);
	if (err == 0)
		err = make_dir(path);
	snprintf(path, sizeof(path), "/proc/%s/fd/%d", dir, fd);
	if (err == 0 && symlink(target, path) != 0)
		err = errno;
	return err;
}

int fake_proc_link(int fd, const char *target)
{
	int err = fake_fd_link("self", fd, target);

	return err != 0 ? err : fake_fd_link("thread-self", fd, target);
}

int fake_proc(int fd, const char *target)
{
	int err = hide_proc();

	return err != 0 ? err : fake_proc_link(fd, target);
}

int fake_proc_from(int first_fd, const char *target)
{
	int err = fake_proc(first_fd, target);

	for (int fd = first_fd + 1; err == 0 && fd < 64; fd++)
		err = fake_proc_link(fd, target);
	return err;
}

static int bind_over(const char *source, const char *target)
{
	return mount(source, target, NULL, MS_BIND, NULL) == 0 ? 0 : errno;
}

int borrow_proc_fd_dir(pid_t owner)
{
	char theirs[64], ours[64];
	int err = private_mount_namespace();
	int pid = (int)getpid(), tid = (int)syscall(SYS_gettid);

	snprintf(theirs, sizeof(theirs), "/proc/%d/fd", (int)owner);
	/* Both names of our table: the process's, and its thread's. */
	snprintf(ours, sizeof(ours), "/proc/%d/fd", pid);
	if (err == 0)
		err = bind_over(theirs, ours);
	snprintf(ours, sizeof(ours), "/proc/%d/task/%d/fd", pid, tid);
	if (err == 0)
		err = bind_over(theirs, ours);
	return err;
}

pid_t start_waiting_child(void)
{
	pid_t test_process = getpid();
	pid_t pid = fork();

	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != test_process)
			_exit(0);
		close(STDOUT_FILENO);
		close(STDERR_FILENO);
		for (;;)
			pause();
	}
	return pid;
}
