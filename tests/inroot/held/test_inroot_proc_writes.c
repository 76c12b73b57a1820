/*
 * CVE-2025-52881: a runtime's write to a procfs file inside the root it
 * prepares (runc wrote its LSM labels under /proc/self/attr, and sysctls) redirected to another
 * file, by a bind mount over the file or by links planted where procfs
 * was expected. The library has no operation that writes to /proc; a
 * runtime avoids the redirect with its functions (as inroot(7) says):
 *
 *   1. the root's proc held with inroot_resolve (a link followed inside
 *      the root, never a magic link) and proven the root of a procfs:
 *      fstatfs's PROC_SUPER_MAGIC, inode 1 (procfs's root), a mount root
 *      (inroot_fstatx's STATX_ATTR_MOUNT_ROOT);
 *   2. the file opened beneath that fd with the library's openat2,
 *      which answers where the system call is refused:
 *      RESOLVE_BENEATH | RESOLVE_NO_XDEV | RESOLVE_NO_SYMLINKS |
 *      RESOLVE_NO_MAGICLINKS, so that any mount crossed (a file or a
 *      directory bound over the path) is EXDEV and any link ELOOP.
 *
 * The file written here is the test's own comm (/proc/PID/comm, which
 * names a process and harms nothing), the redirect's victims another
 * thread's comm (procfs takes a comm from the thread group alone) and a
 * file outside the root. Each attack is made
 * against a naive runtime, which writes to the joined path and must fall
 * for it (or the attack proves nothing), then against the library's way,
 * which must refuse and write nothing. In each world of world.h: the
 * root's procfs is a new one, mounted by the test as a runtime mounts it.
 *
 * Needs root (mount namespaces, mounts); else exits 77.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "execveat.h"
#include "inroot.h"
#include "verdicts.h"
#include "world.h"

#define PROC_SUPER_MAGIC 0x9fa0
#define PROC_ROOT_INO 1
#ifndef STATX_ATTR_MOUNT_ROOT
#define STATX_ATTR_MOUNT_ROOT 0x2000 /* <linux/stat.h>, Linux 5.8 */
#endif

static const char *world;
/* The root; the file outside it; the test's own procfs, outside the
 * root, for its look at the processes' comms. */
static char root_path[256], victim_path[300], seen_proc[300];
static pid_t victim; /* a thread's id */
static int stop[2];   /* the victim thread waits on it */

static void *victim_thread(void *tid)
{
	char byte;

	__atomic_store_n((pid_t *)tid, gettid(), __ATOMIC_SEQ_CST);
	return read(stop[0], &byte, 1) < 0 ? NULL : tid;
}

/* ---- the library's way ---- */

/* root's proc, proven a procfs's root and a mount's: an O_PATH fd, or
 * -1 with errno (EXDEV where it is not one). */
static int proc_of(int root)
{
	struct statfs sfs;
	struct statx stx;
	int fd = inroot_resolve(root, "proc");

	if (fd < 0)
		return -1;
	if (fstatfs(fd, &sfs) != 0 || sfs.f_type != PROC_SUPER_MAGIC ||
	    inroot_fstatx(fd, 0, STATX_INO, &stx) != 0 ||
	    stx.stx_ino != PROC_ROOT_INO ||
	    !(stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) ||
	    !(stx.stx_attributes & STATX_ATTR_MOUNT_ROOT)) {
		close(fd);
		errno = EXDEV;
		return -1;
	}
	return fd;
}

/* data written to rel beneath root's proven proc: 0 or -1 with errno. */
static int library_proc_write(int root, const char *rel, const char *data)
{
	struct open_how how = {
		.flags = O_WRONLY | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_XDEV |
			   RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	int proc = proc_of(root), fd, rc, err;

	if (proc < 0)
		return -1;
	fd = openat2(proc, rel, &how, sizeof how);
	err = errno;
	close(proc);
	if (fd < 0) {
		errno = err;
		return -1;
	}
	rc = write(fd, data, strlen(data)) == (ssize_t)strlen(data) ? 0 : -1;
	close(fd);
	return rc;
}

/* ---- the naive way: the joined path, opened and written ---- */

static int naive_proc_write(const char *rel, const char *data)
{
	char path[512];
	int fd, rc;

	snprintf(path, sizeof path, "%s/proc/%s", root_path, rel);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	rc = write(fd, data, strlen(data)) == (ssize_t)strlen(data) ? 0 : -1;
	close(fd);
	return rc;
}

/* ---- what was written where ---- */

static bool comm_is(pid_t pid, const char *want)
{
	char path[350], got[32] = "";
	int fd;
	ssize_t n;

	snprintf(path, sizeof path, "%s/%d/comm", seen_proc, (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	n = fd >= 0 ? read(fd, got, sizeof got - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n > 0 && got[n - 1] == '\n')
		got[n - 1] = '\0';
	return n > 0 && strcmp(got, want) == 0;
}

static bool victim_file_is(const char *want)
{
	char got[32] = "";
	int fd = open(victim_path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, got, sizeof got - 1) : -1;

	if (fd >= 0)
		close(fd);
	return n >= 0 && strncmp(got, want, strlen(want)) == 0 &&
	       (size_t)n == strlen(want);
}

/* Everything as planted: the victim's comm, the file outside. */
static bool untouched(void)
{
	return comm_is(victim, "victim") && victim_file_is("outside");
}

static void restore(void)
{
	char path[350];
	int fd;

	snprintf(path, sizeof path, "%s/%d/comm", seen_proc, (int)victim);
	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) >= 0) {
		if (write(fd, "victim", 6) != 6)
			perror("the victim's comm");
		close(fd);
	}
	if ((fd = open(victim_path, O_WRONLY | O_TRUNC | O_CLOEXEC)) >= 0) {
		if (write(fd, "outside", 7) != 7)
			perror("the file outside");
		close(fd);
	}
}

/* ---- the attacks ---- */

static void judge(int root, const char *attack, const char *rel,
		  int want_errno)
{
	char name[160], detail[160];
	bool naive, library;
	int rc;

	restore();
	naive = naive_proc_write(rel, "redirected") == 0 && !untouched();
	restore();
	rc = library_proc_write(root, rel, "redirected");
	library = rc < 0 && errno == want_errno && untouched();
	snprintf(detail, sizeof detail, "answered %s, want %s%s",
		 rc < 0 ? strerror(errno) : "0", strerror(want_errno),
		 untouched() ? "" : "; a victim was written");
	snprintf(name, sizeof name, "%s: the naive runtime falls for it",
		 attack);
	verdict(naive, name, world, "the redirect did nothing");
	snprintf(name, sizeof name, "%s: the library's way refuses it",
		 attack);
	verdict(library, name, world, detail);
	restore();
}

static int body(enum world w, const char *top)
{
	char rel[64], at[512];
	int fd, root;

	world = world_names[w];
	snprintf(root_path, sizeof root_path, "%s/root", top);
	snprintf(victim_path, sizeof victim_path, "%s/victim", top);
	snprintf(seen_proc, sizeof seen_proc, "%s/seen-proc", top);
	fd = open(victim_path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0 || mkdir(root_path, 0755) != 0 || close(fd) != 0 ||
	    mkdir(seen_proc, 0555) != 0 ||
	    mount("proc", seen_proc, "proc", 0, NULL) != 0)
		return 2;
	snprintf(at, sizeof at, "%s/proc", root_path);
	/* The runtime's own procfs for the root. */
	if (mkdir(at, 0555) != 0 || mount("proc", at, "proc", 0, NULL) != 0) {
		perror("a procfs in the root");
		return 2;
	}
	pthread_t thread;

	victim = 0;
	if (pipe2(stop, O_CLOEXEC) != 0 ||
	    pthread_create(&thread, NULL, victim_thread, &victim) != 0)
		return 2;
	while (__atomic_load_n(&victim, __ATOMIC_SEQ_CST) == 0)
		usleep(1000);
	restore();
	root = open(root_path, O_PATH | O_DIRECTORY | O_CLOEXEC);

	/* The way works where nothing is planted. */
	snprintf(rel, sizeof rel, "%d/comm", (int)getpid());
	verdict(library_proc_write(root, rel, "runtime") == 0 &&
		comm_is(getpid(), "runtime") && untouched(),
		"the library's way writes the file asked for", world,
		strerror(errno));

	/* The CVE: another process's comm bound over ours. */
	snprintf(at, sizeof at, "%s/proc/%d/comm", root_path, (int)victim);
	char ours[512];

	snprintf(ours, sizeof ours, "%s/proc/%d/comm", root_path,
		 (int)getpid());
	if (mount(at, ours, NULL, MS_BIND, NULL) != 0)
		return 2;
	judge(root, "a procfs file bound over the file written", rel, EXDEV);
	umount2(ours, MNT_DETACH);

	/* A directory on the way bound over: our pid's directory is the
	 * victim's. */
	snprintf(at, sizeof at, "%s/proc/%d", root_path, (int)victim);
	snprintf(ours, sizeof ours, "%s/proc/%d", root_path, (int)getpid());
	if (mount(at, ours, NULL, MS_BIND, NULL) != 0)
		return 2;
	judge(root, "a procfs directory bound over one on the way", rel,
	      EXDEV);
	umount2(ours, MNT_DETACH);

	/* A magic link on the way: the runtime's fd of the file outside. */
	fd = open(victim_path, O_RDONLY | O_CLOEXEC);
	snprintf(rel, sizeof rel, "%d/fd/%d", (int)getpid(), fd);
	judge(root, "a magic link to a file outside the root", rel, ELOOP);
	/* And every inroot_* call refuses a magic link on its way. */
	snprintf(at, sizeof at, "proc/%s", rel);
	int opened = inroot_open(root, at, O_WRONLY | O_CLOEXEC);

	verdict(opened < 0 && errno == ELOOP,
		"inroot_open refuses the magic link", world,
		opened < 0 ? strerror(errno) : "opened");
	if (opened >= 0)
		close(opened);
	close(fd);

	/* proc not procfs: a directory of the image with links planted. */
	snprintf(at, sizeof at, "%s/proc", root_path);
	if (umount2(at, MNT_DETACH) != 0)
		return 2;
	snprintf(at, sizeof at, "%s/proc/%d", root_path, (int)getpid());
	if (mkdir(at, 0755) != 0)
		return 2;
	snprintf(at, sizeof at, "%s/proc/%d/comm", root_path, (int)getpid());
	if (symlink(victim_path, at) != 0)
		return 2;
	snprintf(rel, sizeof rel, "%d/comm", (int)getpid());
	judge(root, "links planted where procfs was expected", rel, EXDEV);

	close(stop[1]);
	pthread_join(thread, NULL);
	close(root);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

int main(void)
{
	return world_run_each(body, NULL, 0, "mount namespaces and mounts");
}
