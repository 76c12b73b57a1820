/*
 * Every fallback of the library near the fd limit: with 0 to 4 fds free
 * below RLIMIT_NOFILE, each call answers as the kernel's call does, or
 * EMFILE where its man page says it needs more fds than are free, and
 * leaves the fd table as the kernel's call does (no fd of its own left
 * open, its answer at the lowest free number).
 *
 * The kernel's answer is what the call means (openat2 needs one fd for
 * its answer; fchmodat, close_range and execveat need none), and is asked
 * of the kernel's own call too wherever the kernel has it, so that the
 * meaning is checked on every kernel the matrix boots (tests/kernels).
 * The library's answer is asked with the system call refused (seccomp,
 * ENOSYS), with /proc real and hidden.
 *
 * Libc-neutral (no cmocka, no libseccomp). Each case runs in a forked
 * child, which reports through shared memory (close_range closes every
 * fd it could report through). Exits 1 if a case failed, 77 where no
 * mount namespace or seccomp filter can be made (qemu-user).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "child_errno.h"
#include "execveat.h"
#include "execveat_refusal.h"
#include "inroot.h"
#include "kernel_env.h"
#include "openat2_again.h"
#include "refuse_call.h"

#ifndef SYS_faccessat2
#define SYS_faccessat2 439 /* headers before 5.8 */
#endif

#define MOST_FREE 4
#define XATTR_CASE "inroot_fgetxattr_o_path_file"

/* The fixture, the same numbers in every child: fds 0 to 2, then these;
 * the fds free are those from FIXTURE_END up to the lowered limit. The
 * last two are /proc/self/fd (O_PATH) and /proc/self/status (O_PATH,
 * PROC_FILE_FD, 7 in the fd directory), where /proc is real; TOP_FD's
 * directory again where it is hidden. */
enum { TOP_FD = 3, SCRIPT_FD, PROGRAM_FD, PROC_FD_DIR_FD, PROC_FILE_FD,
       FIXTURE_END };
_Static_assert(PROC_FILE_FD == 7, "the magic link's name is \"7\"");

static char top[] = "/tmp/libexecveat-fd-limit-XXXXXX";
static const char *program; /* what the exec cases run: exits 0 */

/* NOTHING: a function whose fallback is for a kernel that lacks a way
 * (inroot_reopen: Linux 7.2's O_EMPTYPATH), with no call to refuse. */
enum refused { OPENAT2, FCHMODAT2, CLOSE_RANGE, EXECVEAT, FACCESSAT2,
	       NOTHING };

struct limit_case {
	const char *name;
	enum refused refused;  /* the call the library's side is refused */
	long (*call)(void);    /* the fd, 0, or -1 with errno */
	long (*kernel)(void);  /* the kernel's own call, or NULL where it
				* has none */
	int need;              /* the most fds the library's man page says
				* its fallback needs: EMFILE below that */
	int need_without_proc; /* the same, without /proc */
	bool returns_fd;       /* a success opens one fd */
	bool closes_fixture;   /* a success closes fds from TOP_FD up */
	int expected;          /* errno where free fds suffice; 0: success,
				* RAN: the program ran */
	int without_proc;      /* the same without /proc, where that is
				* another answer; else 0 */
	bool emptypath_reopens; /* without /proc, expected's answer after
				 * all where the kernel reopens an O_PATH
				 * fd by O_EMPTYPATH (Linux 7.2) */
};

#define RAN (-1)

static long openat2_beneath(void)
{
	struct open_how how = { .flags = O_RDONLY, .resolve = RESOLVE_BENEATH };

	return openat2(TOP_FD, "sub/../sub/file", &how, sizeof(how));
}

/* The kernel's openat2: asked again on the EAGAIN that a rename anywhere
 * on the machine gives a scoped ".." (openat2_again.h), an answer about
 * the machine and not about the fds free; where renames went on for as
 * long as it was asked, kernel_unanswered says there is no answer. */
static bool kernel_unanswered;

static long raw_openat2_beneath(void)
{
	struct open_how how = { .flags = O_RDONLY, .resolve = RESOLVE_BENEATH };

	return kernel_openat2(TOP_FD, "sub/../sub/file", &how, sizeof(how),
			      &kernel_unanswered);
}

/* "link" is a symlink to "/sub/file", read in the root TOP_FD. */
static long openat2_in_root_link(void)
{
	struct open_how how = { .flags = O_RDONLY, .resolve = RESOLVE_IN_ROOT };

	return openat2(TOP_FD, "sub/../link", &how, sizeof(how));
}

static long raw_openat2_in_root_link(void)
{
	struct open_how how = { .flags = O_RDONLY, .resolve = RESOLVE_IN_ROOT };

	return kernel_openat2(TOP_FD, "sub/../link", &how, sizeof(how),
			      &kernel_unanswered);
}

/* A procfs magic link under RESOLVE_NO_XDEV, to a procfs file: the
 * fallback judges its target, then opens it again through this thread's
 * fd directory, which it proves first. */
static long openat2_magic_link(void)
{
	struct open_how how = { .flags = O_RDONLY,
				.resolve = RESOLVE_NO_XDEV };

	return openat2(PROC_FD_DIR_FD, "7", &how, sizeof(how));
}

static long raw_openat2_magic_link(void)
{
	struct open_how how = { .flags = O_RDONLY,
				.resolve = RESOLVE_NO_XDEV };

	return kernel_openat2_once(PROC_FD_DIR_FD, "7", &how, sizeof(how));
}

/* A regular file has no way but /proc where the process does not hold
 * it open. */
static long chmod_file(void)
{
	return fchmodat(TOP_FD, "sub/file", 0600, AT_SYMLINK_NOFOLLOW);
}

static long raw_chmod_file(void)
{
	return raw_fchmodat2(TOP_FD, "sub/file", 0600, AT_SYMLINK_NOFOLLOW);
}

/* Nor has a FIFO: neither is ever opened (fchmodat(3)). */
static long chmod_fifo(void)
{
	return fchmodat(TOP_FD, "sub/fifo", 0600, AT_SYMLINK_NOFOLLOW);
}

static long raw_chmod_fifo(void)
{
	return raw_fchmodat2(TOP_FD, "sub/fifo", 0600, AT_SYMLINK_NOFOLLOW);
}

static long chmod_dir(void)
{
	return fchmodat(TOP_FD, "sub", 0700, AT_SYMLINK_NOFOLLOW);
}

static long raw_chmod_dir(void)
{
	return raw_fchmodat2(TOP_FD, "sub", 0700, AT_SYMLINK_NOFOLLOW);
}

/* W_OK of a symlink itself: only a read-only mount refuses it, which the
 * fallback learns by an O_PATH open of the link (faccessat(3)). */
static long access_link(void)
{
	return faccessat(TOP_FD, "link", W_OK, AT_SYMLINK_NOFOLLOW);
}

static long raw_access_link(void)
{
	return syscall(SYS_faccessat2, TOP_FD, "link", W_OK,
		       AT_SYMLINK_NOFOLLOW);
}

static long close_from_top(void)
{
	return close_range(TOP_FD, ~0u, 0);
}

static long raw_close_from_top(void)
{
	return raw_close_range(TOP_FD, ~0u, 0);
}

static long closefrom_top(void)
{
	closefrom(TOP_FD);
	return 0;
}

/* The O_PATH fd of a regular file opened again, which before Linux
 * 7.2's O_EMPTYPATH has no way but its proven /proc entry. */
static long inroot_reopen_file(void)
{
	return inroot_reopen(SCRIPT_FD, O_RDONLY);
}

/* Its mode through the O_PATH fd (unchanged: the exec cases run it):
 * without fchmodat2, its proven /proc entry is the only way. */
static long inroot_fchmod_file(void)
{
	return inroot_fchmod(SCRIPT_FD, 0755);
}

static long raw_fchmod_file(void)
{
	return raw_fchmodat2(SCRIPT_FD, "", 0755, AT_EMPTY_PATH);
}

/* An attribute read through the O_PATH fd: where the kernel has
 * getxattrat (Linux 6.13) but takes no O_PATH fd there, its proven /proc
 * entry is the only way. */
static long inroot_fgetxattr_file(void)
{
	return inroot_fgetxattr(SCRIPT_FD, "user.none", NULL, 0);
}

static char *exec_argv[] = { "true", NULL };
static char *exec_envp[] = { NULL };

static long fexecve_script(void)
{
	return fexecve(SCRIPT_FD, exec_argv, exec_envp);
}

static long raw_execveat_script(void)
{
	return syscall(__NR_execveat, SCRIPT_FD, "", exec_argv, exec_envp,
		       AT_EMPTY_PATH);
}

static long fexecve_program(void)
{
	return fexecve(PROGRAM_FD, exec_argv, exec_envp);
}

static long raw_execveat_program(void)
{
	return syscall(__NR_execveat, PROGRAM_FD, "", exec_argv, exec_envp,
		       AT_EMPTY_PATH);
}

/* The needs are those of openat2(3) ("it cannot hold two", four for a
 * magic link it opens again through /proc), faccessat(3) (one, for a
 * symlink's own W_OK), fchmodat(3)
 * (four with /proc, three without, for a directory its caller may not
 * search; a regular file or a FIFO the process does not hold open has no
 * way without /proc, and needs two fds to find that out: its own O_PATH
 * one, and one to look for /proc with) and fexecve(3) (one to look into an O_PATH close-on-exec
 * file, which needs /proc to be run at all), inroot_reopen(3) and
 * inroot_statx(3) (three to prove /proc, one to look for it); close_range
 * and closefrom always finish. */
/* Not const: main sets the attribute case's answer, which is the file
 * system's (ENODATA, or EOPNOTSUPP where it has no user attributes). */
static struct limit_case cases[] = {
	{ "openat2_beneath_through_dotdot", OPENAT2, openat2_beneath,
	  raw_openat2_beneath, 2, 2, true, false, 0, 0, false },
	{ "openat2_in_root_through_a_symlink", OPENAT2, openat2_in_root_link,
	  raw_openat2_in_root_link, 2, 2, true, false, 0, 0, false },
	{ "openat2_procfs_magic_link", OPENAT2, openat2_magic_link,
	  raw_openat2_magic_link, 4, 2, true, false, 0, ENOENT, false },
	{ "fchmodat_nofollow_file", FCHMODAT2, chmod_file, raw_chmod_file, 4,
	  2, false, false, 0, EOPNOTSUPP, false },
	{ "fchmodat_nofollow_directory", FCHMODAT2, chmod_dir, raw_chmod_dir,
	  4, 3, false, false, 0, 0, false },
	{ "fchmodat_nofollow_fifo", FCHMODAT2, chmod_fifo, raw_chmod_fifo, 4,
	  2, false, false, 0, EOPNOTSUPP, false },
	{ "faccessat_symlink_w_ok", FACCESSAT2, access_link, raw_access_link,
	  1, 1, false, false, 0, 0, false },
	{ "close_range_from_3", CLOSE_RANGE, close_from_top,
	  raw_close_from_top, 0, 0, false, true, 0, 0, false },
	{ "closefrom_3", CLOSE_RANGE, closefrom_top, raw_close_from_top, 0,
	  0, false, true, 0, 0, false },
	{ "fexecve_o_path_cloexec_script", EXECVEAT, fexecve_script,
	  raw_execveat_script, 1, 0, false, false, ENOENT, ENOSYS, false },
	{ "fexecve_o_path_program", EXECVEAT, fexecve_program,
	  raw_execveat_program, 0, 0, false, false, RAN, ENOSYS, false },
	{ "inroot_reopen_o_path_file", NOTHING, inroot_reopen_file, NULL, 3,
	  1, true, false, 0, EOPNOTSUPP, true },
	{ "inroot_fchmod_o_path_file", FCHMODAT2, inroot_fchmod_file,
	  raw_fchmod_file, 3, 1, false, false, 0, EOPNOTSUPP, false },
	{ XATTR_CASE, NOTHING, inroot_fgetxattr_file, NULL, 3, 1, false,
	  false, ENODATA, EOPNOTSUPP, false },
};

#define CASE_COUNT (sizeof(cases) / sizeof(cases[0]))

/*
 * The attribute case's answer with /proc: that of fgetxattr on an fd
 * that reads the script. 0 where the case means nothing here: the kernel
 * has no getxattrat (ENOSYS: no way but EOPNOTSUPP in every world), or
 * takes an O_PATH fd there (no fallback).
 */
static int xattr_answer(void)
{
	struct { uint64_t value; uint32_t size, flags; } args = { 0, 0, 0 };
	char path[sizeof(top) + 16];
	int opath, reading, answer = 0;

	snprintf(path, sizeof(path), "%s/script", top);
	opath = open(path, O_PATH | O_CLOEXEC);
	reading = open(path, O_RDONLY | O_CLOEXEC);
	if (opath >= 0 && reading >= 0 &&
	    syscall(464, opath, "", AT_EMPTY_PATH, "user.none", &args,
		    sizeof(args)) == -1 && errno == EBADF &&
	    fgetxattr(reading, "user.none", NULL, 0) == -1)
		answer = errno;
	if (opath >= 0)
		close(opath);
	if (reading >= 0)
		close(reading);
	return answer;
}

/* What a child writes for its parent to read. */
struct report {
	int made;      /* the world was made */
	int returned;  /* the call returned (an exec did not) */
	long rc;
	int err;
	bool unanswered; /* kernel_unanswered */
	int open_after[FIXTURE_END + MOST_FREE + 1];
};

static struct report *shared;

/* Whether the kernel here has each call (the kernel side runs only
 * there; qemu-user and old kernels lack some). */
static bool kernel_has(enum refused call)
{
	switch (call) {
	case OPENAT2:
		return openat2_refusal() == 0;
	case FCHMODAT2:
		return fchmodat2_refusal() == 0;
	case CLOSE_RANGE:
		return close_range_refusal() == 0;
	case EXECVEAT:
		return execveat_refusal() == 0;
	case FACCESSAT2:
		return refusal_of(syscall(SYS_faccessat2, AT_FDCWD, "", 0,
					  0x40000000)) == 0;
	case NOTHING:
		return false;
	}
	return true;
}

static int refuse(enum refused call)
{
	switch (call) {
	case OPENAT2:
		return block_openat2(ENOSYS);
	case FCHMODAT2:
		return block_fchmodat2(ENOSYS);
	case CLOSE_RANGE:
		return block_close_range(ENOSYS);
	case EXECVEAT:
		return block_execveat(ENOSYS);
	case FACCESSAT2:
		return refuse_call(SYS_faccessat2, ENOSYS);
	case NOTHING:
		return 0;
	}
	return EINVAL;
}

/* Everything above 2 closed, then the fixture at its numbers. */
static int open_fixture(void)
{
	char path[sizeof(top) + 16];

	for (int fd = TOP_FD; fd < 1024; fd++)
		close(fd);
	snprintf(path, sizeof(path), "%s/script", top);
	if (open(top, O_PATH | O_DIRECTORY) != TOP_FD ||
	    open(path, O_PATH | O_CLOEXEC) != SCRIPT_FD ||
	    open(program, O_PATH) != PROGRAM_FD)
		return -1;
	if (open("/proc/self/fd", O_PATH | O_DIRECTORY) != PROC_FD_DIR_FD &&
	    open(top, O_PATH | O_DIRECTORY) != PROC_FD_DIR_FD)
		return -1;
	if (open("/proc/self/status", O_PATH) != PROC_FILE_FD &&
	    open(top, O_PATH | O_DIRECTORY) != PROC_FILE_FD)
		return -1;
	return 0;
}

/* In the child: the world, the fixture, free fds, the call. */
static void run_child(const struct limit_case *c, bool library,
		      bool hidden_proc, int free_fds)
{
	struct rlimit lowered = { FIXTURE_END + free_fds,
				  FIXTURE_END + free_fds };

	if ((hidden_proc && hide_proc() != 0) ||
	    (library && refuse(c->refused) != 0) || open_fixture() != 0 ||
	    setrlimit(RLIMIT_NOFILE, &lowered) != 0)
		_exit(0);
	shared->made = 1;
	shared->rc = library ? c->call() : c->kernel();
	shared->err = errno;
	shared->unanswered = kernel_unanswered;
	shared->returned = 1;
	for (int fd = 0; fd <= FIXTURE_END + MOST_FREE; fd++)
		shared->open_after[fd] = fcntl(fd, F_GETFD) != -1;
	_exit(0);
}

struct outcome {
	bool made;
	bool unanswered; /* the kernel's side: no answer (kernel_unanswered) */
	int answer;  /* 0, an errno, or RAN */
	int fd;      /* the fd a success returned, else -1 */
	int extra;   /* an fd open after the call that should not be, or -1 */
	int missing; /* an fd closed that should not be, or -1 */
};

static struct outcome run(const struct limit_case *c, bool library,
			  bool hidden_proc, int free_fds)
{
	struct outcome o = { false, false, 0, -1, -1, -1 };
	int status;
	pid_t pid;

	memset(shared, 0, sizeof(*shared));
	pid = fork();
	if (pid == 0)
		run_child(c, library, hidden_proc, free_fds);
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		perror("fork");
		exit(2);
	}
	o.made = shared->made;
	o.unanswered = shared->unanswered;
	if (!shared->returned) {
		o.answer = WIFEXITED(status) && WEXITSTATUS(status) == 0 ?
			   RAN : -1000;
		return o;
	}
	o.answer = shared->rc < 0 ? shared->err : 0;
	if (shared->rc > 0 && c->returns_fd)
		o.fd = (int)shared->rc;
	for (int fd = 0; fd <= FIXTURE_END + MOST_FREE; fd++) {
		bool want = fd < FIXTURE_END || fd == o.fd;

		if (c->closes_fixture && o.answer == 0 && fd >= TOP_FD)
			want = false;
		if (shared->open_after[fd] && !want && o.extra == -1)
			o.extra = fd;
		if (!shared->open_after[fd] && want && o.missing == -1)
			o.missing = fd;
	}
	return o;
}

static const char *say(int answer)
{
	if (answer == RAN)
		return "the program ran";
	if (answer == 0)
		return "0";
	if (answer == -1000)
		return "the child died";
	return strerror(answer);
}

static int passed, failed, not_here, not_judged;

static void verdict(bool ok, const char *name, const char *side,
		    int free_fds, const char *detail)
{
	printf("%s %s (%s, %d free): %s\n", ok ? "ok" : "not ok", name, side,
	       free_fds, detail);
	if (ok)
		passed++;
	else
		failed++;
}

/*
 * The answer a side must give: the case's meaning (EMFILE for an opening
 * call with no fd free; without /proc, the case's answer there), or, for
 * the library only, EMFILE where fewer fds are free than its man page
 * says it needs.
 */
static void judge(const struct limit_case *c, const char *side,
		  struct outcome o, int free_fds, bool may_need, bool no_proc)
{
	int meant = c->returns_fd && free_fds == 0 ? EMFILE : c->expected;
	int need = no_proc ? c->need_without_proc : c->need;
	bool answer_ok;
	char detail[200];

	if (no_proc && c->without_proc != 0 &&
	    !(c->emptypath_reopens && kernel_reopens_empty_path()))
		meant = c->without_proc;
	may_need = may_need && free_fds < need;
	answer_ok = o.answer == meant || (may_need && o.answer == EMFILE);
	if (!o.made) {
		verdict(false, c->name, side, free_fds,
			"the world could not be made");
		return;
	}
	if (o.unanswered) {
		snprintf(detail, sizeof(detail), "%s (%s, %d free)", c->name,
			 side, free_fds);
		openat2_say_not_judged(detail, "the library's side still "
				       "judged");
		not_judged++;
		return;
	}
	snprintf(detail, sizeof(detail), "%s, expected %s%s", say(o.answer),
		 say(meant), may_need ? " or EMFILE" : "");
	if (answer_ok && o.fd != -1 && o.fd != FIXTURE_END) {
		snprintf(detail, sizeof(detail), "answered fd %d, not the "
			 "lowest free, %d", o.fd, FIXTURE_END);
		answer_ok = false;
	} else if (answer_ok && o.extra != -1) {
		snprintf(detail, sizeof(detail), "fd %d left open", o.extra);
		answer_ok = false;
	} else if (answer_ok && o.missing != -1 && o.answer != RAN) {
		snprintf(detail, sizeof(detail), "fd %d closed", o.missing);
		answer_ok = false;
	}
	verdict(answer_ok, c->name, side, free_fds, detail);
}

static void make_fixture(void)
{
	int fd;

	if (mkdtemp(top) == NULL || chdir(top) != 0 || mkdir("sub", 0755) != 0 ||
	    mkfifo("sub/fifo", 0644) != 0 ||
	    (fd = open("sub/file", O_WRONLY | O_CREAT, 0644)) < 0 ||
	    close(fd) != 0 || symlink("/sub/file", "link") != 0 ||
	    (fd = open("script", O_WRONLY | O_CREAT, 0755)) < 0 ||
	    write(fd, "#!/bin/sh\nexit 3\n", 17) != 17 || close(fd) != 0 ||
	    chdir("/") != 0) {
		perror("fixture");
		exit(2);
	}
}

static void remove_fixture(void)
{
	if (chdir(top) == 0) {
		unlink("sub/file");
		unlink("sub/fifo");
		rmdir("sub");
		unlink("link");
		unlink("script");
	}
	if (chdir("/") == 0)
		rmdir(top);
}

static int hide_proc_and_refuse(void)
{
	int err = hide_proc();

	return err != 0 ? err : block_openat2(ENOSYS);
}

int main(int argc, char **argv)
{
	static const char *const sides[] = { "library, /proc real",
					     "library, no /proc" };
	int err;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc != 2) {
		fprintf(stderr, "usage: %s PROGRAM_THAT_EXITS_0\n", argv[0]);
		return 2;
	}
	program = realpath(argv[1], NULL);
	err = errno_of_child(hide_proc_and_refuse);
	if (program == NULL || err != 0) {
		printf("SKIP: needs %s: %s\n", program ? "a mount namespace "
		       "and seccomp" : argv[1], strerror(err ? err : errno));
		return 77;
	}
	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		return 2;
	make_fixture();
	for (size_t i = 0; i < CASE_COUNT; i++) {
		const struct limit_case *c = &cases[i];

		if (strcmp(c->name, XATTR_CASE) == 0 &&
		    (cases[i].expected = xattr_answer()) == 0) {
			printf("not here: %s (getxattrat is missing, or takes "
			       "an O_PATH fd)\n", c->name);
			continue;
		}

		for (int free_fds = 0; free_fds <= MOST_FREE; free_fds++) {
			if (c->kernel != NULL && kernel_has(c->refused))
				judge(c, "kernel", run(c, false, false, free_fds),
				      free_fds, false, false);
			else
				not_here++;
			for (int hidden = 0; hidden < 2; hidden++)
				judge(c, sides[hidden],
				      run(c, true, hidden, free_fds), free_fds,
				      true, hidden);
		}
	}
	remove_fixture();
	if (not_here != 0)
		printf("not here: %d kernel rows: the kernel lacks the call "
		       "(the library's side is its fallback there)\n",
		       not_here);
	printf("%d passed, %d failed, %d not judged\n", passed, failed,
	       not_judged);
	return failed != 0 || passed == 0;
}
