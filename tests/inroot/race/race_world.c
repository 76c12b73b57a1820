#define _GNU_SOURCE
#include "race_world.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "old_calls.h"
#include "openat2_nr.h"
#include "proc_mounts.h"
#include "refuse_call.h"
#include "scratch_child.h"

const char *const world_names[WORLDS] = {
	"control", "openat2", "ENOSYS", "EPERM", "ENOSYS-noproc", "5.1-calls"
};

/* A tmpfs of the world's own at top (the storm's renames and the
 * sentinels' churn never reach the machine's disk, and go with the
 * namespace), the world's /proc at top/proc, then top as the process
 * root. 0, or an errno. */
static int enter(enum world w, const char *top)
{
	char proc[PATH_MAX];
	int err = w == FALLBACK_NO_PROC ? hide_proc() :
					  private_mount_namespace();

	snprintf(proc, sizeof proc, "%s/proc", top);
	if (err == 0 && mount("none", top, "tmpfs", 0, "mode=0755") != 0)
		err = errno;
	if (err == 0 && mkdir(proc, 0755) != 0)
		err = errno;
	if (err == 0 && mount("/proc", proc, NULL, MS_BIND | MS_REC, NULL))
		err = errno;
	if (err == 0 && (chroot(top) != 0 || chdir("/") != 0))
		err = errno;
	return err;
}

/* What openat2 answers here: 0, or its errno. */
static int openat2_refusal(int root)
{
	struct { uint64_t flags, mode, resolve; } how = {
		O_PATH | O_CLOEXEC, 0, 0x10 /* RESOLVE_IN_ROOT */
	};
	long fd = syscall(OPENAT2_NR, root, ".", &how, sizeof how);

	if (fd < 0)
		return errno;
	close((int)fd);
	return 0;
}

/* openat2 refused where the world says so, and the world checked: true,
 * or false with why. */
static bool complete(enum world w, int root, char *why, size_t size)
{
	/* Refused already (qemu-user, valgrind, an old kernel): that is
	 * the world asked for, without a filter. */
	int refusal = openat2_refusal(root);
	int want = w == FALLBACK_EPERM ? EPERM : ENOSYS;
	int err = w == OLD_CALLS ? refuse_calls_after_5_1() :
		  w >= FALLBACK ? refuse_call_unless_so(refusal, OPENAT2_NR,
							want) : 0;

	refusal = openat2_refusal(root);

	if (err != 0)
		snprintf(why, size, "cannot refuse openat2: %s",
			 strerror(err));
	else if (w == KERNEL && refusal != 0)
		snprintf(why, size, "openat2 answers %s here",
			 strerror(refusal));
	else if (w >= FALLBACK && refusal != want)
		snprintf(why, size, "openat2 not refused: %s",
			 strerror(refusal));
	else if (w == FALLBACK_NO_PROC && access("/proc/self", F_OK) == 0)
		snprintf(why, size, "/proc still there");
	else
		return true;
	return false;
}

_Noreturn static void in_world(enum world w, const char *top,
			       world_body *body, void *arg, char *why,
			       size_t size)
{
	struct race_tree t;
	int err = enter(w, top);

	if (err != 0) {
		snprintf(why, size, "cannot make its mount namespace, tmpfs "
			 "and chroot: %s", strerror(err));
		_exit(77);
	}
	if (race_tree_build(&t) != 0)
		_exit(2);
	if (!complete(w, t.root, why, size))
		_exit(77);
	_exit(body(w, &t, arg));
}

struct world_args {
	enum world w;
	world_body *body;
	void *arg;
	char *why;
	size_t size;
};

static void world_child(const char *top, void *arg)
{
	struct world_args *a = arg;

	in_world(a->w, top, a->body, a->arg, a->why, a->size);
}

int world_run(enum world w, world_body *body, void *arg, char *why,
	      size_t size)
{
	char top[] = "/tmp/inroot-race-XXXXXX", what[64];
	struct world_args a = { w, body, arg, why, size };

	snprintf(what, sizeof what, "inroot-race: world %s", world_names[w]);
	return scratch_child_run(top, what, world_child, &a);
}
