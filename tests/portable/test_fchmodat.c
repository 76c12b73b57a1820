/*
 * fchmodat() and lchmod() through the public header only, in the worlds
 * they exist for: fchmodat2 allowed (where the kernel has it, Linux 6.6);
 * refused with ENOSYS or EPERM (a filter of this test's own, or the
 * refusal already there: kernels before 6.6, qemu-user); with /proc real,
 * hidden, a fake one whose self/fd/N all name a victim file, or another
 * process's fd directory bound over ours. Libc-neutral (no cmocka, no
 * libseccomp): musl and the qemu-user builds run it too.
 *
 *   test-fchmodat answers|glibc-beside
 *
 * answers: a table of calls, each with the errno or the file whose mode
 *   it must change, asserted of the raw fchmodat2 too where the kernel has
 *   it; every other file of the fixture, and the victim, must keep its
 *   mode. Rows marked so answer otherwise where no /proc can be proven:
 *   a file other than a directory gets EOPNOTSUPP there (fchmodat(3)),
 *   unless the process holds it open, when it changes through that fd.
 *   Some rows run as nobody.
 * glibc-beside: glibc's own fchmodat with AT_SYMLINK_NOFOLLOW in the same
 *   worlds: without /proc it fails, under the fake /proc it changes the
 *   victim; the library changes the file through a proven /proc, and
 *   without one answers EOPNOTSUPP, changing nothing.
 *
 * Needs root (the fixture has files of two owners; the worlds are made
 * with mount namespaces). Prints one line per case and "N passed, N
 * failed"; exits 1 if any failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef __GLIBC__
#include <dlfcn.h>
#endif

#include "execveat.h"
#include "kernel_env.h"
#include "proc_mounts.h"
#include "proc_world.h"
#include "verdicts.h"

#define MODE 0751 /* unlike every mode the fixture starts with */
#define NOBODY 65534
#define NOFOLLOW AT_SYMLINK_NOFOLLOW

/* The fixture's files whose modes are watched, with their first modes. */
static const struct watched {
	const char *path;
	mode_t mode;
	uid_t owner;
} watched[] = {
	{ "file", 0644, 0 },
	{ "dir", 0755, 0 },
	{ "dir/file2", 0644, 0 },
	{ "fifo", 0644, 0 },
	{ "rootfile", 0600, 0 },
	{ "private", 0700, 0 },
	{ "private/file", 0644, 0 },
	{ "ro/file", 0644, 0 },
	{ "nobodyfile", 0644, NOBODY },
	{ "nobody0200", 0200, NOBODY },
	{ "nobodydir", 0644, NOBODY },
	{ "large", 0644, 0 },
	{ "../victim", 0644, 0 },
};
#define WATCHED (sizeof(watched) / sizeof(watched[0]))

static char top[] = "/tmp/test-fchmodat.XXXXXX";
static char root_dir[sizeof(top) + 8];
static int fixture = -1;

/* CWD_*: AT_FDCWD, the working directory the fixture's dir, or its
 * nobodydir (entered as root: nobody may not search it). */
/* HOLDING_*: the fixture, while the process holds its file (for
 * reading) or its FIFO (for reading and writing) open; OPATH_HELD_FILE:
 * an O_PATH fd of the file, which the process also holds open to read. */
enum dirfd_kind { AT_FIXTURE, BAD_FD, OPATH_FILE, RDONLY_FILE, CWD_DIR,
		  CWD_NOBODYDIR, HOLDING_FILE, HOLDING_FIFO, OPATH_HELD_FILE };
#define SAME (-1) /* expect_without_proc: as expect */
/* expect_without_proc: EOPNOTSUPP, or as expect where /proc/thread-self
 * is proven (only the fd directory is another's). */
#define SAME_WITH_CWD_LINK (-3)

struct row {
	const char *name;
	const char *path;      /* NULL passed as it is; '@' = fixture path */
	enum dirfd_kind dirfd;
	int flags;
	bool as_nobody;
	bool lchmod;           /* lchmod(path) instead */
	int expect;            /* errno, or 0 */
	const char *changed;   /* the watched file given MODE, if any */
	int expect_without_proc;
};

static const struct row rows[] = {
	{ "file_changes", "file", AT_FIXTURE, NOFOLLOW, false, false, 0,
	  "file", EOPNOTSUPP },
	{ "lchmod_file_changes", "@file", AT_FIXTURE, 0, false, true, 0,
	  "file", EOPNOTSUPP },
	{ "symlink_is_eopnotsupp", "link", AT_FIXTURE, NOFOLLOW, false, false,
	  EOPNOTSUPP, NULL, SAME },
	{ "lchmod_symlink_is_eopnotsupp", "@link", AT_FIXTURE, 0, false, true,
	  EOPNOTSUPP, NULL, SAME },
	{ "directory_changes", "dir", AT_FIXTURE, NOFOLLOW, false, false, 0,
	  "dir", SAME },
	{ "nested_file_changes", "dir/file2", AT_FIXTURE, NOFOLLOW, false,
	  false, 0, "dir/file2", EOPNOTSUPP },
	{ "link_in_middle_is_followed", "dirlink/file2", AT_FIXTURE, NOFOLLOW,
	  false, false, 0, "dir/file2", EOPNOTSUPP },
	{ "absolute_path_ignores_dirfd", "@file", BAD_FD, NOFOLLOW, false,
	  false, 0, "file", EOPNOTSUPP },
	{ "missing_is_enoent", "missing", AT_FIXTURE, NOFOLLOW, false, false,
	  ENOENT, NULL, SAME },
	{ "file_slash_is_enotdir", "file/", AT_FIXTURE, NOFOLLOW, false, false,
	  ENOTDIR, NULL, SAME },
	{ "loop_in_middle_is_eloop", "loop/x", AT_FIXTURE, NOFOLLOW, false,
	  false, ELOOP, NULL, SAME },
	{ "loop_itself_is_eopnotsupp", "loop", AT_FIXTURE, NOFOLLOW, false,
	  false, EOPNOTSUPP, NULL, SAME },
	{ "bad_dirfd_is_ebadf", "file", BAD_FD, NOFOLLOW, false, false, EBADF,
	  NULL, SAME },
	{ "unknown_flag_is_einval", "file", AT_FIXTURE, NOFOLLOW | 0x1, false,
	  false, EINVAL, NULL, SAME },
	{ "null_path_is_efault", NULL, AT_FIXTURE, NOFOLLOW, false, false,
	  EFAULT, NULL, SAME },
	{ "empty_path_is_enoent", "", AT_FIXTURE, NOFOLLOW, false, false,
	  ENOENT, NULL, SAME },
	{ "no_flags_follows_link", "link", AT_FIXTURE, 0, false, false, 0,
	  "file", SAME },
	{ "empty_path_opath_fd_changes", "", OPATH_FILE,
	  AT_EMPTY_PATH | NOFOLLOW, false, false, 0, "file", EOPNOTSUPP },
	{ "empty_path_read_fd_changes", "", RDONLY_FILE, AT_EMPTY_PATH, false,
	  false, 0, "file", SAME },
	{ "fifo_changes", "fifo", AT_FIXTURE, NOFOLLOW, false, false, 0,
	  "fifo", EOPNOTSUPP },
	{ "empty_path_cwd_changes", "", CWD_DIR, AT_EMPTY_PATH | NOFOLLOW,
	  false, false, 0, "dir", SAME },
	/* The kernel changes the working directory with no lookup: its
	 * owner needs no search permission on it, which "." would. */
	{ "nobody_empty_path_unsearchable_cwd_changes", "", CWD_NOBODYDIR,
	  AT_EMPTY_PATH | NOFOLLOW, true, false, 0, "nobodydir",
	  SAME_WITH_CWD_LINK },
	{ "nobody_empty_path_unsearchable_cwd_following_changes", "",
	  CWD_NOBODYDIR, AT_EMPTY_PATH, true, false, 0, "nobodydir",
	  SAME_WITH_CWD_LINK },
	{ "read_only_mount_is_erofs", "ro/file", AT_FIXTURE, NOFOLLOW, false,
	  false, EROFS, NULL, SAME },
	{ "nobody_other_owner_is_eperm", "file", AT_FIXTURE, NOFOLLOW, true,
	  false, EPERM, NULL, EOPNOTSUPP },
	{ "nobody_unreadable_other_owner_is_eperm", "rootfile", AT_FIXTURE,
	  NOFOLLOW, true, false, EPERM, NULL, EOPNOTSUPP },
	{ "nobody_no_search_is_eacces", "private/file", AT_FIXTURE, NOFOLLOW,
	  true, false, EACCES, NULL, SAME },
	{ "nobody_own_file_changes", "nobodyfile", AT_FIXTURE, NOFOLLOW, true,
	  false, 0, "nobodyfile", EOPNOTSUPP },
	{ "nobody_own_unreadable_file_changes", "nobody0200", AT_FIXTURE,
	  NOFOLLOW, true, false, 0, "nobody0200", EOPNOTSUPP },
	/* Its owner may chmod a directory that it may not search: "."
	 * cannot be looked up in it, its name in its parent can. */
	{ "nobody_own_unsearchable_dir_changes", "nobodydir", AT_FIXTURE,
	  NOFOLLOW, true, false, 0, "nobodydir", SAME },
	/* 3 GiB, sparse: a 32-bit process's lookup without O_LARGEFILE
	 * would answer EOVERFLOW. */
	{ "file_over_2gib_changes", "large", AT_FIXTURE, NOFOLLOW, false,
	  false, 0, "large", EOPNOTSUPP },
	/* A file the process holds open (a FIFO too) changes through its
	 * fd in every world: nothing is opened. */
	{ "file_held_open_changes", "file", HOLDING_FILE, NOFOLLOW, false,
	  false, 0, "file", SAME },
	{ "lchmod_file_held_open_changes", "@file", HOLDING_FILE, 0, false,
	  true, 0, "file", SAME },
	{ "fifo_held_open_changes", "fifo", HOLDING_FIFO, NOFOLLOW, false,
	  false, 0, "fifo", SAME },
	{ "empty_path_opath_fd_of_a_held_file_changes", "", OPATH_HELD_FILE,
	  AT_EMPTY_PATH | NOFOLLOW, false, false, 0, "file", SAME },
	/* A path the kernel cannot read: EFAULT, never SIGSEGV. */
	{ "unreadable_path_is_efault", "#", AT_FIXTURE, NOFOLLOW, false, false,
	  EFAULT, NULL, SAME },
	{ "lchmod_unreadable_path_is_efault", "#", AT_FIXTURE, 0, false, true,
	  EFAULT, NULL, SAME },
	{ NULL, NULL, AT_FIXTURE, 0, false, false, 0, NULL, SAME },
};

struct world {
	const char *name;
	int refuse;            /* fchmodat2 fails with this; 0: as it is */
	enum proc_world proc;
};

static const struct world worlds[] = {
	{ "as it is", 0, PROC_REAL },
	{ "as it is, no /proc", 0, PROC_NONE },
	{ "ENOSYS", ENOSYS, PROC_REAL },
	{ "EPERM", EPERM, PROC_REAL },
	{ "ENOSYS, no /proc", ENOSYS, PROC_NONE },
	{ "EPERM, no /proc", EPERM, PROC_NONE },
	{ "EPERM, fake /proc naming the victim", EPERM, PROC_FAKE },
	{ "ENOSYS, another process's fd directory", ENOSYS, PROC_BORROWED },
};
#define WORLDS (sizeof(worlds) / sizeof(worlds[0]))

struct report {
	int made;
	int rc, err;
	mode_t modes[WATCHED];
};

static struct report *shared;
static int refusal_here; /* fchmodat2_refusal() */

/* ---- the fixture ---- */

static int make_file(const char *path, mode_t mode, uid_t owner)
{
	int fd = openat(fixture, path, O_CREAT | O_WRONLY, mode);

	if (fd < 0)
		return -1;
	close(fd);
	return fchownat(fixture, path, owner, owner, 0) == 0 &&
	       fchmodat(fixture, path, mode, 0) == 0 ? 0 : -1;
}

static int truncate_at(int dir, const char *name, off_t size)
{
	int fd = openat(dir, name, O_WRONLY | O_CLOEXEC);
	int rc = fd < 0 ? -1 : ftruncate(fd, size);

	if (fd >= 0)
		close(fd);
	return rc;
}

/* A page the process may not read, for the path "#". */
static const char *unreadable_page;

static int make_fixture(void)
{
	char path[sizeof(top) + 16];

	if (mkdtemp(top) == NULL)
		return -1;
	snprintf(root_dir, sizeof(root_dir), "%s/root", top);
	snprintf(path, sizeof(path), "%s/victim", top);
	if (mkdir(root_dir, 0755) != 0 || close(open(path, O_CREAT, 0644)) != 0 ||
	    (fixture = open(root_dir, O_RDONLY | O_DIRECTORY)) < 0)
		return -1;
	if (mkdirat(fixture, "dir", 0755) != 0 ||
	    mkdirat(fixture, "private", 0700) != 0 ||
	    mkdirat(fixture, "ro", 0755) != 0 ||
	    mkfifoat(fixture, "fifo", 0644) != 0 ||
	    symlinkat("file", fixture, "link") != 0 ||
	    symlinkat("dir", fixture, "dirlink") != 0 ||
	    symlinkat("loop", fixture, "loop") != 0)
		return -1;
	for (size_t i = 0; i < WATCHED; i++)
		if (strncmp(watched[i].path, "../", 3) != 0 &&
		    strcmp(watched[i].path, "dir") != 0 &&
		    strcmp(watched[i].path, "private") != 0 &&
		    strcmp(watched[i].path, "fifo") != 0 &&
		    strcmp(watched[i].path, "nobodydir") != 0 &&
		    make_file(watched[i].path, watched[i].mode,
			      watched[i].owner) != 0)
			return -1;
	if (mkdirat(fixture, "nobodydir", 0644) != 0 ||
	    fchownat(fixture, "nobodydir", NOBODY, NOBODY, 0) != 0 ||
	    truncate_at(fixture, "large", (off_t)3 << 30) != 0)
		return -1;
	return 0;
}

/* Every watched file back to its first mode: 0, or -1 (said why). */
static int reset_modes(void)
{
	for (size_t i = 0; i < WATCHED; i++)
		if (fchmodat(fixture, watched[i].path, watched[i].mode, 0) != 0) {
			printf("reset %s: %s\n", watched[i].path,
			       strerror(errno));
			return -1;
		}
	return 0;
}

static void read_modes(mode_t modes[WATCHED])
{
	struct stat st;

	for (size_t i = 0; i < WATCHED; i++)
		modes[i] = fstatat(fixture, watched[i].path, &st,
				   AT_SYMLINK_NOFOLLOW) == 0 ?
			   st.st_mode & 07777 : (mode_t)-1;
}

/* ---- the worlds, in a child ---- */

static void stop_owner(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

/* Every fd the call could open names the victim. */
static int make_world(enum proc_world proc, pid_t owner)
{
	char victim[sizeof(top) + 8];

	snprintf(victim, sizeof(victim), "%s/victim", top);
	return make_proc_world(proc, 3, victim, owner);
}

/* ro/ read-only, in this child's mount namespace only. */
static int make_read_only_dir(void)
{
	char ro[sizeof(root_dir) + 4];

	snprintf(ro, sizeof(ro), "%s/ro", root_dir);
	if (mount(ro, ro, NULL, MS_BIND, NULL) != 0 ||
	    mount(NULL, ro, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY, NULL) != 0)
		return errno;
	return 0;
}

static int become_nobody(void)
{
	/* Dumpable again after the change of IDs, so that /proc/self/fd is
	 * the process's own to open, as for any program run as nobody. */
	if (setgid(NOBODY) != 0 || setuid(NOBODY) != 0 ||
	    prctl(PR_SET_DUMPABLE, 1L, 0L, 0L, 0L) != 0)
		return errno;
	return 0;
}

static int row_dirfd(const struct row *r)
{
	switch (r->dirfd) {
	case AT_FIXTURE: return fixture;
	case BAD_FD: return 999;
	case OPATH_FILE: return openat(fixture, "file", O_PATH);
	case RDONLY_FILE: return openat(fixture, "file", O_RDONLY);
	case CWD_DIR:
	case CWD_NOBODYDIR: return AT_FDCWD;
	case HOLDING_FILE:
		return openat(fixture, "file", O_RDONLY) < 0 ? -1 : fixture;
	case HOLDING_FIFO:
		return openat(fixture, "fifo", O_RDWR) < 0 ? -1 : fixture;
	case OPATH_HELD_FILE:
		return openat(fixture, "file", O_RDONLY) < 0 ? -1 :
		       openat(fixture, "file", O_PATH);
	}
	return -1;
}

/* The row's working directory, entered before any change of IDs: 0, or
 * -1. */
static int enter_cwd(const struct row *r)
{
	if (r->dirfd == CWD_DIR)
		return fchdir(fixture) == 0 ? chdir("dir") : -1;
	if (r->dirfd == CWD_NOBODYDIR)
		return fchdir(fixture) == 0 ? chdir("nobodydir") : -1;
	return 0;
}

typedef int (*chmod_fn)(const struct row *r, int dirfd, const char *path);

/*
 * glibc declares fchmodat's path __nonnull: a NULL passed to that
 * declaration is undefined behaviour in this file (UBSan stops there),
 * though the row asks what the library answers a caller that does it.
 * Through a pointer, the call is an ordinary one.
 */
static int (*volatile library_fchmodat)(int, const char *, mode_t, int) =
	fchmodat;

static int call_library(const struct row *r, int dirfd, const char *path)
{
	if (r->lchmod)
		return lchmod(path, MODE);
	return library_fchmodat(dirfd, path, MODE, r->flags);
}

static int call_raw(const struct row *r, int dirfd, const char *path)
{
	return (int)raw_fchmodat2(dirfd, path, MODE,
				  r->lchmod ? NOFOLLOW : r->flags);
}

static int run_row(const struct row *r, const struct world *w, chmod_fn call)
{
	char path[sizeof(root_dir) + 64];
	const char *p = r->path;
	int status;
	pid_t pid, owner;
	bool died;

	if (p != NULL && p[0] == '@') {
		snprintf(path, sizeof(path), "%s/%s", root_dir, p + 1);
		p = path;
	} else if (p != NULL && p[0] == '#') {
		p = unreadable_page;
	}
	memset(shared, 0, sizeof(*shared));
	if (reset_modes() != 0)
		return -1;
	owner = w->proc == PROC_BORROWED ? start_waiting_child() : -1;
	pid = fork();
	if (pid == 0) {
		int dirfd;

		/* The fixture reopened in this namespace: an fd from before
		 * the unshare would walk the old namespace's mounts. */
		if (make_world(w->proc, owner) == 0 && make_read_only_dir() == 0 &&
		    (fixture = open(root_dir, O_RDONLY | O_DIRECTORY)) >= 0 &&
		    enter_cwd(r) == 0 &&
		    (!r->as_nobody || become_nobody() == 0) &&
		    (w->refuse == 0 || block_fchmodat2(w->refuse) == 0)) {
			shared->made = 1;
			dirfd = row_dirfd(r);
			alarm(20);
			shared->rc = call(r, dirfd, p);
			shared->err = errno;
		}
		_exit(0);
	}
	/* Anything but _exit(0) (a sanitizer's report, a crash) is a child
	 * that died. */
	died = pid < 0 || waitpid(pid, &status, 0) != pid ||
	       !WIFEXITED(status) || WEXITSTATUS(status) != 0;
	stop_owner(owner);
	if (died)
		return -1;
	read_modes(shared->modes);
	return 0;
}

static int not_here;


/* The last run's answer and modes against expect and changed. */
static bool judge(int expect, const char *changed, char *detail, size_t size)
{
	if (expect == 0 ? shared->rc != 0 :
	    (shared->rc != -1 || shared->err != expect)) {
		snprintf(detail, size, "returned %d (%s), expected %s",
			 shared->rc, shared->rc ? strerror(shared->err) : "-",
			 expect ? strerror(expect) : "0");
		return false;
	}
	for (size_t i = 0; i < WATCHED; i++) {
		bool target = changed && strcmp(changed, watched[i].path) == 0;
		mode_t want = target ? MODE : watched[i].mode;

		if (shared->modes[i] != want) {
			snprintf(detail, size, "%s has mode %04o, expected %04o",
				 watched[i].path, (unsigned)shared->modes[i],
				 (unsigned)want);
			return false;
		}
	}
	return true;
}

/* Where the fallback runs without a proven /proc, some rows answer
 * otherwise (see the top of this file). */
static bool without_proven_proc(const struct world *w)
{
	return (w->refuse != 0 || refusal_here != 0) && w->proc != PROC_REAL;
}

static int run_answers(void)
{
	char detail[256];

	for (const struct row *r = rows; r->name != NULL; r++) {
		int without_proc = r->expect_without_proc;

		if (refusal_here == 0) {
			if (run_row(r, &worlds[0], call_raw) != 0)
				verdict(false, r->name, "raw", "the child died");
			else if (!shared->made)
				not_here++;
			else
				verdict(judge(r->expect, r->changed, detail,
					      sizeof(detail)),
					r->name, "raw fchmodat2", detail);
		}
		for (size_t i = 0; i < WORLDS; i++) {
			const struct world *w = &worlds[i];
			int here = without_proc;

			if (here == SAME_WITH_CWD_LINK)
				here = w->proc == PROC_BORROWED ? SAME :
								  EOPNOTSUPP;
			bool other = without_proven_proc(w) && here != SAME;
			int expect = other ? here : r->expect;

			if (run_row(r, w, call_library) != 0) {
				verdict(false, r->name, w->name, "the child died");
				continue;
			}
			if (!shared->made) {
				not_here++;
				continue;
			}
			verdict(judge(expect, other ? NULL : r->changed, detail,
				      sizeof(detail)), r->name, w->name, detail);
		}
	}
	if (not_here != 0)
		printf("not here: %d row-world pairs (no seccomp filter can be "
		       "loaded here, or no mount namespace)\n", not_here);
	return 0;
}

#ifdef __GLIBC__
static int (*glibc_fchmodat)(int, const char *, mode_t, int);

static int call_glibc(const struct row *r, int dirfd, const char *path)
{
	return glibc_fchmodat(dirfd, path, MODE, r->flags);
}

static int run_glibc_beside(void)
{
	static const struct {
		const struct world *world;
		int glibc_errno;           /* 0: glibc returns 0 */
		const char *glibc_changed; /* what glibc changes */
		int library_errno;         /* the same for the library */
		const char *library_changed;
	} gw[] = {
		/* no /proc */
		{ &worlds[4], EOPNOTSUPP, NULL, EOPNOTSUPP, NULL },
		/* fake /proc */
		{ &worlds[6], 0, "../victim", EOPNOTSUPP, NULL },
		/* real /proc */
		{ &worlds[2], 0, "file", 0, "file" },
	};
	const struct row *r = &rows[0]; /* "file", AT_SYMLINK_NOFOLLOW */
	void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
	char detail[256];

	glibc_fchmodat = libc ? (int (*)(int, const char *, mode_t, int))
				dlsym(libc, "fchmodat") : NULL;
	if (glibc_fchmodat == NULL) {
		printf("SKIP: glibc's fchmodat not found\n");
		return 77;
	}
	for (size_t i = 0; i < sizeof(gw) / sizeof(gw[0]); i++) {
		const struct world *w = gw[i].world;
		const char *name = gw[i].glibc_errno ? "glibc_fails" :
				   strcmp(gw[i].glibc_changed, "file") ?
				   "glibc_changes_the_victim" :
				   "glibc_changes_the_file";

		if (run_row(r, w, call_glibc) != 0 || !shared->made) {
			not_here++;
			continue;
		}
		verdict(judge(gw[i].glibc_errno, gw[i].glibc_changed, detail,
			      sizeof(detail)), name, w->name, detail);
		run_row(r, w, call_library);
		verdict(judge(gw[i].library_errno, gw[i].library_changed,
			      detail, sizeof(detail)),
			gw[i].library_errno ? "library_changes_nothing" :
					      "library_changes_the_file",
			w->name, detail);
	}
	if (not_here != 0)
		printf("not here: %d worlds\n", not_here);
	return 0;
}
#else
static int run_glibc_beside(void)
{
	printf("SKIP: glibc's fchmodat is compared only where the C library "
	       "is glibc\n");
	return 77;
}
#endif

int main(int argc, char **argv)
{
	char cmd[sizeof(top) + 16];
	int result;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc != 2) {
		fprintf(stderr, "usage: %s answers|glibc-beside\n", argv[0]);
		return 2;
	}
	if (getuid() != 0) {
		printf("SKIP: needs root (files of two owners, mount "
		       "namespaces)\n");
		return 77;
	}
	unreadable_page = mmap(NULL, 4096, PROT_NONE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (unreadable_page == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED || make_fixture() != 0) {
		perror("fixture");
		return 2;
	}
	refusal_here = fchmodat2_refusal();
	if (refusal_here != 0)
		printf("fchmodat2 fails with %s here: every answer is the "
		       "fallback's\n", strerror(refusal_here));
	if (strcmp(argv[1], "answers") == 0)
		result = run_answers();
	else if (strcmp(argv[1], "glibc-beside") == 0)
		result = run_glibc_beside();
	else
		result = 2;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", top);
	if (system(cmd) != 0 && result == 0)
		result = 1;
	if (result != 0)
		return result;
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0 || passed == 0;
}
