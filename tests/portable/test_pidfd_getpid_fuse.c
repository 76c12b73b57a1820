/*
 * pidfd_getpid on a FUSE directory whose server answers the
 * PIDFD_GET_INFO ioctl with a pid of its choosing (the kernel forwards a
 * FUSE file's ioctls to its server): the library must not believe it
 * (EBADF: not a pidfd). The control asks the raw ioctl first, which does
 * get the server's pid. Needs root (a mount, in a mount namespace of the
 * test's own, which takes the mount with it) and /dev/fuse.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fuse.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "execveat.h"

#define CHOSEN_PID 1 /* the server names init */

/* struct pidfd_info as Linux 6.13 published it: 64 bytes. */
struct pidfd_info_v0 {
	uint64_t mask, cgroupid;
	uint32_t pid, tgid, ppid, ids[9];
};

static void reply(int dev, uint64_t unique, int err, const void *body,
		  size_t size)
{
	char buf[512];
	struct fuse_out_header header = {
		.len = (uint32_t)(sizeof header + size),
		.error = err,
		.unique = unique,
	};

	memcpy(buf, &header, sizeof header);
	if (size > 0)
		memcpy(buf + sizeof header, body, size);
	if (write(dev, buf, header.len) < 0)
		_exit(1);
}

/* The server: a root directory, and every ioctl answered with
 * CHOSEN_PID. */
static void serve(int dev)
{
	static char buf[1 << 17];

	for (;;) {
		struct fuse_in_header *in = (struct fuse_in_header *)buf;

		if (read(dev, buf, sizeof buf) <= 0)
			_exit(0);
		if (in->opcode == FUSE_INIT) {
			struct fuse_init_in *init = (void *)(in + 1);
			struct fuse_init_out out = {
				.major = FUSE_KERNEL_VERSION,
				.minor = init->minor,
				.max_write = 4096,
				.max_readahead = init->max_readahead,
			};

			reply(dev, in->unique, 0, &out, sizeof out);
		} else if (in->opcode == FUSE_GETATTR) {
			struct fuse_attr_out out = {
				.attr = { .ino = 1, .mode = S_IFDIR | 0755,
					  .nlink = 2 },
			};

			reply(dev, in->unique, 0, &out, sizeof out);
		} else if (in->opcode == FUSE_OPENDIR) {
			struct fuse_open_out out = { .fh = 1 };

			reply(dev, in->unique, 0, &out, sizeof out);
		} else if (in->opcode == FUSE_IOCTL) {
			struct {
				struct fuse_ioctl_out out;
				struct pidfd_info_v0 info;
			} answer = { .info = { .mask = 1, .pid = CHOSEN_PID,
					       .tgid = CHOSEN_PID } };

			reply(dev, in->unique, 0, &answer, sizeof answer);
		} else if (in->opcode != FUSE_FORGET) {
			reply(dev, in->unique,
			      in->opcode == FUSE_RELEASEDIR ||
					      in->opcode == FUSE_FLUSH ?
				      0 :
				      -ENOSYS,
			      NULL, 0);
		}
	}
}

/* 0 when the library refuses the server's pid, 1 when it believes it,
 * 77 where the world cannot be made here. */
static int ask(const char *dir)
{
	struct pidfd_info_v0 info = { .mask = 1 };
	char options[128];
	int dev = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	pid_t server, answer;
	int fd, err, failed;

	if (dev < 0) {
		printf("SKIP: /dev/fuse: %s\n", strerror(errno));
		return 77;
	}
	snprintf(options, sizeof options,
		 "fd=%d,rootmode=40000,user_id=0,group_id=0", dev);
	if (mount("pidfd-test", dir, "fuse", MS_NOSUID | MS_NODEV,
		  options) != 0) {
		printf("SKIP: mounting a FUSE file system: %s\n",
		       strerror(errno));
		close(dev);
		return 77;
	}
	/* The server starts once the mount has made dev a connection: a
	 * read of /dev/fuse before that answers EPERM, and a server started
	 * first, scheduled before the mount on a busy machine, ended there
	 * and took the connection with it. The mount itself waits for no
	 * answer (FUSE_INIT is sent in the background); the requests below
	 * wait for the server. */
	server = fork();
	if (server < 0) {
		perror("fork");
		umount2(dir, MNT_DETACH);
		return 1;
	}
	if (server == 0)
		serve(dev);
	/* The server holds the connection alone: where it dies, every
	 * request fails (ENOTCONN) instead of waiting for it. */
	close(dev);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		printf("FAIL: opening the FUSE directory: %s\n",
		       strerror(errno));
		failed = 1;
	} else if (ioctl(fd, _IOWR(0xFF, 11, struct pidfd_info_v0),
			 &info) != 0 ||
		   info.pid != CHOSEN_PID) {
		/* The control: the ioctl itself gets the server's pid. */
		printf("FAIL: the control: the raw ioctl did not get the "
		       "server's pid (%s)\n", strerror(errno));
		failed = 1;
	} else {
		printf("ok the raw ioctl gets the server's pid %d\n",
		       CHOSEN_PID);
		errno = 0;
		answer = pidfd_getpid(fd);
		err = errno;
		failed = !(answer == -1 && err == EBADF);
		printf("%s pidfd_getpid on the FUSE directory: %d (%s), "
		       "expected -1 (EBADF)\n", failed ? "FAIL:" : "ok",
		       (int)answer, strerror(err));
	}
	if (fd >= 0)
		close(fd);
	umount2(dir, MNT_DETACH);
	kill(server, SIGKILL);
	waitpid(server, NULL, 0);
	return failed;
}

int main(void)
{
	char dir[] = "/tmp/pidfd-getpid-fuse-XXXXXX";
	int status;

	if (geteuid() != 0) {
		printf("SKIP: mounting a FUSE file system needs root\n");
		return 77;
	}
	if (unshare(CLONE_NEWNS) != 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) {
		printf("SKIP: no mount namespace of its own: %s\n",
		       strerror(errno));
		return 77;
	}
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	status = ask(dir);
	rmdir(dir);
	return status;
}
