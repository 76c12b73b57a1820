/*
 * pidfd_getpid() through the public header only, in the worlds it exists
 * for: PIDFD_GET_INFO answered (Linux 6.13+) or refused as a kernel
 * before 6.13 answers it (ENOTTY, a filter on that one ioctl command;
 * also ENOSYS and EPERM, as policies refuse), with /proc real, hidden, or
 * a fake one that passes every proof but procfs and names a decoy pid;
 * and in a pid namespace of its own, with the parent's /proc kept or its
 * own mounted. Libc-neutral: musl and the qemu-user builds run it too.
 *
 *   test-pidfd-getpid answers|glibc-beside
 *
 * answers: each case's answer in each world, the kernel's (the raw ioctl)
 *   beside where the kernel has PIDFD_GET_INFO.
 * glibc-beside: glibc's own pidfd_getpid (2.39+) in the same worlds:
 *   without /proc EBADF for a live pidfd, under the fake /proc the decoy.
 *
 * Needs root (mount and pid namespaces). Prints one line per case and
 * "N passed, N failed"; exits 1 if any failed, 77 where nothing could
 * run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef __GLIBC__
#include <dlfcn.h>
#endif

#include "execveat.h"
#include "kernel_env.h"
#include "pidfd_worlds.h"
#include "proc_mounts.h"
#include "refuse_call.h"
#include "verdicts.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434 /* every ABI this project builds */
#endif

#define DECOY PIDFD_DECOY
/* What errno holds before each call: a success must leave it so. */
#define UNTOUCHED 0x5eed

enum proc_world { PROC_REAL, PROC_NONE, PROC_FAKE };

struct world {
	const char *name;
	int refuse;            /* PIDFD_GET_INFO fails with this; 0: as it is */
	enum proc_world proc;
	bool no_fd_free;       /* RLIMIT_NOFILE just above the case's fd */
};

static const struct world worlds[] = {
	{ "as it is", 0, PROC_REAL, false },
	{ "as it is, no /proc", 0, PROC_NONE, false },
	{ "ENOTTY (before 6.13)", ENOTTY, PROC_REAL, false },
	{ "ENOSYS", ENOSYS, PROC_REAL, false },
	{ "EPERM", EPERM, PROC_REAL, false },
	{ "ENOTTY, no /proc", ENOTTY, PROC_NONE, false },
	{ "ENOTTY, fake /proc naming a decoy", ENOTTY, PROC_FAKE, false },
	{ "ENOTTY, no fd free", ENOTTY, PROC_REAL, true },
};
#define WORLDS (sizeof(worlds) / sizeof(worlds[0]))

enum fd_kind { LIVE_CHILD, REAPED_CHILD, REGULAR_FILE, EVENTFD, BAD_FD };

#define PID (-1000)   /* expect: the child's pid */
#define DECOYED (-1001) /* expect: the decoy (glibc under the fake) */
/* expect_unproven: EBADF where this kernel's pidfds are pidfs (6.9+),
 * ENOSYS before, where an anonymous inode may be a pidfd. */
#define EBADF_WHERE_PIDFS (-1002)

struct row {
	const char *name;
	enum fd_kind fd;
	int expect_raw;      /* the ioctl's own answer */
	int expect;          /* PID, or an errno */
	int expect_unproven; /* where no way is left (ioctl refused, no
				proven /proc): PID, or an errno */
	int expect_no_fd;    /* ioctl refused, no fd free to read /proc (nor
				to make a pidfd that tells pidfs) */
};

static const struct row rows[] = {
	{ "live_child_is_its_pid", LIVE_CHILD, PID, PID, ENOSYS, EMFILE },
	{ "reaped_child_is_esrch", REAPED_CHILD, ESRCH, ESRCH, ENOSYS, EMFILE },
	{ "regular_file_is_ebadf", REGULAR_FILE, ENOTTY, EBADF, EBADF, EBADF },
	/* An anonymous inode, as pidfds were before 6.9: where this
	 * kernel's own pidfds are pidfs, not one. */
	{ "eventfd_is_ebadf", EVENTFD, ENOTTY, EBADF, EBADF_WHERE_PIDFS,
	  EMFILE },
	{ "closed_fd_is_ebadf", BAD_FD, EBADF, EBADF, EBADF, EBADF },
	{ NULL, 0, 0, 0, 0, 0 },
};

struct report {
	int made;
	long rc;
	int err;
	long child;
	int leaked; /* fds open after the call that were not before */
};

static struct report *shared;
static pid_t (*call)(int);

static pid_t raw_get_info(int fd)
{
	return (pid_t)raw_pidfd_get_info(fd);
}

static int make_fd(enum fd_kind kind, pid_t *child)
{
	int fd;

	*child = -1;
	switch (kind) {
	case LIVE_CHILD:
	case REAPED_CHILD:
		*child = start_waiting_child();
		fd = (int)syscall(SYS_pidfd_open, (long)*child, 0L);
		if (kind == REAPED_CHILD) {
			kill(*child, SIGKILL);
			waitpid(*child, NULL, 0);
		}
		return fd;
	case REGULAR_FILE:
		return open("/", O_RDONLY | O_DIRECTORY);
	case EVENTFD:
		return (int)syscall(SYS_eventfd2, 0L, 0L);
	case BAD_FD:
		return 999;
	}
	return -1;
}

/* How many of fds 0 to 255 are open. */
static int open_fds(void)
{
	int n = 0;

	for (int fd = 0; fd < 256; fd++)
		n += fcntl(fd, F_GETFD) != -1;
	return n;
}

static int limit_fds_to(int fd)
{
	struct rlimit limit;

	if (getrlimit(RLIMIT_NOFILE, &limit) != 0)
		return errno;
	limit.rlim_cur = (rlim_t)fd + 1;
	return setrlimit(RLIMIT_NOFILE, &limit) == 0 ? 0 : errno;
}

/* The world made in this child, then the case asked in it. */
static void run_case(const struct row *r, const struct world *w)
{
	pid_t child;
	int fd = make_fd(r->fd, &child);
	int err, before;

	if (fd < 0)
		return;
	switch (w->proc) {
	case PROC_REAL: err = private_mount_namespace(); break;
	case PROC_NONE: err = hide_proc(); break;
	case PROC_FAKE: err = fake_proc_naming_decoy(fd); break;
	default: err = EINVAL;
	}
	if (err == 0 && w->refuse != 0)
		err = refuse_pidfd_get_info(w->refuse);
	/* Every fd below the case's is open already (0 to 2, and the
	 * children's and the test's own): none is free. */
	if (err == 0 && w->no_fd_free)
		err = limit_fds_to(fd > 2 ? fd : 2);
	if (err != 0) {
		printf("  (world %s not made: %s)\n", w->name, strerror(err));
		return;
	}
	shared->made = 1;
	shared->child = child;
	before = open_fds();
	errno = UNTOUCHED;
	shared->rc = call(fd);
	shared->err = errno;
	shared->leaked = open_fds() - before;
	if (child > 0)
		kill(child, SIGKILL);
}

static int not_here;


/* Forks, runs fn in the child, and judges its report against expect. */
static void judge_run(const char *name, const char *world, int expect,
		      void (*fn)(const void *, const void *), const void *a,
		      const void *b)
{
	char detail[160];
	int status;
	pid_t pid;
	bool ok;

	memset(shared, 0, sizeof(*shared));
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		alarm(20);
		fn(a, b);
		fflush(stdout);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		verdict(false, name, world, "the child died");
		return;
	}
	if (!shared->made) {
		not_here++;
		return;
	}
	if (expect == PID)
		ok = shared->rc == shared->child && shared->child > 0 &&
		     (call == raw_get_info || shared->err == UNTOUCHED);
	else if (expect == DECOYED)
		ok = shared->rc == DECOY;
	else
		ok = shared->rc == -1 && shared->err == expect;
	snprintf(detail, sizeof(detail), "returned %ld (%s), expected %s",
		 shared->rc, shared->rc == -1 ? strerror(shared->err) : "-",
		 expect == PID ? "the child's pid" :
		 expect == DECOYED ? "the decoy" : strerror(expect));
	if (!ok && shared->rc == shared->child && shared->child > 0)
		snprintf(detail, sizeof(detail), "the pid, with errno %d",
			 shared->err);
	if (ok && shared->leaked != 0) {
		ok = false;
		snprintf(detail, sizeof(detail), "%d fd(s) left open",
			 shared->leaked);
	}
	if (!ok && shared->rc == DECOY)
		snprintf(detail, sizeof(detail), "returned the fake's decoy %d",
			 DECOY);
	verdict(ok, name, world, detail);
}

static void case_fn(const void *row, const void *world)
{
	run_case(row, world);
}

/* Whether this kernel's pidfds are pidfs files (Linux 6.9+). */
static bool pidfds_are_pidfs(void)
{
	int fd = (int)syscall(SYS_pidfd_open, (long)getpid(), 0L);
	struct statfs sfs;
	bool pidfs = fd >= 0 && fstatfs(fd, &sfs) == 0 &&
		     sfs.f_type == 0x50494446;

	if (fd >= 0)
		close(fd);
	return pidfs;
}

/* 0 where the kernel answers PIDFD_GET_INFO (6.13+), else its errno. */
static int get_info_refusal(void)
{
	int fd = (int)syscall(SYS_pidfd_open, (long)getpid(), 0L);
	int err = fd >= 0 && raw_get_info(fd) > 0 ? 0 : errno;

	if (fd >= 0)
		close(fd);
	return err;
}

/*
 * In a pid namespace of its own: the test process is outside it. The
 * kernel answers EREMOTE for it, and the pid 1 for the new namespace's
 * first process; a /proc mounted for the parent's namespace prints other
 * numbers, which the library must never return.
 */
enum ns_case { NS_OUTSIDE, NS_SELF };

struct ns_world {
	const char *name;
	int refuse;
	bool own_proc; /* a procfs of the new namespace at /proc */
	/* The caller has the same number in both namespaces, so that the
	 * parent's /proc/self names it by its getpid(): only NSpid tells
	 * the namespaces apart. */
	bool same_number;
	int expect_outside, expect_self; /* PID (the asker's) or errno */
};

static const struct ns_world ns_worlds[] = {
	{ "pid namespace, as it is", 0, false, false, EREMOTE, PID },
	{ "pid namespace, ENOTTY, the parent's /proc", ENOTTY, false, false,
	  ENOSYS, ENOSYS },
	{ "pid namespace, ENOTTY, the parent's /proc, the same number", ENOTTY,
	  false, true, ENOSYS, ENOSYS },
	{ "pid namespace, ENOTTY, its own /proc", ENOTTY, true, false, EREMOTE,
	  PID },
};
#define NS_WORLDS (sizeof(ns_worlds) / sizeof(ns_worlds[0]))

/*
 * A child with pid n in this pid namespace and in its parent: clone3's
 * set_tid (Linux 5.5), one number per level, tried from a high number
 * down until both are free. 0 in the child, its pid in the parent, -1.
 */
static pid_t fork_same_number(void)
{
	struct {
		uint64_t flags, pidfd, child_tid, parent_tid, exit_signal;
		uint64_t stack, stack_size, tls, set_tid, set_tid_size;
	} args;
	pid_t tids[2];

	for (pid_t n = 30000; n > 20000; n -= 7) {
		long rc;

		memset(&args, 0, sizeof(args));
		tids[0] = tids[1] = n;
		args.exit_signal = SIGCHLD;
		args.set_tid = (uint64_t)(uintptr_t)tids;
		args.set_tid_size = 2;
		rc = syscall(435 /* clone3 */, &args, sizeof(args));
		if (rc >= 0 || errno != EEXIST)
			return (pid_t)rc;
	}
	return -1;
}

static void ns_fn(const void *world, const void *which)
{
	const struct ns_world *w = world;
	enum ns_case c = *(const enum ns_case *)which;
	int outside = (int)syscall(SYS_pidfd_open, (long)getpid(), 0L);
	pid_t first;
	int status;

	if (outside < 0 || private_mount_namespace() != 0 ||
	    unshare(CLONE_NEWPID) != 0)
		return;
	first = fork();
	if (first == 0 && w->same_number) {
		/* The namespace's init waits; its child asks. */
		pid_t asker = fork_same_number();

		if (asker != 0) {
			if (asker > 0)
				waitpid(asker, &status, 0);
			_exit(0);
		}
	}
	if (first == 0) {
		int fd = outside;

		if (w->own_proc && mount("proc", "/proc", "proc", 0, NULL) != 0)
			_exit(0);
		if (c == NS_SELF)
			fd = (int)syscall(SYS_pidfd_open, (long)getpid(), 0L);
		if (fd < 0 || (w->refuse != 0 && refuse_pidfd_get_info(w->refuse) != 0))
			_exit(0);
		shared->made = 1;
		shared->child = getpid();
		errno = UNTOUCHED;
		shared->rc = call(fd);
		shared->err = errno;
		_exit(0);
	}
	if (first > 0)
		waitpid(first, &status, 0);
}

/*
 * A thread with an fd table of its own (unshare(CLONE_FILES)), whose fd
 * N is a pidfd of one child while the process's fd N, what
 * /proc/self/fdinfo/N describes, is a pidfd of another: the answer is
 * the thread's child's.
 */
struct own_table {
	int fd;
	pid_t other;
	long rc;
	int err;
};

static void *own_table_thread(void *arg)
{
	struct own_table *t = arg;
	int fd;

	t->rc = -2;
	if (unshare(CLONE_FILES) != 0 ||
	    (fd = (int)syscall(SYS_pidfd_open, (long)t->other, 0L)) < 0 ||
	    dup2(fd, t->fd) != t->fd || close(fd) != 0)
		return NULL;
	errno = UNTOUCHED;
	t->rc = call(t->fd);
	t->err = errno;
	return NULL;
}

static void own_table_fn(const void *world, const void *unused)
{
	const struct world *w = world;
	struct own_table t = { .rc = -2 };
	pid_t child;
	pthread_t thread;

	(void)unused;
	t.fd = make_fd(LIVE_CHILD, &child);
	t.other = start_waiting_child();
	if (t.fd >= 0 && t.other > 0 && private_mount_namespace() == 0 &&
	    (w->refuse == 0 || refuse_pidfd_get_info(w->refuse) == 0) &&
	    pthread_create(&thread, NULL, own_table_thread, &t) == 0 &&
	    pthread_join(thread, NULL) == 0 && t.rc != -2) {
		shared->made = 1;
		shared->child = t.other;
		shared->rc = t.rc;
		shared->err = t.err;
	}
	kill(child, SIGKILL);
	kill(t.other, SIGKILL);
}

/* refusal: get_info_refusal(). Where the kernel has no PIDFD_GET_INFO, a
 * world that refuses nothing is the ENOTTY one: with the parent's /proc,
 * ENOSYS. */
static void run_ns_worlds(const char *who, int refusal)
{
	static const enum ns_case outside = NS_OUTSIDE, self = NS_SELF;
	char name[96];

	for (size_t i = 0; i < NS_WORLDS; i++) {
		const struct ns_world *w = &ns_worlds[i];
		bool unproven = refusal != 0 && !w->own_proc;

		snprintf(name, sizeof(name), "%s: process_outside_the_namespace", who);
		judge_run(name, w->name, unproven ? ENOSYS : w->expect_outside,
			  ns_fn, w, &outside);
		snprintf(name, sizeof(name), "%s: process_inside_the_namespace", who);
		judge_run(name, w->name, unproven ? ENOSYS : w->expect_self,
			  ns_fn, w, &self);
	}
}

static int run_answers(void)
{
	int refusal = get_info_refusal();
	char name[96];

	if (refusal != 0)
		printf("PIDFD_GET_INFO here: %s (a kernel before 6.13, or "
		       "refused): every world goes without it\n",
		       strerror(refusal));
	for (const struct row *r = rows; r->name != NULL; r++) {
		if (refusal == 0) {
			call = raw_get_info;
			snprintf(name, sizeof(name), "%s", r->name);
			judge_run(name, "raw PIDFD_GET_INFO", r->expect_raw,
				  case_fn, r, &worlds[0]);
		}
		call = pidfd_getpid;
		for (size_t i = 0; i < WORLDS; i++) {
			const struct world *w = &worlds[i];
			bool unproven = (w->refuse != 0 || refusal != 0) &&
					w->proc != PROC_REAL;
			int expect = w->no_fd_free ? r->expect_no_fd :
				     unproven ? r->expect_unproven : r->expect;

			if (expect == EBADF_WHERE_PIDFS)
				expect = pidfds_are_pidfs() ? EBADF : ENOSYS;
			judge_run(r->name, w->name, expect, case_fn, r, w);
		}
	}
	call = pidfd_getpid;
	judge_run("thread_with_own_fd_table_gets_its_own", worlds[0].name, PID,
		  own_table_fn, &worlds[0], NULL);
	judge_run("thread_with_own_fd_table_gets_its_own", worlds[2].name, PID,
		  own_table_fn, &worlds[2], NULL);
	run_ns_worlds("library", refusal);
	return 0;
}

#ifdef __GLIBC__
/*
 * glibc's own, where this glibc has it (2.39+), in the worlds where it
 * goes wrong: a live pidfd without /proc (EBADF) and under the fake
 * /proc (the decoy), and in a pid namespace with the parent's /proc (the
 * parent's number), beside the library's answers there.
 */
static int run_glibc_beside(void)
{
	void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
	pid_t (*glibc)(int) = libc ? (pid_t (*)(int))dlsym(libc, "pidfd_getpid")
				   : NULL;

	if (glibc == NULL) {
		printf("SKIP: this glibc has no pidfd_getpid (2.39+)\n");
		return 77;
	}
	call = glibc;
	judge_run("glibc: live_child_without_proc_is_ebadf", worlds[5].name,
		  EBADF, case_fn, &rows[0], &worlds[5]);
	judge_run("glibc: live_child_under_fake_proc_is_the_decoy",
		  worlds[6].name, DECOYED, case_fn, &rows[0], &worlds[6]);
	call = pidfd_getpid;
	judge_run("library: live_child_without_proc_is_enosys", worlds[5].name,
		  ENOSYS, case_fn, &rows[0], &worlds[5]);
	judge_run("library: live_child_under_fake_proc_is_enosys",
		  worlds[6].name, ENOSYS, case_fn, &rows[0], &worlds[6]);
	return 0;
}
#endif

int main(int argc, char **argv)
{
	int rc;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc != 2) {
		fprintf(stderr, "usage: %s answers|glibc-beside\n", argv[0]);
		return 2;
	}
	if (geteuid() != 0) {
		printf("SKIP: needs root (mount and pid namespaces)\n");
		return 77;
	}
	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		return 2;
	if (strcmp(argv[1], "answers") == 0) {
		rc = run_answers();
#ifdef __GLIBC__
	} else if (strcmp(argv[1], "glibc-beside") == 0) {
		rc = run_glibc_beside();
#endif
	} else {
		fprintf(stderr, "unknown group %s\n", argv[1]);
		return 2;
	}
	if (rc != 0)
		return rc;
	if (not_here != 0)
		printf("not here: %d cases (no seccomp filter or namespace "
		       "could be made here)\n", not_here);
	printf("%d passed, %d failed\n", passed, failed);
	if (passed == 0 && failed == 0) {
		printf("SKIP: no world could be made here\n");
		return 77;
	}
	return failed != 0;
}
