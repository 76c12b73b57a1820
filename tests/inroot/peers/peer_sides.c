#define _GNU_SOURCE
#include "peer_sides.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "kernel_side.h"
#include "library_side.h"

/* What a call returned (an fd where has_fd): the fd is closed here. */
static void answer_of(struct peer_answer *a, long rc, bool has_fd)
{
	struct stat st;

	memset(a, 0, sizeof *a);
	if (rc < 0) {
		a->err = errno;
		return;
	}
	if (!has_fd) {
		a->value = rc;
		return;
	}
	a->has_file = true;
	if (fstat((int)rc, &st) == 0) {
		a->dev = st.st_dev;
		a->ino = st.st_ino;
		a->type = st.st_mode & S_IFMT;
	}
	a->flags = fcntl((int)rc, F_GETFL);
	a->cloexec = fcntl((int)rc, F_GETFD) & FD_CLOEXEC;
	close((int)rc);
}

/* The case as both sides are asked it; text is readlink's. */
static struct inroot_call call_of(const struct peer_case *c, char *text,
				  size_t size)
{
	return (struct inroot_call){ .op = c->op, .path = c->path,
				     .other = c->other, .flags = c->flags,
				     .mode = c->mode,
				     .dev = makedev(c->major, c->minor),
				     .buf = text, .size = size };
}

/*
 * The kernel's answer, in this process: root moves to dir for the one
 * call, then back to where it was, through an fd of the old root (a
 * chroot does not close a way out held open, which is how a process
 * leaves one). Call it only in a child of the test's own, single
 * threaded: for the moment of the call, its root is the tree.
 */
int peer_kernel_side(const struct peer_case *c, const char *dir,
		     struct peer_answer *a)
{
	int old_root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	int old_cwd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	char text[PATH_MAX] = "";
	struct inroot_call call = call_of(c, text, sizeof text - 1);
	int err = 0;
	long rc;

	if (old_root < 0 || old_cwd < 0 || chroot(dir) != 0) {
		err = errno;
		goto out;
	}
	if (chdir("/") != 0) {
		err = errno;
	} else {
		rc = kernel_side_call(&call);
		answer_of(a, rc, inroot_op_returns_fd(c->op));
		if (c->op == OP_READLINK && rc >= 0)
			memcpy(a->text, text, (size_t)rc);
	}
	/* No way on without the old root: the process would walk the
	 * trees' paths inside the last one. */
	if (fchdir(old_root) != 0 || chroot(".") != 0 || fchdir(old_cwd) != 0)
		abort();
out:
	if (old_root >= 0)
		close(old_root);
	if (old_cwd >= 0)
		close(old_cwd);
	return err;
}

/* The lowest fd free: the one a leaked fd would have taken. */
static int lowest_free_fd(int fd)
{
	int probe = fcntl(fd, F_DUPFD_CLOEXEC, 0);

	if (probe >= 0)
		close(probe);
	return probe;
}

int peer_library_side(const struct peer_case *c, const char *dir,
		      struct peer_answer *a, bool *leaked)
{
	char text[PATH_MAX] = "";
	struct inroot_call call = call_of(c, text, sizeof text - 1);
	int root = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC), before;
	long rc;

	if (root < 0)
		return errno;
	before = lowest_free_fd(root);
	rc = library_side_call(root, &call);
	answer_of(a, rc, inroot_op_returns_fd(c->op));
	if (c->op == OP_READLINK && rc >= 0)
		memcpy(a->text, text,
		       (size_t)rc < sizeof text - 1 ? (size_t)rc :
						      sizeof text - 1);
	*leaked = lowest_free_fd(root) != before;
	close(root);
	return 0;
}
