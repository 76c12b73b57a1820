/*
 * faccessat() through the public header only, against the kernel's own
 * faccessat2 where faccessat2 is refused. Libc-neutral (no cmocka, no
 * libseccomp): musl builds run it too.
 *
 *   test-faccessat answers|immutable|bad-pointers|dumpability|empty-path|
 *                  leases
 *
 * answers: a table of targets x flags x modes, asked under six pairs of
 *   real and effective IDs (root can take any in a child), one with no
 *   capability left. In each child the raw faccessat2 answers every case
 *   first; then a filter refuses it (EPERM, then in another child
 *   ENOSYS) and the library must give the same answer, errno and all,
 *   but for the questions it cannot ask (faccessat(3), unaskable_in),
 *   which must be the refusal. Where the C library is glibc, its
 *   faccessat is asked beside and its wrong answers counted; under EPERM
 *   it must be wrong. The fixture has a read-only and a noexec mount,
 *   symlinks (dangling, looping, into a directory only root can search,
 *   dangling ones in directories only root or another user can search),
 *   files of three owners, and O_PATH descriptors given with
 *   AT_EMPTY_PATH.
 * bad-pointers: a NULL path and an unreadable one, every set of flags,
 *   as root and with other real IDs: the kernel's EFAULT (or, for a set
 *   it rejects first, EINVAL), never a crash.
 * dumpability: while the library's child asks (held on a userfaultfd
 *   page that holds the path, so that the moment lasts as long as the
 *   test needs), the process is as dumpable as it was, and another
 *   thread's prctl(PR_SET_DUMPABLE, 0) then stays: the library never
 *   raises a dumpability the process lowered. Asked where the child is
 *   needed for another ID (AT_EACCESS), and for a lookup that sees more
 *   than the caller's (AT_SYMLINK_NOFOLLOW under other effective IDs, of
 *   a file in a directory only root may search), where the caller's own
 *   lookup reads the path first and is held instead.
 * empty-path: AT_EMPTY_PATH with "" with /proc hidden, about fds of
 *   every kind and working directories of every mode, in every world:
 *   the kernel's answer where faccessat(3) says one is asked, the
 *   refusal elsewhere (see run_empty_path).
 * leases: no answer without /proc breaks a lease (see run_leases).
 * immutable: W_OK on an immutable file is EPERM from the kernel itself;
 *   with faccessat2 refused EPERM the library must still answer EPERM
 *   (and R_OK 0). Needs a filesystem with the immutable flag (ext4 and
 *   the like; tmpfs has none): /var/tmp or /tmp, else it skips.
 *
 * Each world also checks that the caller's IDs and dumpability are as
 * they were, and that signals sent to its process group meanwhile never
 * ran a handler in the library's child.
 *
 * Needs root. Prints what differs and the counts; exits 1 on a failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <signal.h>
#include <sys/wait.h>
#include <pthread.h>
#include <unistd.h>

#ifdef __GLIBC__
#include <dlfcn.h>
#endif

#include "execveat.h"
#include "held_page.h"
#include "kernel_env.h"
#include "refuse_call.h"

#ifndef SYS_faccessat2
#if defined(__x86_64__) && defined(__ILP32__)
#define SYS_faccessat2 (0x40000000 + 439)
#else
#define SYS_faccessat2 439
#endif
#endif

/* <linux/fs.h>'s, which musl-gcc lacks. */
#ifndef FS_IOC_GETFLAGS
#define FS_IOC_GETFLAGS _IOR('f', 1, long)
#define FS_IOC_SETFLAGS _IOW('f', 2, long)
#endif
#ifndef FS_IMMUTABLE_FL
#define FS_IMMUTABLE_FL 0x00000010
#endif

#define NOBODY 65534
#define OTHER 1000

static char top[] = "/tmp/test-faccessat.XXXXXX";

/* The fixture, made in a mount namespace of the test's own. */
static const struct {
	const char *path;
	mode_t mode; /* 0: a symlink to target, or a mount point */
	uid_t owner;
	const char *target;
} fixture[] = {
	{ "f0000", 0000, 0, NULL },
	{ "f0700", 0700, 0, NULL },
	{ "f0070", 0070, 0, NULL },
	{ "f0007", 0007, 0, NULL },
	{ "f0755", 0755, 0, NULL },
	{ "f0644", 0644, 0, NULL },
	{ "n0600", 0600, NOBODY, NULL },
	{ "n0500", 0500, NOBODY, NULL },
	{ "dir", 040755, 0, NULL },
	{ "dir0", 040000, 0, NULL },
	{ "rpriv", 040700, 0, NULL },
	{ "rpriv/f", 0777, 0, NULL },
	{ "npriv", 040700, NOBODY, NULL },
	{ "npriv/f", 0700, NOBODY, NULL },
	{ "rpriv/link", 0, 0, "missing" },
	{ "opriv", 040700, OTHER, NULL },
	{ "opriv/f", 0700, OTHER, NULL },
	{ "opriv/link", 0, 0, "missing" },
	{ "link", 0, 0, "f0755" },
	{ "dangling", 0, 0, "missing" },
	{ "loop", 0, 0, "loop" },
	{ "intopriv", 0, 0, "rpriv/f" },
	{ "ro", 040755, 0, NULL },
	{ "ro/f", 0777, 0, NULL },
	{ "ro/link", 0, 0, "f" },
	{ "noexec", 040755, 0, NULL },
	{ "noexec/f", 0755, 0, NULL },
	{ "d0311", 040311, 0, NULL },
	{ "d0644", 040644, 0, NULL },
	{ "fifo", 010644, 0, NULL },
	{ "rofs", 040755, 0, NULL },
};
#define FIXTURE (sizeof(fixture) / sizeof(fixture[0]))

/* Paths asked (relative to the fixture), and the O_PATH fds given with
 * "" and AT_EMPTY_PATH (opened without following a symlink). */
static const char *const paths[] = {
	"f0000", "f0700", "f0070", "f0007", "f0755", "f0644", "n0600",
	"n0500", "dir", "dir0", "rpriv/f", "npriv/f", "link", "dangling",
	"loop", "intopriv", "ro/f", "ro/link", "noexec/f", "missing",
	"f0755/", "loop/x", "dir/../f0644", "rpriv/link", "opriv/f",
	"opriv/link",
};
#define PATHS (sizeof(paths) / sizeof(paths[0]))
static const char *const fd_paths[] = {
	"f0644", "f0700", "n0500", "dir", "link", "ro/f", "noexec/f",
	"rpriv/f",
};
#define FD_PATHS (sizeof(fd_paths) / sizeof(fd_paths[0]))
static int fds[FD_PATHS];

static const int flag_sets[] = {
	0, AT_EACCESS, AT_SYMLINK_NOFOLLOW, AT_SYMLINK_NOFOLLOW | AT_EACCESS,
	AT_EMPTY_PATH, AT_EMPTY_PATH | AT_EACCESS,
	AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW | AT_EACCESS,
	0x1 /* unknown: EINVAL */,
};
#define FLAG_SETS (sizeof(flag_sets) / sizeof(flag_sets[0]))
#define MODES 9 /* F_OK to R_OK | W_OK | X_OK, then 8: EINVAL */

#define SECBIT_NO_SETUID_FIXUP_FLAG (1 << 2)

/* Real and effective IDs of each world (the saved ones are 0, or with
 * no_root_left the effective ones, which leaves no capability), its
 * securebits, and whether CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH are
 * left out of the effective set (still permitted): the old faccessat
 * checks with root's permitted set, or under SECBIT_NO_SETUID_FIXUP with
 * the effective one. */
static const struct ids {
	const char *name;
	uid_t ruid, euid;
	gid_t rgid, egid;
	int securebits;
	bool dac_not_effective;
	bool no_root_left;
} worlds[] = {
	{ "root", 0, 0, 0, 0, 0, false, false },
	{ "real-nobody-effective-root", NOBODY, 0, NOBODY, 0, 0, false,
	  false },
	{ "real-root-effective-nobody", 0, NOBODY, 0, NOBODY, 0, false,
	  false },
	{ "nobody", NOBODY, NOBODY, NOBODY, NOBODY, 0, false, false },
	{ "real-other-effective-nobody", OTHER, NOBODY, OTHER, NOBODY, 0,
	  false, false },
	{ "root-dac-not-effective", 0, 0, 0, 0, 0, true, false },
	{ "root-no-setuid-fixup-dac-not-effective", 0, 0, 0, 0,
	  SECBIT_NO_SETUID_FIXUP_FLAG, true, false },
	{ "real-nobody-effective-root-no-setuid-fixup", NOBODY, 0, NOBODY, 0,
	  SECBIT_NO_SETUID_FIXUP_FLAG, false, false },
	{ "real-other-effective-nobody-no-root-left", OTHER, NOBODY, OTHER,
	  NOBODY, 0, false, true },
};

static uid_t saved_uid(const struct ids *w)
{
	return w->no_root_left ? w->euid : 0;
}

static gid_t saved_gid(const struct ids *w)
{
	return w->no_root_left ? w->egid : 0;
}

#define WORLDS (sizeof(worlds) / sizeof(worlds[0]))

struct question {
	int dirfd;
	const char *path;
	const char *shown;
	int mode, flags;
};

/*
 * The questions the library answers with the refusal in world w (with
 * /proc), as faccessat(3) says: the real IDs' question under
 * AT_SYMLINK_NOFOLLOW where the effective IDs may not search a directory
 * on the way that the real ones may, and no capability is left to look
 * with (opriv is OTHER's, 0700).
 */
static bool unaskable_in(const struct ids *w, const struct question *q)
{
	return w->no_root_left && q->flags == AT_SYMLINK_NOFOLLOW &&
	       q->mode < 8 && strncmp(q->path, "opriv/", 6) == 0;
}

#define MAX_QUESTIONS ((PATHS + FD_PATHS + 1) * FLAG_SETS * MODES)
static struct question questions[MAX_QUESTIONS];
static size_t n_questions;

/* What each world's child counts, in memory shared with the parent. */
struct tally {
	int asked, failed, unaskable, glibc_wrong, glibc_wrongly_allowed;
	int signals; /* SIGUSR1s handled while the library asked */
};
static struct tally *tally;

/*
 * A handler that runs while the library asks, and notes any run in
 * another process: the library's child shares this memory, and a
 * handler run there would run on a stack and with IDs not the caller's.
 */
static pid_t asker_pid;
static volatile sig_atomic_t handled, handled_elsewhere;

static void on_signal(int sig)
{
	(void)sig;
	handled++;
	if (syscall(SYS_getpid) != asker_pid)
		handled_elsewhere++;
}

static int answer_of(long rc)
{
	return rc == 0 ? 0 : errno;
}

static void add(int dirfd, const char *path, const char *shown, int flags)
{
	for (int mode = 0; mode < MODES; mode++)
		questions[n_questions++] = (struct question){
			dirfd, path, shown, mode, flags
		};
}

static int remove_fixture(void)
{
	char cmd[sizeof(top) + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", top);
	return system(cmd);
}

static int make_fixture(void)
{
	int dir;

	if (mkdtemp(top) == NULL || chmod(top, 0755) != 0 ||
	    (dir = open(top, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -1;
	for (size_t i = 0; i < FIXTURE; i++) {
		const char *p = fixture[i].path;
		int rc;

		if (fixture[i].target != NULL) {
			rc = symlinkat(fixture[i].target, dir, p);
		} else if (S_ISDIR(fixture[i].mode)) {
			rc = mkdirat(dir, p, 0700);
		} else if (S_ISFIFO(fixture[i].mode)) {
			rc = mkfifoat(dir, p, 0600);
		} else {
			int fd = openat(dir, p, O_CREAT | O_WRONLY | O_CLOEXEC,
					0600);

			rc = fd < 0 ? -1 : close(fd);
		}
		if (rc != 0)
			return -1;
		if (fixture[i].target == NULL &&
		    (fchownat(dir, p, fixture[i].owner,
			      strcmp(p, "f0070") ? fixture[i].owner : NOBODY,
			      0) != 0 ||
		     fchmodat(dir, p, fixture[i].mode & 07777, 0) != 0))
			return -1;
	}
	close(dir);
	return 0;
}

/* In the mount namespace made for the test: ro read-only, noexec
 * noexec, both bound onto themselves; rofs a read-only filesystem (a
 * tmpfs remounted so) holding p, root's at 0700, where a write check
 * answers EROFS before any permission. */
static int make_mounts(void)
{
	char ro[sizeof(top) + 8], noexec[sizeof(top) + 8];
	char rofs[sizeof(top) + 8], p[sizeof(top) + 8];

	snprintf(ro, sizeof(ro), "%s/ro", top);
	snprintf(noexec, sizeof(noexec), "%s/noexec", top);
	snprintf(rofs, sizeof(rofs), "%s/rofs", top);
	snprintf(p, sizeof(p), "%s/rofs/p", top);
	if (unshare(CLONE_NEWNS) != 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
	    mount(ro, ro, NULL, MS_BIND, NULL) != 0 ||
	    mount(NULL, ro, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY, NULL) !=
		    0 ||
	    mount(noexec, noexec, NULL, MS_BIND, NULL) != 0 ||
	    mount(NULL, noexec, NULL, MS_BIND | MS_REMOUNT | MS_NOEXEC, NULL) !=
		    0 ||
	    mount("tmpfs", rofs, "tmpfs", 0, "mode=0755") != 0 ||
	    mkdir(p, 0700) != 0 ||
	    mount(NULL, rofs, NULL, MS_REMOUNT | MS_RDONLY, NULL) != 0)
		return -1;
	return 0;
}

static int make_questions(void)
{
	static char shown[FD_PATHS][64];

	if (chdir(top) != 0)
		return -1;
	for (size_t i = 0; i < PATHS; i++)
		for (size_t f = 0; f < FLAG_SETS; f++)
			add(AT_FDCWD, paths[i], paths[i], flag_sets[f]);
	for (size_t i = 0; i < FD_PATHS; i++) {
		fds[i] = open(fd_paths[i], O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fds[i] < 0)
			return -1;
		snprintf(shown[i], sizeof(shown[i]), "fd of %s, \"\"",
			 fd_paths[i]);
		for (size_t f = 0; f < FLAG_SETS; f++)
			add(fds[i], "", shown[i], flag_sets[f]);
	}
	for (size_t f = 0; f < FLAG_SETS; f++)
		add(AT_FDCWD, "", "cwd, \"\"", flag_sets[f]);
	return 0;
}

#ifdef __GLIBC__
static int (*glibc_faccessat)(int, const char *, int, int);
#endif

static void print_case(const struct ids *w, int refusal,
		       const struct question *q, const char *who, int got,
		       int want)
{
	printf("  %s, faccessat2 refused %s: %s mode %d flags %#x: %s "
	       "answers %s, the kernel %s\n", w->name, strerror(refusal),
	       q->shown, q->mode, q->flags, who, got ? strerror(got) : "0",
	       want ? strerror(want) : "0");
}

/* capget and capset, raw (musl-gcc sees no <linux/capability.h>). */
struct cap_header {
	uint32_t version;
	int pid;
};
struct cap_data {
	uint32_t effective, permitted, inheritable;
};

/* CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH out of the effective set. */
static int drop_effective_dac(void)
{
	struct cap_header header = { 0x20080522 /* version 3 */, 0 };
	struct cap_data data[2];

	if (syscall(SYS_capget, &header, data) != 0)
		return -1;
	data[0].effective &= ~((1U << 1) | (1U << 2));
	return (int)syscall(SYS_capset, &header, data);
}

/* Every question, or every Nth (FACCESSAT_QUESTION_STRIDE: memcheck,
 * under which each of the fallback's children is a whole fork). */
static size_t question_stride(void)
{
	const char *stride_env = getenv("FACCESSAT_QUESTION_STRIDE");

	return stride_env && atoi(stride_env) > 0 ? (size_t)atoi(stride_env) :
						    1;
}

/* w's IDs, securebits and capabilities, in this process: 0, or -1. */
static int take_ids(const struct ids *w)
{
	if (setgroups(0, NULL) != 0 ||
	    (w->securebits != 0 &&
	     prctl(PR_SET_SECUREBITS, (unsigned long)w->securebits, 0L, 0L,
		   0L) != 0) ||
	    setresgid(w->rgid, w->egid, saved_gid(w)) != 0 ||
	    setresuid(w->ruid, w->euid, saved_uid(w)) != 0 ||
	    (w->dac_not_effective && drop_effective_dac() != 0))
		return -1;
	return 0;
}

/* One world: the kernel's answers, then the refusal, then the library's
 * (and glibc's) to the same questions. Runs in a child. */
static int ask_world(const struct ids *w, int refusal, struct tally *t)
{
	static int kernel[MAX_QUESTIONS];
	int shown_failures = 0;
	size_t stride = question_stride();

	if (take_ids(w) != 0)
		return -1;
	for (size_t i = 0; i < n_questions; i++) {
		const struct question *q = &questions[i];

		kernel[i] = answer_of(syscall(SYS_faccessat2, (long)q->dirfd,
					      q->path, (long)q->mode,
					      (long)q->flags));
	}
	if (refuse_call(SYS_faccessat2, refusal) != 0)
		return -1;
	/* Dumpable, as a process that never changed its IDs is: the
	 * library's child shares this memory, whose dumpability a change of
	 * effective IDs would reset (for both), and must find it so. */
	if (prctl(PR_SET_DUMPABLE, 1L, 0L, 0L, 0L) != 0)
		return -1;
	/* Signals to the process group, as a terminal sends SIGINT: they
	 * reach every process in it, the library's child too. */
	asker_pid = getpid();
	if (setpgid(0, 0) != 0 || signal(SIGUSR1, on_signal) == SIG_ERR)
		return -1;
	pid_t sender = fork();
	if (sender == 0) {
		signal(SIGUSR1, SIG_IGN);
		while (getppid() == asker_pid) {
			kill(-asker_pid, SIGUSR1);
			usleep(100);
		}
		_exit(0);
	}
	if (sender < 0)
		return -1;
	for (size_t i = 0; i < n_questions; i += stride) {
		const struct question *q = &questions[i];
		bool unaskable = unaskable_in(w, q);
		int want = unaskable ? refusal : kernel[i];
		int got;

		errno = 12345;
		got = answer_of(faccessat(q->dirfd, q->path, q->mode,
					  q->flags));
		t->asked++;
		t->unaskable += unaskable;
		if (got == 0 && errno != 12345)
			got = -errno; /* errno changed on success */
		if (got != want) {
			t->failed++;
			if (shown_failures++ < 20)
				print_case(w, refusal, q, "the library", got,
					   kernel[i]);
		}
#ifdef __GLIBC__
		got = answer_of(glibc_faccessat(q->dirfd, q->path, q->mode,
						q->flags));
		t->glibc_wrong += got != kernel[i];
		t->glibc_wrongly_allowed += got == 0 && kernel[i] != 0;
#endif
	}
	uid_t r, e, sv;
	gid_t rg, eg, sg;
	kill(sender, SIGKILL);
	waitpid(sender, NULL, 0);
	if (handled_elsewhere != 0) {
		printf("  %s: %d signal handlers ran in another process\n",
		       w->name, (int)handled_elsewhere);
		t->failed++;
	}
	if (prctl(PR_GET_DUMPABLE, 0L, 0L, 0L, 0L) != 1) {
		printf("  %s: the caller is no longer dumpable\n", w->name);
		t->failed++;
	}
	if (getresuid(&r, &e, &sv) != 0 || getresgid(&rg, &eg, &sg) != 0 ||
	    r != w->ruid || e != w->euid || sv != saved_uid(w) ||
	    rg != w->rgid || eg != w->egid || sg != saved_gid(w)) {
		printf("  %s: the caller's IDs changed\n", w->name);
		t->failed++;
	}
	t->signals = handled;
	return 0;
}

static int run_answers(void)
{
	static const int refusals[] = { EPERM, ENOSYS };
	int failed = 0;

#ifdef __GLIBC__
	void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);

	glibc_faccessat = libc ? (int (*)(int, const char *, int, int))
				 dlsym(libc, "faccessat") : NULL;
	if (glibc_faccessat == NULL) {
		printf("FAIL: glibc's faccessat not found\n");
		return 1;
	}
#endif
	if (syscall(SYS_faccessat2, AT_FDCWD, "", 0, 0x40000000) == 0 ||
	    errno != EINVAL) {
		printf("SKIP: no faccessat2 here to compare with (%s)\n",
		       strerror(errno));
		return 77;
	}
	if (make_mounts() != 0 || make_questions() != 0) {
		perror("mounts or questions");
		return 1;
	}
	for (size_t r = 0; r < 2; r++) {
		for (size_t i = 0; i < WORLDS; i++) {
			struct tally *t = &tally[r * WORLDS + i];
			pid_t pid = fork();
			int status = -1;

			if (pid == 0)
				_exit(ask_world(&worlds[i], refusals[r], t) ==
					      0 ? 0 : 3);
			if (pid < 0 || waitpid(pid, &status, 0) != pid ||
			    status != 0) {
				printf("FAIL %s, refused %s: the world could "
				       "not be made (%#x)\n", worlds[i].name,
				       strerror(refusals[r]), status);
				failed++;
				continue;
			}
			printf("%s %s, faccessat2 refused %s: %d asked, %d "
			       "differ from the kernel (%d the documented "
			       "refusal, %d signals handled meanwhile)",
			       t->failed ? "FAIL" : "ok", worlds[i].name,
			       strerror(refusals[r]), t->asked, t->failed,
			       t->unaskable, t->signals);
#ifdef __GLIBC__
			printf("; glibc: %d differ, %d wrongly allowed",
			       t->glibc_wrong, t->glibc_wrongly_allowed);
			/* glibc falls back on ENOSYS only. */
			if (refusals[r] == EPERM && t->glibc_wrong == 0) {
				printf(" (FAIL: glibc was expected wrong)");
				failed++;
			}
#endif
			printf("\n");
			failed += t->failed != 0;
		}
	}
	return failed ? 1 : 0;
}

/*
 * empty-path: AT_EMPTY_PATH with "" (the fd's own file, or the working
 * directory at AT_FDCWD) with /proc hidden, so that only the ways that
 * need no /proc answer (faccessat(3)): F_OK; a directory through ".",
 * where its search is granted, or refused for a mode with X_OK and
 * without W_OK; X_OK of a regular file open for writing by execveat's
 * AT_EXECVE_CHECK (Linux 6.14), where the lookups are the question's; a
 * symlink's own answer. Everything else must be the refusal, and every
 * answer must be the kernel's or that.
 */
static const struct {
	const char *path;
	int flags;
} empty_targets[] = {
	{ "dir", O_PATH | O_DIRECTORY }, { "dir", O_RDONLY | O_DIRECTORY },
	{ "dir0", O_PATH | O_DIRECTORY }, { "rpriv", O_PATH | O_DIRECTORY },
	{ "npriv", O_PATH | O_DIRECTORY }, { "opriv", O_PATH | O_DIRECTORY },
	{ "d0311", O_PATH | O_DIRECTORY }, { "d0644", O_PATH | O_DIRECTORY },
	{ "ro", O_PATH | O_DIRECTORY }, { "rofs/p", O_PATH | O_DIRECTORY },
	{ "f0755", O_PATH }, { "f0755", O_RDONLY }, { "f0755", O_RDWR },
	{ "f0700", O_RDWR }, { "f0070", O_RDWR }, { "f0644", O_RDWR },
	{ "f0000", O_RDWR }, { "n0500", O_RDWR }, { "noexec/f", O_RDWR },
	{ "ro/f", O_RDONLY }, { "link", O_PATH | O_NOFOLLOW },
	{ "fifo", O_PATH },
};
#define EMPTY_TARGETS (sizeof(empty_targets) / sizeof(empty_targets[0]))
/* The working directories asked at AT_FDCWD. */
static const char *const empty_cwds[] = {
	"dir", "dir0", "rpriv", "npriv", "opriv", "d0311", "d0644", "ro",
	"rofs/p",
};
#define EMPTY_CWDS (sizeof(empty_cwds) / sizeof(empty_cwds[0]))
static const int empty_flag_sets[] = {
	AT_EMPTY_PATH, AT_EMPTY_PATH | AT_EACCESS,
	AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW,
	AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW | AT_EACCESS,
};
#define EMPTY_FLAG_SETS (sizeof(empty_flag_sets) / sizeof(empty_flag_sets[0]))

/* Whether w's lookups (filesystem IDs, effective DAC capabilities) are
 * the question's with these flags: under AT_EACCESS always; else where
 * they are the old call's (real IDs, and root's permitted capabilities
 * or under SECBIT_NO_SETUID_FIXUP the effective ones). */
static bool lookups_are_question(const struct ids *w, int flags)
{
	bool effective_dac = w->euid == 0 && !w->dac_not_effective;
	bool old_call_dac = w->securebits & SECBIT_NO_SETUID_FIXUP_FLAG ?
				    effective_dac : w->ruid == 0;

	return (flags & AT_EACCESS) ||
	       (w->ruid == w->euid && w->rgid == w->egid &&
		old_call_dac == effective_dac);
}

/* Whether the library answers "" about a file of this type, opened with
 * open_flags, without /proc (faccessat(3)); search is the kernel's answer
 * to X_OK with the same flags. */
static bool empty_path_answered(const struct ids *w, int flags, int mode,
				mode_t type, int open_flags, int search)
{
	if (mode == F_OK || S_ISLNK(type))
		return true;
	if (S_ISDIR(type))
		return search == 0 || (search == EACCES && (mode & X_OK) &&
				       !(mode & W_OK));
	return S_ISREG(type) && mode == X_OK &&
	       (open_flags & O_ACCMODE) != O_RDONLY && !(open_flags & O_PATH) &&
	       lookups_are_question(w, flags) && kernel_version() >= 614;
}

struct empty_tally {
	int asked, differ, refused, answered_without_proc;
};

/* The questions about dirfd's "" (of type), in w, refusal set later:
 * first the kernel's answers into kernel[], then (after) the library's
 * compared. */
static void ask_empty(const struct ids *w, int refusal, int dirfd,
		      const char *shown, mode_t type, int open_flags,
		      const int *kernel, struct empty_tally *t)
{
	static size_t n;
	/* Odd, so that a stride meets every mode and flag set of a target's
	 * 32 questions. */
	size_t stride = question_stride() | 1;

	for (size_t f = 0; f < EMPTY_FLAG_SETS; f++) {
		int flags = empty_flag_sets[f];
		int search = kernel[f * 8 + X_OK];

		for (int mode = 0; mode < 8; mode++) {
			if (n++ % stride != 0)
				continue;
			int want = kernel[f * 8 + mode];
			bool answered = empty_path_answered(w, flags, mode, type,
							    open_flags, search);
			int got = answer_of(faccessat(dirfd, "", mode, flags));

			t->asked++;
			t->refused += !answered;
			t->answered_without_proc += answered;
			if (got != (answered ? want : refusal) &&
			    t->differ++ < 20)
				printf("  %s, faccessat2 refused %s: %s, mode %d "
				       "flags %#x: the library answers %s, the "
				       "kernel %s%s\n", w->name,
				       strerror(refusal), shown, mode, flags,
				       got ? strerror(got) : "0",
				       want ? strerror(want) : "0",
				       answered ? "" : " (the refusal expected)");
		}
	}
}

static void kernel_empty(int dirfd, int *kernel)
{
	for (size_t f = 0; f < EMPTY_FLAG_SETS; f++)
		for (int mode = 0; mode < 8; mode++)
			kernel[f * 8 + mode] = answer_of(syscall(
				SYS_faccessat2, (long)dirfd, "", (long)mode,
				(long)empty_flag_sets[f]));
}

/* In a child: w's IDs with the working directory cwd (and, with fds, the
 * fd targets), faccessat2 refused. */
static int ask_empty_world(const struct ids *w, int refusal, const char *cwd,
			   bool fds, struct empty_tally *t)
{
	static int kernel[EMPTY_TARGETS + 1][EMPTY_FLAG_SETS * 8];
	int target_fds[EMPTY_TARGETS];
	mode_t types[EMPTY_TARGETS];
	struct stat st;
	char shown[64];

	if (chdir(top) != 0)
		return -1;
	for (size_t i = 0; fds && i < EMPTY_TARGETS; i++) {
		target_fds[i] = open(empty_targets[i].path,
				     empty_targets[i].flags | O_CLOEXEC);
		if (target_fds[i] < 0 ||
		    fstatat(target_fds[i], "", &st, AT_EMPTY_PATH) != 0)
			return -1;
		types[i] = st.st_mode & S_IFMT;
	}
	if (chdir(cwd) != 0 || take_ids(w) != 0)
		return -1;
	kernel_empty(AT_FDCWD, kernel[EMPTY_TARGETS]);
	for (size_t i = 0; fds && i < EMPTY_TARGETS; i++)
		kernel_empty(target_fds[i], kernel[i]);
	if (refuse_call(SYS_faccessat2, refusal) != 0)
		return -1;
	snprintf(shown, sizeof(shown), "cwd %s, \"\"", cwd);
	ask_empty(w, refusal, AT_FDCWD, shown, S_IFDIR, O_PATH,
		  kernel[EMPTY_TARGETS], t);
	for (size_t i = 0; fds && i < EMPTY_TARGETS; i++) {
		snprintf(shown, sizeof(shown), "fd of %s (flags %#o), \"\"",
			 empty_targets[i].path,
			 (unsigned int)empty_targets[i].flags);
		ask_empty(w, refusal, target_fds[i], shown, types[i],
			  empty_targets[i].flags, kernel[i], t);
	}
	return 0;
}

static int run_empty_path(void)
{
	static const int refusals[] = { EPERM, ENOSYS };
	struct empty_tally *t = mmap(NULL, sizeof(*t), PROT_READ | PROT_WRITE,
				     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int failed = 0, err;

	if (t == MAP_FAILED)
		return 2;
	if (make_mounts() != 0 || (err = hide_proc()) != 0) {
		printf("SKIP: no mount namespace to hide /proc in: %s\n",
		       strerror(errno));
		return 77;
	}
	for (size_t r = 0; r < 2; r++) {
		for (size_t i = 0; i < WORLDS; i++) {
			*t = (struct empty_tally){ 0, 0, 0, 0 };
			for (size_t c = 0; c < EMPTY_CWDS; c++) {
				pid_t pid = fork();
				int status = -1;

				if (pid == 0)
					_exit(ask_empty_world(&worlds[i],
						refusals[r], empty_cwds[c],
						c == 0, t) == 0 ? 0 : 3);
				if (pid < 0 || waitpid(pid, &status, 0) != pid ||
				    status != 0) {
					printf("FAIL %s, cwd %s: the world could "
					       "not be made (%#x)\n",
					       worlds[i].name, empty_cwds[c],
					       status);
					t->differ++;
				}
			}
			printf("%s %s, faccessat2 refused %s, no /proc: %d "
			       "asked about \"\", %d differ from what "
			       "faccessat(3) says (%d answered as the kernel, "
			       "%d the refusal)\n", t->differ ? "FAIL" : "ok",
			       worlds[i].name, strerror(refusals[r]), t->asked,
			       t->differ, t->answered_without_proc, t->refused);
			failed += t->differ != 0;
		}
	}
	return failed ? 1 : 0;
}

/*
 * leases: the exec check of a file open at an fd (AT_EMPTY_PATH, X_OK,
 * no /proc) opens the file, which breaks a write lease; the library
 * takes it only where no lease can be held. Asked as root with
 * faccessat2 refused: of an O_PATH fd while another process holds a
 * write lease on the file, and of an O_RDWR fd that holds a write lease
 * itself. Both must be the refusal, with no lease-break signal sent and
 * each lease still held; with the second lease given up, the same
 * question must be answered (0, Linux 6.14 and later).
 */
static volatile sig_atomic_t lease_breaks;

static void on_lease_break(int sig)
{
	(void)sig;
	lease_breaks++;
}

/* A process holding a write lease on path until it reads from done;
 * then it exits 0 if it saw no lease break and holds the lease still. */
static pid_t hold_lease(const char *path, int ready[2], int done[2])
{
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char c;

	if (signal(SIGIO, on_lease_break) == SIG_ERR || fd < 0 ||
	    fcntl(fd, F_SETLEASE, F_WRLCK) != 0 || write(ready[1], "r", 1) != 1)
		_exit(2);
	while (read(done[0], &c, 1) < 0 && errno == EINTR)
		continue;
	_exit(lease_breaks == 0 && fcntl(fd, F_GETLEASE) == F_WRLCK ? 0 : 1);
}

static int ask_under_leases(const char *path)
{
	int ready[2], done[2], opath, own, status = -1, failed = 0, got;
	pid_t holder;
	char c;

	if (pipe(ready) != 0 || pipe(done) != 0)
		return 1;
	holder = hold_lease(path, ready, done);
	if (holder < 0 || read(ready[0], &c, 1) != 1 ||
	    refuse_call(SYS_faccessat2, EPERM) != 0 ||
	    signal(SIGIO, on_lease_break) == SIG_ERR)
		return 1;
	opath = open(path, O_PATH | O_CLOEXEC);
	got = answer_of(faccessat(opath, "", X_OK, AT_EMPTY_PATH));
	if (write(done[1], "d", 1) != 1 || waitpid(holder, &status, 0) != holder)
		return 1;
	printf("%s an O_PATH fd, another's write lease on the file: %s (want "
	       "EPERM, the refusal), the holder %s\n",
	       got == EPERM && status == 0 ? "ok" : "FAIL",
	       got ? strerror(got) : "0",
	       status == 0 ? "kept its lease, unbroken" : "saw it broken");
	failed += got != EPERM || status != 0;

	own = open(path, O_RDWR | O_CLOEXEC);
	if (own < 0 || fcntl(own, F_SETLEASE, F_WRLCK) != 0)
		return 1;
	got = answer_of(faccessat(own, "", X_OK, AT_EMPTY_PATH));
	bool kept = fcntl(own, F_GETLEASE) == F_WRLCK && lease_breaks == 0;
	printf("%s an O_RDWR fd holding a write lease: %s (want EPERM), its "
	       "lease %s\n", got == EPERM && kept ? "ok" : "FAIL",
	       got ? strerror(got) : "0", kept ? "kept, unbroken" : "broken");
	failed += got != EPERM || !kept;

	if (fcntl(own, F_SETLEASE, F_UNLCK) != 0)
		return 1;
	got = answer_of(faccessat(own, "", X_OK, AT_EMPTY_PATH));
	if (kernel_version() >= 614) {
		printf("%s the same fd, its lease given up: %s (want 0, by "
		       "AT_EXECVE_CHECK)\n", got == 0 ? "ok" : "FAIL",
		       got ? strerror(got) : "0");
		failed += got != 0;
	}
	return failed ? 1 : 0;
}

static int run_leases(void)
{
	char path[sizeof(top) + 8];
	int fd, status = -1;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/leased", top);
	fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0755);
	if (fd < 0 || close(fd) != 0)
		return 2;
	pid = fork();
	if (pid == 0) {
		int err = hide_proc();

		if (err != 0) {
			printf("SKIP: no mount namespace to hide /proc in: %s\n",
			       strerror(err));
			_exit(77);
		}
		_exit(ask_under_leases(path));
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 1;
	return WEXITSTATUS(status);
}

/*
 * glibc declares faccessat's path __nonnull: a NULL passed to that
 * declaration is undefined behaviour in this file (UBSan stops there),
 * though the case asks what the library answers a caller that does it.
 * Through a pointer, the call is an ordinary one.
 */
static int (*volatile library_faccessat)(int, const char *, int, int) =
	faccessat;

/*
 * A NULL path and one the process cannot read, in a world of w's IDs
 * with faccessat2 refused: the library must read no byte of either
 * before a system call has (the kernel's EFAULT, never a SIGSEGV).
 * Runs in a child; 0 when every answer is the kernel's.
 */
static int ask_bad_pointers(const struct ids *w, int refusal)
{
	char *unreadable = mmap(NULL, 4096, PROT_NONE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	const char *const pointers[] = { NULL, unreadable };
	int kernel[2][FLAG_SETS], failed = 0;

	if (unreadable == MAP_FAILED || setgroups(0, NULL) != 0 ||
	    setresgid(w->rgid, w->egid, 0) != 0 ||
	    setresuid(w->ruid, w->euid, 0) != 0)
		return -1;
	for (int p = 0; p < 2; p++)
		for (size_t f = 0; f < FLAG_SETS; f++)
			kernel[p][f] = answer_of(syscall(SYS_faccessat2,
				(long)AT_FDCWD, pointers[p], (long)X_OK,
				(long)flag_sets[f]));
	if (refuse_call(SYS_faccessat2, refusal) != 0)
		return -1;
	for (int p = 0; p < 2; p++) {
		for (size_t f = 0; f < FLAG_SETS; f++) {
			int got = answer_of(library_faccessat(AT_FDCWD,
				pointers[p], X_OK, flag_sets[f]));

			if (got != kernel[p][f]) {
				printf("  %s, refused %s: %s path, flags %#x: "
				       "the library answers %s, the kernel "
				       "%s\n", w->name, strerror(refusal),
				       p ? "unreadable" : "NULL", flag_sets[f],
				       strerror(got), strerror(kernel[p][f]));
				failed++;
			}
		}
	}
	printf("%s %s, faccessat2 refused %s: NULL and unreadable paths, "
	       "%d differ from the kernel\n", failed ? "FAIL" : "ok",
	       w->name, strerror(refusal), failed);
	return failed ? 1 : 0;
}

static int run_bad_pointers(void)
{
	static const int refusals[] = { EPERM, ENOSYS };
	int failed = 0;

	/* root asks the old call itself; the other world, its child. */
	for (size_t r = 0; r < 2; r++) {
		for (size_t i = 0; i < 2; i++) {
			pid_t pid = fork();
			int status = -1;

			if (pid == 0)
				_exit(ask_bad_pointers(&worlds[i],
						       refusals[r]) == 0 ? 0 : 1);
			if (pid < 0 || waitpid(pid, &status, 0) != pid ||
			    status != 0) {
				printf("FAIL %s, refused %s (%#x)\n",
				       worlds[i].name, strerror(refusals[r]),
				       status);
				failed++;
			}
		}
	}
	return failed ? 1 : 0;
}

/* One question asked by a thread of its own, whose path is on a held
 * page: the library's child is held there. */
struct held_question {
	const char *path;
	int flags;
	pid_t tid;
	int answer;
};

static void *ask_held_question(void *arg)
{
	struct held_question *q = arg;

	q->tid = (pid_t)syscall(SYS_gettid);
	q->answer = answer_of(faccessat(AT_FDCWD, q->path, X_OK, q->flags));
	return NULL;
}

/*
 * In a child: w's IDs, faccessat2 refused, the process dumpable; the
 * question X_OK of path asked by a thread, the first reader of the path
 * held on its page while this thread makes the process non-dumpable. 0
 * when the process was dumpable while the reader was held, is not
 * dumpable after, the reader was the library's child where must_be_child
 * says so (not the asking thread), and the answer is the kernel's; 77
 * where no held page can be made; else 1.
 */
static int hold_the_child(const struct ids *w, int refusal, int flags,
			  const char *path, bool must_be_child)
{
	struct held_page hp;
	struct held_question q = { NULL, flags, 0, -1 };
	pthread_t asker;
	pid_t reader = 0;
	int kernel, err, during, after;

	err = held_page_make(&hp);
	if (err != 0) {
		printf("SKIP: no userfaultfd page to hold the child on: %s\n",
		       strerror(err));
		return 77;
	}
	q.path = hp.page;
	if (setgroups(0, NULL) != 0 || setresgid(w->rgid, w->egid, 0) != 0 ||
	    setresuid(w->ruid, w->euid, 0) != 0)
		return 1;
	kernel = answer_of(syscall(SYS_faccessat2, (long)AT_FDCWD, path,
				   (long)X_OK, (long)flags));
	if (refuse_call(SYS_faccessat2, refusal) != 0 ||
	    prctl(PR_SET_DUMPABLE, 1L, 0L, 0L, 0L) != 0 ||
	    pthread_create(&asker, NULL, ask_held_question, &q) != 0)
		return 1;
	err = held_page_wait(&hp, 30000, &reader);
	during = (int)prctl(PR_GET_DUMPABLE, 0L, 0L, 0L, 0L);
	if (err == 0)
		prctl(PR_SET_DUMPABLE, 0L, 0L, 0L, 0L);
	/* Released whatever happened, so that the asker ends. */
	if (held_page_release(&hp, path, strlen(path) + 1) != 0 ||
	    pthread_join(asker, NULL) != 0)
		return 1;
	after = (int)prctl(PR_GET_DUMPABLE, 0L, 0L, 0L, 0L);
	bool ok = err == 0 && (!must_be_child || reader != q.tid) &&
		  during == 1 && after == 0 && q.answer == kernel;

	printf("%s %s, faccessat2 refused %s, flags %#x, %s: %s; dumpable "
	       "%d while it was held, %d after another thread set 0 (want 1 "
	       "and 0); answer %s, the kernel's %s\n", ok ? "ok" : "FAIL",
	       w->name, strerror(refusal), (unsigned int)flags, path,
	       err != 0 ? "nothing read the path" :
	       reader == q.tid ? "the asking thread read the path first" :
	       "the library's child was held", during, after,
	       q.answer ? strerror(q.answer) : "0",
	       kernel ? strerror(kernel) : "0");
	return ok ? 0 : 1;
}

static int run_dumpability(void)
{
	static const int refusals[] = { EPERM, ENOSYS };
	/* Real root, effective nobody: AT_EACCESS asks nobody, whom only a
	 * child with nobody's IDs can ask; AT_SYMLINK_NOFOLLOW asks root,
	 * looking up as root too, which nobody's lookups are not. */
	const struct ids *w = &worlds[2];
	static const struct {
		int flags;
		const char *name;
		bool must_be_child;
	} held[] = {
		{ AT_EACCESS, "f0700", true },
		{ AT_SYMLINK_NOFOLLOW, "rpriv/f", false },
	};
	char path[2][sizeof(top) + 16];
	int result = 0;

	for (size_t f = 0; f < 2; f++)
		snprintf(path[f], sizeof(path[f]), "%s/%s", top, held[f].name);
	for (size_t r = 0; r < 2; r++) {
		for (size_t f = 0; f < 2; f++) {
			pid_t pid = fork();
			int status = -1;

			if (pid == 0)
				_exit(hold_the_child(w, refusals[r],
						     held[f].flags, path[f],
						     held[f].must_be_child));
			if (pid < 0 || waitpid(pid, &status, 0) != pid ||
			    !WIFEXITED(status)) {
				printf("FAIL %s: the child died (%#x)\n",
				       w->name, status);
				result = 1;
			} else if (WEXITSTATUS(status) == 77 && result == 0) {
				result = 77;
			} else if (WEXITSTATUS(status) != 0 &&
				   WEXITSTATUS(status) != 77) {
				result = 1;
			}
		}
	}
	return result;
}

/* FS_IOC_SETFLAGS takes an int (the kernel reads 32 bits). */
static int set_immutable(const char *path, bool on)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), attr, rc;

	if (fd < 0)
		return -1;
	rc = ioctl(fd, FS_IOC_GETFLAGS, &attr);
	if (rc == 0) {
		attr = on ? attr | FS_IMMUTABLE_FL : attr & ~FS_IMMUTABLE_FL;
		rc = ioctl(fd, FS_IOC_SETFLAGS, &attr);
	}
	close(fd);
	return rc;
}

static int run_immutable(void)
{
	static const char *const dirs[] = { "/var/tmp", "/tmp" };
	char path[64];
	int failed = 0;

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		int fd;

		snprintf(path, sizeof(path), "%s/test-faccessat-imm.XXXXXX",
			 dirs[i]);
		fd = mkstemp(path);
		if (fd < 0)
			continue;
		close(fd);
		if (set_immutable(path, true) == 0)
			break;
		unlink(path);
		path[0] = '\0';
	}
	if (path[0] == '\0') {
		printf("SKIP: neither /var/tmp nor /tmp takes the immutable "
		       "flag (tmpfs has none)\n");
		return 77;
	}
	for (int refusal = 0; refusal < 2; refusal++) {
		int err = refusal ? ENOSYS : EPERM;
		pid_t pid = fork();
		int status = -1;

		if (pid == 0) {
			int kernel_w = answer_of(syscall(SYS_faccessat2,
				AT_FDCWD, path, (long)W_OK, 0L));
			int lib_w, lib_r;

			if (kernel_w != EPERM || refuse_call(SYS_faccessat2,
							     err) != 0)
				_exit(3);
			lib_w = answer_of(faccessat(AT_FDCWD, path, W_OK, 0));
			lib_r = answer_of(faccessat(AT_FDCWD, path, R_OK, 0));
			printf("%s faccessat2 refused %s: immutable file W_OK "
			       "%s (the kernel: EPERM), R_OK %s\n",
			       lib_w == EPERM && lib_r == 0 ? "ok" : "FAIL",
			       strerror(err), strerror(lib_w),
			       lib_r ? strerror(lib_r) : "0");
			_exit(lib_w == EPERM && lib_r == 0 ? 0 : 1);
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid || status != 0) {
			printf("FAIL refused %s (%#x)\n", strerror(err),
			       status);
			failed++;
		}
	}
	if (set_immutable(path, false) != 0 || unlink(path) != 0) {
		printf("FAIL: %s left behind\n", path);
		failed++;
	}
	return failed ? 1 : 0;
}

/*
 * A group run with the fixture made first and removed after; in a child
 * where it makes mounts, whose namespace goes with the child (the files
 * are removed here, outside it).
 */
static int with_fixture(int (*group)(void), bool in_child)
{
	int result = 2, status = -1;
	pid_t pid;

	if (make_fixture() != 0) {
		perror("fixture");
		return 2;
	}
	if (!in_child) {
		result = group();
	} else {
		pid = fork();
		if (pid == 0)
			_exit(group());
		if (pid > 0 && waitpid(pid, &status, 0) == pid &&
		    WIFEXITED(status))
			result = WEXITSTATUS(status);
	}
	if (remove_fixture() != 0 && result == 0)
		result = 1;
	return result;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc != 2) {
		fprintf(stderr, "usage: %s answers|immutable|bad-pointers|"
			"dumpability|empty-path|leases\n",
			argv[0]);
		return 2;
	}
	if (getuid() != 0) {
		printf("SKIP: needs root (files of two owners, other IDs, "
		       "mounts)\n");
		return 77;
	}
	if (strcmp(argv[1], "immutable") == 0)
		return run_immutable();
	if (strcmp(argv[1], "bad-pointers") == 0)
		return run_bad_pointers();
	if (strcmp(argv[1], "dumpability") == 0)
		return with_fixture(run_dumpability, false);
	if (strcmp(argv[1], "leases") == 0)
		return with_fixture(run_leases, false);
	if (strcmp(argv[1], "empty-path") == 0)
		return with_fixture(run_empty_path, true);
	if (strcmp(argv[1], "answers") != 0)
		return 2;
	tally = mmap(NULL, sizeof(*tally) * 2 * WORLDS,
		     PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (tally == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	return with_fixture(run_answers, true);
}
