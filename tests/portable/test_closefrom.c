/*
 * close_range() and closefrom() through the public header only, in the
 * worlds they exist for: the system call allowed; refused with ENOSYS or
 * EPERM, with /proc real, hidden, fake, or another process's fd directory
 * bound over ours. Libc-neutral (no cmocka, no libseccomp): musl and the
 * qemu-user builds run it too.
 *
 *   test-closefrom answers|glibc-beside|vfork [REPORT_INHERITED]
 *
 * answers: each case's fds afterwards (which are open, which are
 *   close-on-exec) in every world, against what close_range means, and
 *   against the raw system call where the kernel has it. The fixture
 *   holds regular and O_PATH fds, and fds at 700, 1400 and 1500 above an
 *   RLIMIT_NOFILE lowered to 1024 after they were opened.
 * glibc-beside: glibc's own closefrom (2.34+) in the same worlds: it
 *   aborts without /proc, loops for ever under a fake /proc (stopped
 *   after 3 s), and leaves fds open under an empty one; the library's
 *   closes them all.
 * vfork: closefrom in a vfork child, which then execs REPORT_INHERITED
 *   (tests/programs/report_inherited.c) to count what it inherited:
 *   nothing.
 *
 * In every case, fd 0 is a scratch file on which the child holds a
 * POSIX record lock (F_SETLK): where a case leaves fd 0 open, the lock
 * must be held after the call, as the kernel's close_range keeps it (a
 * fallback that closed any fd of the file, even one of its own, would
 * drop it).
 *
 * Each case runs in a forked child, which reports through shared memory
 * (the call under test closes every fd it could report through). Prints
 * one line per case and "N passed, N failed"; exits 1 if any failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef __GLIBC__
#include <dlfcn.h>
#endif

#include "execveat.h"
#include "kernel_env.h"
#include "record_lock.h"

/* The fds whose state a case reports: the standard three, a run of
 * fixture fds, and three above the lowered limit. */
static const int probe_fds[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
				 700, 1400, 1500 };
#define PROBES (sizeof(probe_fds) / sizeof(probe_fds[0]))
#define LOWERED_LIMIT 1024

struct fd_state {
	unsigned char open[PROBES];
	unsigned char cloexec[PROBES];
};

/* What a child writes for its parent to read. */
struct report {
	int made;          /* the world was made */
	int rc, err;       /* what the call returned */
	int lock_held;     /* the lock taken through fd 0 is still held */
	struct fd_state after;        /* the calling thread's table */
	struct fd_state main_after;   /* the main thread's, for unshare cases */
};

static struct report *shared;

enum proc_world { PROC_REAL, PROC_NONE, PROC_FAKE, PROC_FAKE_EMPTY,
		  PROC_BORROWED };

struct world {
	const char *name;
	int refuse;             /* close_range fails with this; 0: allowed */
	enum proc_world proc;
};

static const struct world worlds[] = {
	{ "allowed", 0, PROC_REAL },
	{ "ENOSYS", ENOSYS, PROC_REAL },
	{ "EPERM", EPERM, PROC_REAL },
	{ "ENOSYS, no /proc", ENOSYS, PROC_NONE },
	{ "EPERM, no /proc", EPERM, PROC_NONE },
	{ "ENOSYS, fake /proc listing fds 4 and 9999", ENOSYS, PROC_FAKE },
	{ "EPERM, empty fake /proc", EPERM, PROC_FAKE_EMPTY },
	{ "EPERM, another process's fd directory", EPERM, PROC_BORROWED },
	/* gVisor answers close_range(3, ~0U, 0) with EINVAL and closes
	 * nothing: any answer Linux cannot give is a refusal. */
	{ "EINVAL for every call (gVisor)", EINVAL, PROC_REAL },
	{ "EINVAL for every call, no /proc", EINVAL, PROC_NONE },
};
#define WORLDS (sizeof(worlds) / sizeof(worlds[0]))

struct cr_case {
	const char *name;
	unsigned int first, last;
	int flags;
	bool closefrom;   /* closefrom(first as an int) instead */
	bool in_thread;   /* called by a second thread sharing the table */
	int expect_errno; /* 0: success */
	bool high_fds;    /* the fixture has fds above the lowered limit */
};

#define UNKNOWN_FLAG (1 << 3)

static const struct cr_case cases[] = {
	{ "closefrom_3_closes_all_above", 3, 0, 0, true, false, 0, true },
	{ "closefrom_3_few_fds_closes_all_above", 3, 0, 0, true, false, 0,
	  false },
	{ "closefrom_negative_closes_all", (unsigned int)-5, 0, 0, true, false,
	  0, false },
	{ "range_3_to_max_closes_all_above", 3, ~0u, 0, false, false, 0,
	  false },
	{ "range_5_to_8_closes_those", 5, 8, 0, false, false, 0, false },
	{ "range_7_to_7_closes_one", 7, 7, 0, false, false, 0, false },
	{ "range_above_limit_closes_high_fds", 1000, ~0u, 0, false, false, 0,
	  true },
	{ "range_past_every_fd_closes_none", 2000, 3000, 0, false, false, 0,
	  false },
	{ "cloexec_marks_and_keeps", 4, ~0u, CLOSE_RANGE_CLOEXEC, false, false,
	  0, true },
	{ "first_above_last_is_einval", 8, 5, 0, false, false, EINVAL, false },
	{ "unknown_flag_is_einval", 3, ~0u, UNKNOWN_FLAG, false, false,
	  EINVAL, false },
	{ "unshare_alone_closes_all_above", 3, ~0u, CLOSE_RANGE_UNSHARE, false,
	  false, 0, false },
	{ "unshare_in_thread_keeps_main_table", 3, ~0u, CLOSE_RANGE_UNSHARE,
	  false, true, 0, true },
	{ "unshare_cloexec_in_thread", 3, ~0u,
	  CLOSE_RANGE_UNSHARE | CLOSE_RANGE_CLOEXEC, false, true, 0, false },
	{ NULL, 0, 0, 0, false, false, 0, false },
};

/* The scratch file the fixture holds at fd 0, locked. */
static char lock_path[] = "/tmp/libexecveat-closefrom-lock-XXXXXX";

static void record(struct fd_state *state)
{
	for (size_t i = 0; i < PROBES; i++) {
		int flags = fcntl(probe_fds[i], F_GETFD);

		state->open[i] = flags != -1;
		state->cloexec[i] = flags != -1 && (flags & FD_CLOEXEC);
	}
}

/* What the case means: the fixture opens every probe fd without
 * close-on-exec; a failing call changes nothing. */
static void expected_state(const struct cr_case *c, bool main_thread,
			   struct fd_state *want)
{
	unsigned int first = c->first, last = c->last;

	if (c->closefrom) {
		first = (int)c->first < 0 ? 0 : c->first;
		last = ~0u;
	}
	for (size_t i = 0; i < PROBES; i++) {
		unsigned int fd = (unsigned int)probe_fds[i];
		bool hit;

		if (fd > 10 && !c->high_fds) {
			want->open[i] = want->cloexec[i] = 0;
			continue;
		}
		hit = c->expect_errno == 0 && fd >= first && fd <= last &&
			   !(main_thread && (c->flags & CLOSE_RANGE_UNSHARE));

		if (c->flags & CLOSE_RANGE_CLOEXEC) {
			want->open[i] = 1;
			want->cloexec[i] = hit;
		} else {
			want->open[i] = !hit;
			want->cloexec[i] = 0;
		}
	}
}

/* ---- the fixture and the worlds, in the case's child ---- */

static pid_t owner = -1; /* the process whose fd directory is borrowed */

/*
 * fd 0 the scratch file, locked through it; fds 3 to 10 (a file, an
 * O_PATH fd of "/", dups of both), and with high,
 * 700, 1400 and 1500, then the limit lowered below the last three. Every
 * other fd above 2 is closed first, so that only the fixture is open.
 * Without high, the fd table stays small enough for the scan to prove
 * its edge; with it, the scan asks every number up to its bound.
 */
static int open_fixture(bool high)
{
	struct rlimit lowered = { LOWERED_LIMIT, LOWERED_LIMIT };
	struct flock lock = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	int file, path;

	for (int fd = 3; fd < 2048; fd++)
		close(fd);
	/* Locked only once it is at 0: closing the fd it was opened at
	 * would drop the lock. */
	file = open(lock_path, O_RDWR);
	if (file < 0 || dup2(file, 0) != 0 || close(file) != 0 ||
	    fcntl(0, F_SETLK, &lock) != 0)
		return -1;
	file = open("/dev/null", O_RDONLY);
	path = open("/", O_PATH);
	if (file != 3 || path != 4)
		return -1;
	for (int fd = 5; fd <= 10; fd++)
		if (dup2(fd % 2 ? file : path, fd) != fd)
			return -1;
	if (high && (dup2(path, 700) != 700 || dup2(file, 1400) != 1400 ||
		     dup2(path, 1500) != 1500))
		return -1;
	return setrlimit(RLIMIT_NOFILE, &lowered);
}

static int make_proc_world(enum proc_world proc)
{
	int err;

	switch (proc) {
	case PROC_REAL:
		return 0;
	case PROC_NONE:
	case PROC_FAKE_EMPTY:
		err = hide_proc();
		if (err == 0 && proc == PROC_FAKE_EMPTY)
			err = mkdir("/proc/self", 0755) == 0 &&
			      mkdir("/proc/self/fd", 0755) == 0 ? 0 : errno;
		return err;
	case PROC_FAKE:
		err = fake_proc(4, "/");
		return err != 0 ? err : fake_proc_link(9999, "/");
	case PROC_BORROWED:
		return borrow_proc_fd_dir(owner);
	}
	return EINVAL;
}

/* Before the fixture: the owner must not hold the fixture's fds. Returns
 * once the owner holds its fd 20, so that what its directory lists does
 * not depend on which process runs first. */
static void start_owner(enum proc_world proc)
{
	pid_t parent = getpid();
	int ready[2];
	char byte;

	if (proc != PROC_BORROWED || pipe(ready) != 0)
		return;
	owner = fork();
	if (owner == 0) {
		/* Gone with the case's child, however that ends (glibc's
		 * closefrom aborts, or is stopped by the alarm). */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* The parent may be gone already; the test's output is
		 * not this process's to hold open. */
		if (getppid() != parent)
			_exit(0);
		close(STDOUT_FILENO);
		close(STDERR_FILENO);
		/* What its table lists above 2, whatever it inherited: an
		 * fd the case's child does not have open. */
		dup2(open("/dev/null", O_RDONLY), 20);
		(void)!write(ready[1], "", 1);
		for (;;)
			pause();
	}
	close(ready[1]);
	if (owner > 0)
		(void)!read(ready[0], &byte, 1);
	close(ready[0]);
}

static void stop_owner(void)
{
	if (owner > 0) {
		kill(owner, SIGKILL);
		waitpid(owner, NULL, 0);
	}
}

/* ---- the calls under test ---- */

typedef int (*call_fn)(const struct cr_case *c);

static int call_library(const struct cr_case *c)
{
	if (c->closefrom) {
		closefrom((int)c->first);
		return 0;
	}
	return close_range(c->first, c->last, c->flags);
}

static int call_raw(const struct cr_case *c)
{
	if (c->closefrom)
		return (int)raw_close_range((int)c->first < 0 ? 0 : c->first,
					    ~0u, 0);
	return (int)raw_close_range(c->first, c->last, (unsigned int)c->flags);
}

struct thread_call {
	const struct cr_case *c;
	call_fn call;
};

static void *thread_main(void *arg)
{
	struct thread_call *tc = arg;

	shared->rc = tc->call(tc->c);
	shared->err = errno;
	record(&shared->after);
	shared->lock_held = record_lock_held(lock_path);
	return NULL;
}

static void call_and_record(const struct cr_case *c, call_fn call)
{
	struct thread_call tc = { c, call };
	pthread_t thread;

	if (c->in_thread) {
		if (pthread_create(&thread, NULL, thread_main, &tc) == 0)
			pthread_join(thread, NULL);
		record(&shared->main_after);
		return;
	}
	shared->rc = call(c);
	shared->err = errno;
	record(&shared->after);
	shared->lock_held = record_lock_held(lock_path);
}

#define CHILD_CRASHED (-1000)

/* Runs c in a child in world w; returns 0, the child's signal as
 * -(signal), or CHILD_CRASHED. */
static int run_in_world(const struct cr_case *c, const struct world *w,
			call_fn call, unsigned int timeout)
{
	int status;
	pid_t pid;

	memset(shared, 0, sizeof(*shared));
	pid = fork();
	if (pid == 0) {
		start_owner(w->proc);
		if (open_fixture(c->high_fds) == 0 && make_proc_world(w->proc) == 0 &&
		    (w->refuse == 0 || block_close_range(w->refuse) == 0)) {
			shared->made = 1;
			alarm(timeout);
			call_and_record(c, call);
		}
		stop_owner();
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return CHILD_CRASHED;
	if (WIFSIGNALED(status))
		return -WTERMSIG(status);
	/* Anything but _exit(0) (a sanitizer's report) is a child that
	 * died. */
	return WEXITSTATUS(status) == 0 ? 0 : CHILD_CRASHED;
}

static int passed, failed;

static void verdict(bool ok, const char *name, const char *world,
		    const char *detail)
{
	printf("%s %s (%s)%s%s\n", ok ? "ok" : "not ok", name, world,
	       detail[0] ? ": " : "", detail);
	if (ok)
		passed++;
	else
		failed++;
}

static void describe(const struct fd_state *got, const struct fd_state *want,
		     char *out, size_t size)
{
	size_t used = 0;

	out[0] = '\0';
	for (size_t i = 0; i < PROBES && used < size; i++)
		if (got->open[i] != want->open[i] ||
		    got->cloexec[i] != want->cloexec[i])
			used += (size_t)snprintf(out + used, size - used,
				"fd %d %s%s (expected %s%s) ", probe_fds[i],
				got->open[i] ? "open" : "closed",
				got->cloexec[i] ? ", cloexec" : "",
				want->open[i] ? "open" : "closed",
				want->cloexec[i] ? ", cloexec" : "");
}

static bool states_equal(const struct fd_state *a, const struct fd_state *b)
{
	return memcmp(a, b, sizeof(*a)) == 0;
}

/* The answer of the last run against the case's meaning. */
static bool judge(const struct cr_case *c, int outcome, char *detail,
		  size_t size)
{
	struct fd_state want;

	if (outcome != 0) {
		snprintf(detail, size, "the child died (%s)",
			 outcome == CHILD_CRASHED ? "?" : strsignal(-outcome));
		return false;
	}
	if (c->expect_errno != 0 &&
	    (shared->rc != -1 || shared->err != c->expect_errno)) {
		snprintf(detail, size, "returned %d (%s), expected -1 (%s)",
			 shared->rc, strerror(shared->err),
			 strerror(c->expect_errno));
		return false;
	}
	if (c->expect_errno == 0 && shared->rc != 0) {
		snprintf(detail, size, "returned %d (%s)", shared->rc,
			 strerror(shared->err));
		return false;
	}
	expected_state(c, false, &want);
	if (!states_equal(&shared->after, &want)) {
		describe(&shared->after, &want, detail, size);
		return false;
	}
	if (want.open[0] && !shared->lock_held) {
		snprintf(detail, size, "fd 0 is open, but the lock taken "
			 "through it is gone");
		return false;
	}
	if (c->in_thread) {
		expected_state(c, true, &want);
		if (!states_equal(&shared->main_after, &want)) {
			snprintf(detail, size, "the main thread's table: ");
			describe(&shared->main_after, &want,
				 detail + strlen(detail), size - strlen(detail));
			return false;
		}
	}
	detail[0] = '\0';
	return true;
}

static int not_here;

static int run_answers(void)
{
	char detail[1024];
	int kernel_refusal = close_range_refusal();

	for (const struct cr_case *c = cases; c->name != NULL; c++) {
		/* The kernel's own answer, where it answers here; not for
		 * CLOSE_RANGE_CLOEXEC before Linux 5.11, which has no such
		 * flag (EINVAL): the library does it there. */
		bool kernel_knows = !(c->flags & CLOSE_RANGE_CLOEXEC) ||
				    kernel_version() >= 511;

		if (kernel_refusal == 0 && !kernel_knows)
			not_here++;
		if (kernel_refusal == 0 && kernel_knows) {
			int outcome = run_in_world(c, &worlds[0], call_raw, 10);

			if (outcome == 0 && !shared->made)
				not_here++;
			else
				verdict(judge(c, outcome, detail,
					      sizeof(detail)),
					c->name, "raw system call", detail);
		}
		for (size_t w = 0; w < WORLDS; w++) {
			int outcome = run_in_world(c, &worlds[w], call_library,
						   60);

			if (outcome == 0 && !shared->made) {
				not_here++;
				continue;
			}
			verdict(judge(c, outcome, detail, sizeof(detail)),
				c->name, worlds[w].name, detail);
		}
	}
	if (not_here != 0)
		printf("not here: %d case-world pairs (no mount namespace or "
		       "seccomp filter here, close_range is refused "
		       "otherwise, or the kernel predates the case's flag)\n",
		       not_here);
	return 0;
}

/* ---- glibc beside ---- */

#ifdef __GLIBC__
static void (*glibc_closefrom)(int);

static int call_glibc(const struct cr_case *c)
{
	glibc_closefrom((int)c->first);
	return 0;
}

struct glibc_world {
	const struct world *world;
	int glibc_signal;   /* what glibc dies of; 0: it returns */
	bool glibc_leaks;   /* glibc returns with fds left open */
};

static int run_glibc_beside(void)
{
	static const struct glibc_world gw[] = {
		{ &worlds[3], SIGABRT, false }, /* ENOSYS, no /proc */
		{ &worlds[4], SIGABRT, false }, /* EPERM, no /proc */
		{ &worlds[5], SIGALRM, false }, /* fake /proc: for ever */
		{ &worlds[6], 0, true },        /* empty fake /proc */
		{ &worlds[7], SIGALRM, false }, /* another table (its fd 20):
						 * for ever */
		{ &worlds[1], 0, false },       /* real /proc: both work */
	};
	const struct cr_case *c = &cases[0]; /* closefrom(3) */
	void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
	char detail[1024];

	glibc_closefrom = libc ? (void (*)(int))dlsym(libc, "closefrom") : NULL;
	if (glibc_closefrom == NULL) {
		printf("SKIP: this glibc has no closefrom (2.34+)\n");
		return 77;
	}
	for (size_t i = 0; i < sizeof(gw) / sizeof(gw[0]); i++) {
		const struct world *w = gw[i].world;
		int outcome = run_in_world(c, w, call_glibc, 3);
		char name[128];
		bool ok;

		if (outcome == 0 && !shared->made) {
			not_here++;
			continue;
		}
		snprintf(name, sizeof(name), "glibc_closefrom_%s",
			 gw[i].glibc_signal == SIGABRT ? "aborts" :
			 gw[i].glibc_signal == SIGALRM ? "never_returns" :
			 gw[i].glibc_leaks ? "leaves_fds_open" : "closes_all");
		if (gw[i].glibc_signal != 0) {
			ok = outcome == -gw[i].glibc_signal;
			snprintf(detail, sizeof(detail), "%s",
				 ok ? "" : outcome == 0 ? "it returned" :
				 "it died otherwise");
		} else {
			ok = outcome == 0 && (judge(c, outcome, detail,
						    sizeof(detail)) !=
					      gw[i].glibc_leaks);
			if (ok)
				detail[0] = '\0';
		}
		verdict(ok, name, w->name, detail);
		verdict(judge(c, run_in_world(c, w, call_library, 60), detail,
			      sizeof(detail)),
			"library_closefrom_closes_all", w->name, detail);
	}
	if (not_here != 0)
		printf("not here: %d worlds (no mount namespace or seccomp "
		       "filter here)\n", not_here);
	return 0;
}
#else
static int run_glibc_beside(void)
{
	printf("SKIP: glibc's closefrom is compared only where the C library "
	       "is glibc\n");
	return 77;
}
#endif

/* ---- vfork ---- */

static int vfork_case(const char *self, const struct world *w)
{
	char *argv[] = { (char *)self, "3", "4", "5", "6", "7", "8", "9", "10",
			 "700", "1400", "1500", NULL };
	struct fd_state before, after;
	int status;
	pid_t pid;

	start_owner(w->proc);
	if (open_fixture(true) != 0 || make_proc_world(w->proc) != 0 ||
	    (w->refuse != 0 && block_close_range(w->refuse) != 0))
		return 200;
	/* argv and the environment come from memory the parent owns; the
	 * child only calls closefrom and execve. */
	record(&before);
	pid = vfork();
	if (pid == 0) {
		closefrom(3);
		execve(self, argv, environ);
		_exit(201);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 202;
	record(&after);
	stop_owner();
	/* The child's table was its own: the parent keeps every fd. */
	if (!states_equal(&before, &after))
		return 203;
	return WEXITSTATUS(status);
}

static int run_vfork(const char *self)
{
	for (size_t w = 0; w < WORLDS; w++) {
		int status, code;
		char detail[64];
		pid_t pid = fork();

		if (pid == 0)
			_exit(vfork_case(self, &worlds[w]));
		if (pid < 0 || waitpid(pid, &status, 0) != pid ||
		    !WIFEXITED(status)) {
			verdict(false, "vfork_child_closefrom", worlds[w].name,
				"the child died");
			continue;
		}
		code = WEXITSTATUS(status);
		if (code == 200) {
			not_here++;
			continue;
		}
		snprintf(detail, sizeof(detail), code == 203 ?
			 "the parent's fds changed" : code > 200 ?
			 "vfork or exec failed" : "%d fds inherited", code);
		verdict(code == 0, "vfork_child_closefrom_inherits_nothing",
			worlds[w].name, code == 0 ? "" : detail);
	}
	if (not_here != 0)
		printf("not here: %d worlds (no mount namespace or seccomp "
		       "filter here)\n", not_here);
	return 0;
}

int main(int argc, char **argv)
{
	int result, file;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc < 2) {
		fprintf(stderr, "usage: %s answers|glibc-beside|"
			"vfork REPORT_INHERITED\n",
			argv[0]);
		return 2;
	}
	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	file = mkstemp(lock_path);
	if (shared == MAP_FAILED || file < 0)
		return 2;
	close(file);
	if (strcmp(argv[1], "answers") == 0)
		result = run_answers();
	else if (strcmp(argv[1], "glibc-beside") == 0)
		result = run_glibc_beside();
	else if (strcmp(argv[1], "vfork") == 0 && argc == 3)
		result = run_vfork(argv[2]);
	else
		return 2;
	unlink(lock_path);
	if (result == 77)
		return 77;
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0 || passed == 0;
}
