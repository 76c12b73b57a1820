/*
 * The proof that a mount beneath a root landed on the target held
 * (src/inroot/mount_target.c), for the new mount API's bind and mask:
 * another mount stacked over the target at the moment after the
 * library's mount and before its proof (AFTER_MOUNT, the library built
 * with the walk's call-outs) leaves the path showing a mount that is not
 * the library's, and the answer is EAGAIN; with nothing stacked, 0.
 *
 * The proof tells mounts apart by their ids: statx's, or where statx is
 * refused (a seccomp policy that predates it, a kernel before 4.11),
 * name_to_handle_at's (path/mount_id.h). So each case runs twice: as the
 * kernel is, and in a child whose statx a filter refuses (ENOSYS).
 *
 * Needs root (mount namespaces, mounts) and the new mount API; else
 * exits 77.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "inroot.h"
#include "refuse_call.h"
#include "resolve/moment.h"
#include "verdicts.h"
#include "world.h"

static char world[64];

/* What the call-out mounts over the target after the library's mount:
 * nothing where over is NULL; a bind of source, or a tmpfs where source
 * is NULL. */
static const char *over, *over_source;

void libexecveat_resolve_test_hook(enum resolve_moment moment, int dirfd,
				   const char *name)
{
	const char *target = over;

	(void)dirfd;
	(void)name;
	if (moment != AFTER_MOUNT || target == NULL)
		return;
	over = NULL;
	if ((over_source ? mount(over_source, target, NULL, MS_BIND, NULL) :
	     mount("tmpfs", target, "tmpfs", 0, NULL)) != 0)
		perror("the mount stacked over the target");
}

static void check(const char *name, int rc, int want_errno)
{
	verdict_answer(name, world, rc, want_errno);
}

/* The four cases on the targets of run (top/root/RUN-f1...). */
static void cases(int root, const char *top, const char *run)
{
	char src[256], target[256], path[64];

	snprintf(src, sizeof src, "%s/src", top);
	snprintf(path, sizeof path, "%s-f1", run);
	check("a bind onto a file", inroot_bind(AT_FDCWD, src, root, path, 0),
	      0);
	snprintf(path, sizeof path, "%s-f2", run);
	snprintf(target, sizeof target, "%s/root/%s", top, path);
	over = target;
	over_source = src;
	check("a bind onto a file, another bind over it before the proof",
	      inroot_bind(AT_FDCWD, src, root, path, 0), EAGAIN);
	snprintf(path, sizeof path, "%s-d1", run);
	check("a mask of a directory", inroot_mask(root, path), 0);
	snprintf(path, sizeof path, "%s-d2", run);
	snprintf(target, sizeof target, "%s/root/%s", top, path);
	over = target;
	over_source = NULL;
	check("a mask of a directory, a tmpfs over it before the proof",
	      inroot_mask(root, path), EAGAIN);
}

static int build(const char *top)
{
	static const char *const runs[] = { "statx", "nostatx" };
	int bad = mkdir(in_top(top, "root"), 0755);
	char p[64];

	bad |= close(open(in_top(top, "src"), O_CREAT | O_WRONLY, 0644));
	for (size_t i = 0; i < 2; i++) {
		snprintf(p, sizeof p, "root/%s-d1", runs[i]);
		bad |= mkdir(in_top(top, p), 0755);
		snprintf(p, sizeof p, "root/%s-d2", runs[i]);
		bad |= mkdir(in_top(top, p), 0755);
		for (int f = 1; f <= 2; f++) {
			snprintf(p, sizeof p, "root/%s-f%d", runs[i], f);
			bad |= close(open(in_top(top, p), O_CREAT | O_WRONLY,
					  0644));
		}
	}
	return bad;
}

/* The cases again in a child whose statx is refused: its verdicts are
 * its own lines, and its failures its exit status. */
static void without_statx(int root, const char *top)
{
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (refuse_call(SYS_statx, ENOSYS) != 0)
			_exit(2);
		passed = failed = 0;
		snprintf(world, sizeof world, "%s", "kernel, statx refused");
		cases(root, top, "nostatx");
		fflush(stdout);
		_exit(failed ? 1 : 0);
	}
	verdict(pid > 0 && waitpid(pid, &status, 0) == pid &&
		WIFEXITED(status) && WEXITSTATUS(status) == 0,
		"every case with statx refused", world,
		"a case failed (above), or the child did not run");
}

static int body(enum world w, const char *top)
{
	int root;

	snprintf(world, sizeof world, "%s", world_names[w]);
	if (!world_has(OPEN_TREE)) {
		printf("SKIP: no new mount API here (open_tree)\n");
		return 77;
	}
	if (build(top) != 0) {
		perror("the tree");
		return 2;
	}
	root = open(in_top(top, "root"), O_PATH | O_DIRECTORY | O_CLOEXEC);
	cases(root, top, "statx");
	without_statx(root, top);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

int main(void)
{
	static const enum world worlds[] = { KERNEL };

	return world_run_each(body, worlds, 1, "mount namespaces and mounts");
}
