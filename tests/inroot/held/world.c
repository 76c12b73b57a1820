#define _GNU_SOURCE
#include "world.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "old_calls.h"
#include "openat2_nr.h"
#include "proc_mounts.h"
#include "refuse_call.h"
#include "scratch_child.h"

const char *const world_names[WORLDS] = {
	"kernel", "openat2 ENOSYS", "openat2 EPERM", "no /proc",
	"5.1's calls", "5.1's calls, no /proc", "5.1's calls, fake /proc"
};

bool world_proc(enum world w)
{
	return w != NO_PROC && w != OLD_NO_PROC && w != OLD_FAKE_PROC;
}

#define NR(n) (OPENAT2_NR - 437 + (n)) /* the unified numbers, x32's bit */

/* Whether the answer (rc, errno) says the call is missing. */
static bool missing(long rc)
{
	return rc < 0 && (errno == ENOSYS || errno == EPERM);
}

bool world_has(enum later_call call)
{
	int saved_errno = errno, fd;
	bool has = false;

	switch (call) {
	case OPEN_TREE:
		has = !missing(syscall(NR(428), -1L, "", 0L));
		break;
	case MOUNT_SETATTR:
		has = !missing(syscall(NR(442), -1L, "", 0L, NULL, 0L));
		break;
	case FCHMODAT2:
		has = !missing(syscall(NR(452), (long)AT_FDCWD, "", 0L, -1L));
		break;
	case XATTRAT:
		has = !missing(syscall(NR(465), (long)AT_FDCWD, "", -1L, NULL,
				       0L));
		break;
	case XATTRAT_OPATH:
		fd = open("/", O_PATH | O_CLOEXEC);
		has = world_has(XATTRAT) &&
		      syscall(NR(465), (long)fd, "", (long)AT_EMPTY_PATH, NULL,
			      0L) >= 0;
		close(fd);
		break;
	case UTIMENSAT_EMPTY:
		has = syscall(SYS_utimensat, -1L, "", NULL,
			      (long)AT_EMPTY_PATH) < 0 && errno != EINVAL;
		break;
	}
	errno = saved_errno;
	return has;
}

bool user_xattrs_at(const char *path)
{
	return setxattr(path, "user.probe", "p", 1, 0) == 0 &&
	       removexattr(path, "user.probe") == 0;
}

static int refuse(enum world w)
{
	if (w == OPENAT2_ENOSYS || w == OPENAT2_EPERM)
		return refuse_call(OPENAT2_NR,
				   w == OPENAT2_EPERM ? EPERM : ENOSYS);
	return w < OLD_CALLS ? 0 : refuse_calls_after_5_1();
}

static int hide(enum world w, const char *top)
{
	char victim[256];

	if (w == NO_PROC || w == OLD_NO_PROC)
		return hide_proc();
	if (w != OLD_FAKE_PROC)
		return 0;
	snprintf(victim, sizeof victim, "%s/outside/victim", top);
	return fake_proc_from(0, victim);
}

_Noreturn static void in_world(enum world w, const char *top,
			       world_body *body, char *why, size_t size)
{
	int err = private_mount_namespace();

	if (err == 0 && mount("none", top, "tmpfs", 0, "mode=0755") != 0)
		err = errno;
	if (err == 0)
		err = hide(w, top);
	if (err != 0) {
		snprintf(why, size, "cannot make its mount namespace, tmpfs "
			 "and /proc: %s", strerror(err));
		_exit(77);
	}
	err = refuse(w);
	if (err != 0) {
		snprintf(why, size, "cannot refuse the calls: %s",
			 strerror(err));
		_exit(77);
	}
	err = body(w, top);
	fflush(stdout);
	_exit(err);
}

struct world_args {
	enum world w;
	world_body *body;
	char *why;
	size_t size;
};

static void world_child(const char *top, void *arg)
{
	struct world_args *a = arg;

	in_world(a->w, top, a->body, a->why, a->size);
}

int world_run(enum world w, world_body *body, char *why, size_t size)
{
	char top[] = "/tmp/inroot-held-XXXXXX", what[64];
	struct world_args a = { w, body, why, size };

	snprintf(what, sizeof what, "world %s", world_names[w]);
	return scratch_child_run(top, what, world_child, &a);
}

const char *in_top(const char *top, const char *p)
{
	static char at[512];

	snprintf(at, sizeof at, "%s/%s", top, p);
	return at;
}

int world_run_each(world_body *body, const enum world *worlds, size_t n,
		   const char *why_root)
{
	const size_t size = 256;
	char *why;
	int worst = 0, ran = 0;

	if (geteuid() != 0) {
		printf("needs root: %s\n", why_root);
		return 77;
	}
	/* Shared: the world's child writes why it could not be made. */
	why = mmap(NULL, size, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (why == MAP_FAILED) {
		perror("world_run_each");
		return 1;
	}
	for (size_t i = 0; i < (n ? n : WORLDS); i++) {
		enum world w = n ? worlds[i] : (enum world)i;
		int status;

		why[0] = '\0';
		status = world_run(w, body, why, size);
		if (status == 77) {
			/* A body that skips says why itself. */
			printf("skip (%s): %s\n", world_names[w],
			       why[0] ? why : "said above");
			continue;
		}
		ran++;
		worst |= status != 0;
	}
	munmap(why, size);
	return ran == 0 ? 77 : worst;
}
