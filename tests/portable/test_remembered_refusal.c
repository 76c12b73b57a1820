/*
 * A refusal remembered in one thread, used by others: the library
 * remembers a refused call for the process, but seccomp filters belong to
 * threads. Each family below runs in a process of its own, three threads:
 *
 * - a learner, whose filter refuses the call (ENOSYS, then in another
 *   process EPERM), meets the refusal once;
 * - a witness, whose filter answers the call with an errno the library
 *   returns as it is (EXFULL, which no path gives; for close_range,
 *   ENOMEM with CLOSE_RANGE_UNSHARE), asks a question the fallback
 *   answers: the fallback's answer shows the memory in use (no call
 *   made), the filter's that the call was made;
 * - the main thread, with no filter, asks questions the fallback answers,
 *   cannot answer, or answers otherwise (a FIFO's mode without /proc, an
 *   empty path at AT_FDCWD, another ID's question, one fd free), and each
 *   answer must be the kernel's own, asked of the system call itself.
 *   Where the fallback would open the file the call does not, an inotify
 *   watch sees no open.
 *
 *   test-remembered-refusal PROGRAM_THAT_EXITS_0
 *
 * Libc-neutral (no cmocka, no libseccomp). Needs root (mount namespaces,
 * other IDs); exits 77 where seccomp or a namespace cannot be had.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "execveat.h"
#include "inroot.h"
#include "kernel_env.h"
#include "openat2_again.h"
#include "openat2_nr.h"
#include "refuse_call.h"

#ifndef SYS_faccessat2
#define SYS_faccessat2 439
#endif

static char top[] = "/tmp/test-remembered-refusal.XXXXXX";
static int topfd;
static const char *program;
static int failed;

static int answer_of(long rc)
{
	return rc < 0 ? errno : 0;
}

static int asked;

/* One answer of the library in the thread with no filter, against the
 * kernel's; only a difference is shown. */
static void check(const char *family, int refusal, const char *question,
		  int got, int want)
{
	asked++;
	if (got == want)
		return;
	printf("FAIL %s, refused %s in another thread: %s: %s, the kernel's "
	       "%s\n", family, strerror(refusal), question,
	       got ? strerror(got) : "0", want ? strerror(want) : "0");
	failed++;
}

/* A thread of its own with a filter answering nr with err, running
 * ask(): its answer. */
struct filtered {
	long nr;
	int err;
	int (*ask)(void);
	int answer;
};

static void *run_filtered(void *arg)
{
	struct filtered *f = arg;

	f->answer = refuse_call(f->nr, f->err) != 0 ? -1 : f->ask();
	return NULL;
}

static int in_filtered_thread(long nr, int err, int (*ask)(void))
{
	struct filtered f = { nr, err, ask, -1 };
	pthread_t t;

	if (pthread_create(&t, NULL, run_filtered, &f) != 0 ||
	    pthread_join(t, NULL) != 0)
		return -1;
	return f.answer;
}

/* openat2 ------------------------------------------------------------- */

static int open_file_beneath(void)
{
	struct open_how how = { O_RDONLY | O_CLOEXEC, 0, RESOLVE_BENEATH };
	int fd = openat2(topfd, "file", &how, sizeof(how));

	return fd < 0 ? errno : close(fd);
}

/* The library's answer and the kernel's to one open, beneath topfd,
 * with free fds free below the limit. A scoped ".." answers EAGAIN
 * whenever anything on the machine is renamed (openat2_again.h): both
 * sides are asked again while either is. */
static void compare_open(const char *family, int refusal, const char *path,
			 int free_fds)
{
	struct open_how how = { O_RDONLY | O_CLOEXEC, 0, RESOLVE_BENEATH };
	struct rlimit saved, lowered;
	struct openat2_again again;
	int lowest = dup(0), got, want;
	long fd;
	char shown[96];

	close(lowest);
	if (getrlimit(RLIMIT_NOFILE, &saved) != 0)
		return;
	lowered = (struct rlimit){ (rlim_t)(lowest + free_fds), saved.rlim_max };
	setrlimit(RLIMIT_NOFILE, &lowered);
	openat2_again_start(&again);
	do {
		fd = kernel_openat2_once(topfd, path, &how, sizeof(how));
		want = answer_of(fd);
		if (fd >= 0)
			close((int)fd);
		fd = openat2(topfd, path, &how, sizeof(how));
		got = answer_of(fd);
		if (fd >= 0)
			close((int)fd);
	} while (openat2_ask_again(&again, how.resolve,
				   openat2_either_eagain(got, want)));
	setrlimit(RLIMIT_NOFILE, &saved);
	snprintf(shown, sizeof(shown), "openat2 of \"%s\" with %d fd(s) free",
		 path, free_fds);
	check(family, refusal, shown, got, want);
}

static void ask_openat2(int refusal)
{
	compare_open("openat2", refusal, "file", 8);
	/* The walk holds two fds: EMFILE, where the kernel opens. */
	compare_open("openat2", refusal, "dir/sub/../sub/file", 1);
	compare_open("openat2", refusal, "../escape", 8);
	compare_open("openat2", refusal, "missing", 8);
}

/* fchmodat ------------------------------------------------------------ */

static int chmod_dir(void)
{
	return fchmodat(topfd, "dir", 0755, AT_SYMLINK_NOFOLLOW) == 0 ? 0 :
									errno;
}

/* Whether the inotify fd saw an open. */
static bool saw_open(int ino)
{
	char buf[4096] __attribute__((aligned(8)));
	ssize_t n = read(ino, buf, sizeof(buf));

	for (ssize_t at = 0; at < n;) {
		const struct inotify_event *e = (const void *)(buf + at);

		if (e->mask & IN_OPEN)
			return true;
		at += (ssize_t)(sizeof(*e) + e->len);
	}
	return false;
}

/* The kernel's fchmodat2, the mode put back, then the library's: the
 * same answer, the same mode after, and no open of the file on the way
 * (an inotify watch on its directory). */
static void compare_chmod(int refusal, const char *path, unsigned int mode)
{
	int ino = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	struct stat before, by_kernel, by_library;
	bool found = fstatat(topfd, path, &before, AT_SYMLINK_NOFOLLOW) == 0;
	bool opened;
	int want, got;
	char shown[96];

	want = answer_of(raw_fchmodat2(topfd, path, mode,
				       AT_SYMLINK_NOFOLLOW));
	fstatat(topfd, path, &by_kernel, AT_SYMLINK_NOFOLLOW);
	if (found && want == 0)
		raw_fchmodat2(topfd, path, before.st_mode & 07777,
			      AT_SYMLINK_NOFOLLOW);
	if (ino < 0 || inotify_add_watch(ino, top, IN_OPEN) < 0) {
		failed++;
		return;
	}
	got = answer_of(fchmodat(topfd, path, mode, AT_SYMLINK_NOFOLLOW));
	opened = saw_open(ino);
	close(ino);
	fstatat(topfd, path, &by_library, AT_SYMLINK_NOFOLLOW);
	if (found && by_library.st_mode != by_kernel.st_mode)
		got = EIO; /* shown as a wrong answer */
	snprintf(shown, sizeof(shown), "fchmodat of \"%s\" to %#o%s", path,
		 mode, opened ? ", which opened a file" : "");
	check("fchmodat", refusal, shown, opened ? EBADFD : got, want);
}

static void ask_fchmodat(int refusal)
{
	int held;

	compare_chmod(refusal, "fifo", 0640);
	compare_chmod(refusal, "file", 0640);
	/* Held open by the process: changed through that fd. */
	held = openat(topfd, "file", O_RDONLY | O_CLOEXEC);
	compare_chmod(refusal, "file", 0600);
	if (held >= 0)
		close(held);
	compare_chmod(refusal, "dir", 0750);
	compare_chmod(refusal, "link", 0640);
	compare_chmod(refusal, "missing", 0640);
}

/* faccessat ----------------------------------------------------------- */

static int access_file(void)
{
	return faccessat(topfd, "file", R_OK, AT_EACCESS) == 0 ? 0 : errno;
}

static void compare_access(int refusal, int dirfd, const char *path,
			   const char *shown, int mode, int flags)
{
	int want = answer_of(syscall(SYS_faccessat2, (long)dirfd, path,
				     (long)mode, (long)flags));
	int got = answer_of(faccessat(dirfd, path, mode, flags));
	char text[128];

	snprintf(text, sizeof(text), "faccessat of %s, mode %d, flags %#x",
		 shown, mode, flags);
	check("faccessat", refusal, text, got, want);
}

static void ask_faccessat(int refusal)
{
	int fd = openat(topfd, "prog", O_PATH | O_CLOEXEC);

	/* Real root, effective nobody, in this thread alone (the raw
	 * call): AT_EACCESS asks nobody, which needs the library's child. */
	if (fd < 0 || fchdir(topfd) != 0 || chdir("d0644") != 0 ||
	    syscall(SYS_setresgid, 0L, 65534L, 0L) != 0 ||
	    syscall(SYS_setresuid, 0L, 65534L, 0L) != 0) {
		failed++;
		return;
	}
	for (int mode = 0; mode < 8; mode++) {
		compare_access(refusal, AT_FDCWD, "", "the working "
			       "directory, \"\"", mode, AT_EMPTY_PATH);
		compare_access(refusal, AT_FDCWD, "", "the working "
			       "directory, \"\"", mode,
			       AT_EMPTY_PATH | AT_EACCESS);
		compare_access(refusal, fd, "", "an O_PATH fd of a program, "
			       "\"\"", mode, AT_EMPTY_PATH | AT_EACCESS);
		compare_access(refusal, topfd, "file", "file", mode,
			       AT_EACCESS);
	}
	syscall(SYS_setresuid, 0L, 0L, 0L);
	syscall(SYS_setresgid, 0L, 0L, 0L);
	close(fd);
}

/* close_range --------------------------------------------------------- */

static int witness_fd = -1;

static int close_witness(void)
{
	return close_range((unsigned int)witness_fd, (unsigned int)witness_fd,
			   CLOSE_RANGE_UNSHARE) == 0 ? 0 : errno;
}

static int close_high(void)
{
	return close_range(900, 999, 0) == 0 ? 0 : errno;
}

static void ask_close_range(int refusal)
{
	int a = dup(0), b = dup(0), got, want;
	bool cloexec_set, closed;

	got = answer_of(close_range((unsigned int)a, (unsigned int)b,
				    CLOSE_RANGE_CLOEXEC));
	cloexec_set = fcntl(a, F_GETFD) == FD_CLOEXEC &&
		      fcntl(b, F_GETFD) == FD_CLOEXEC;
	check("close_range", refusal, "close_range CLOEXEC of two fds, each "
	      "close-on-exec after", got == 0 && cloexec_set ? 0 : EIO, 0);
	got = answer_of(close_range((unsigned int)a, (unsigned int)b, 0));
	closed = fcntl(a, F_GETFD) == -1 && fcntl(b, F_GETFD) == -1;
	check("close_range", refusal, "close_range of two fds, each closed "
	      "after", got == 0 && closed ? 0 : EIO, 0);
	want = answer_of(raw_close_range(5, 4, 0));
	got = answer_of(close_range(5, 4, 0));
	check("close_range", refusal, "close_range(5, 4)", got, want);
	want = answer_of(raw_close_range(900, 999, 0x80000000u));
	got = answer_of(close_range(900, 999, 0x80000000u));
	check("close_range", refusal, "close_range with an unknown flag", got,
	      want);
}

/* fexecve ------------------------------------------------------------- */

static char *exec_argv[] = { "true", NULL };
static char *exec_envp[] = { NULL };

static int exec_unexecutable(void)
{
	int fd = openat(topfd, "file", O_PATH | O_CLOEXEC);
	int rc = fexecve(fd, exec_argv, exec_envp) == 0 ? 0 : errno;

	close(fd);
	return rc;
}

/* In a child of this thread (no filter), with /proc hidden or not:
 * fexecve of the program must run it, as execveat does. */
static void compare_exec(int refusal, bool hidden)
{
	pid_t pid = fork();
	int status = -1;

	if (pid == 0) {
		int fd = open(program, O_PATH | O_CLOEXEC);

		if (fd < 0 || (hidden && hide_proc() != 0))
			_exit(3);
		fexecve(fd, exec_argv, exec_envp);
		_exit(4);
	}
	waitpid(pid, &status, 0);
	check("fexecve", refusal, hidden ? "fexecve of a program, /proc "
	      "hidden: it ran" : "fexecve of a program: it ran",
	      WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : ENOEXEC, 0);
}

static void ask_fexecve(int refusal)
{
	compare_exec(refusal, false);
	compare_exec(refusal, true);
}

/* The families ---------------------------------------------------------- */

static const struct family {
	const char *name;
	long nr;
	bool hide_proc; /* the family's world has no /proc */
	int (*learn)(void);   /* meets the refusal: 0 where it answered as
			       * the fallback must, or the errno it must */
	int learned;
	int (*witness)(void); /* the fallback's answer is learned's */
	int witness_err;      /* the witness's filter's answer, one the
			       * library returns as it is */
	void (*ask)(int refusal);
} families[] = {
	{ "openat2", OPENAT2_NR, false, open_file_beneath, 0,
	  open_file_beneath, EXFULL, ask_openat2 },
	/* Without /proc the fallback changes a directory (through ".")
	 * and no regular file that the process does not hold open. */
	{ "fchmodat", 452, true, chmod_dir, 0, chmod_dir, EXFULL,
	  ask_fchmodat },
	{ "faccessat", SYS_faccessat2, true, access_file, 0, access_file,
	  EXFULL, ask_faccessat },
	/* Every answer Linux's close_range cannot give is a refusal; with
	 * CLOSE_RANGE_UNSHARE, ENOMEM is one it gives. */
	{ "close_range", 436, false, close_high, 0, close_witness, ENOMEM,
	  ask_close_range },
	{ "fexecve", SYS_execveat, false, exec_unexecutable, EACCES,
	  exec_unexecutable, EXFULL, ask_fexecve },
};
#define FAMILIES (sizeof(families) / sizeof(families[0]))

/* In a child: the family's world, the learner, the witness, the
 * questions. Exits 0, 1 on a failure, 77 where no filter can be had. */
static int run_family(const struct family *f, int refusal)
{
	int learned, witnessed;

	if (f->hide_proc && hide_proc() != 0)
		return 77;
	witness_fd = dup(0);
	learned = in_filtered_thread(f->nr, refusal, f->learn);
	if (learned == -1)
		return 77;
	if (learned != f->learned) {
		printf("FAIL %s: the learner's call answered %s\n", f->name,
		       strerror(learned));
		return 1;
	}
	witnessed = in_filtered_thread(f->nr, f->witness_err, f->witness);
	printf("%s %s, refused %s in another thread: a thread whose filter "
	       "answers %s gets %s (want %s: the refusal remembered, no "
	       "call made)\n", witnessed == f->learned ? "ok" : "FAIL",
	       f->name, strerror(refusal), strerror(f->witness_err),
	       witnessed ? strerror(witnessed) : "0",
	       f->learned ? strerror(f->learned) : "0");
	failed += witnessed != f->learned;
	f->ask(refusal);
	printf("%s %s, refused %s in another thread: %d questions in a thread "
	       "with no filter, %d answered otherwise than the kernel\n",
	       failed ? "FAIL" : "ok", f->name, strerror(refusal), asked,
	       failed);
	return failed ? 1 : 0;
}

static int make_fixture(void)
{
	int fd;

	if (mkdtemp(top) == NULL || chmod(top, 0755) != 0 ||
	    (topfd = open(top, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0 ||
	    (fd = openat(topfd, "file", O_CREAT | O_WRONLY | O_CLOEXEC,
			 0644)) < 0 || close(fd) != 0 ||
	    (fd = openat(topfd, "prog", O_CREAT | O_WRONLY | O_CLOEXEC,
			 0700)) < 0 || close(fd) != 0 ||
	    mkdirat(topfd, "dir", 0755) != 0 ||
	    mkdirat(topfd, "dir/sub", 0755) != 0 ||
	    (fd = openat(topfd, "dir/sub/file", O_CREAT | O_WRONLY | O_CLOEXEC,
			 0644)) < 0 || close(fd) != 0 ||
	    mkdirat(topfd, "d0644", 0755) != 0 ||
	    fchmodat(topfd, "d0644", 0644, 0) != 0 ||
	    mkfifoat(topfd, "fifo", 0644) != 0 ||
	    symlinkat("file", topfd, "link") != 0)
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	static const int refusals[] = { ENOSYS, EPERM };
	int result = 0;
	char cmd[sizeof(top) + 16];

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc != 2) {
		fprintf(stderr, "usage: %s PROGRAM_THAT_EXITS_0\n", argv[0]);
		return 2;
	}
	if (getuid() != 0) {
		printf("SKIP: needs root (mount namespaces, other IDs)\n");
		return 77;
	}
	program = argv[1];
	if (make_fixture() != 0) {
		perror("fixture");
		return 2;
	}
	for (size_t i = 0; i < FAMILIES; i++) {
		for (size_t r = 0; r < 2; r++) {
			pid_t pid = fork();
			int status = -1;

			if (pid == 0)
				_exit(run_family(&families[i], refusals[r]));
			if (pid < 0 || waitpid(pid, &status, 0) != pid ||
			    !WIFEXITED(status)) {
				printf("FAIL %s: the child died (%#x)\n",
				       families[i].name, status);
				result = 1;
			} else if (WEXITSTATUS(status) == 77) {
				printf("SKIP: no seccomp filter or mount "
				       "namespace here\n");
				result = result ? result : 77;
			} else if (WEXITSTATUS(status) != 0) {
				result = 1;
			}
		}
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", top);
	if (system(cmd) != 0 && result == 0)
		result = 1;
	return result;
}
