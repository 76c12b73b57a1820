/*
 * openat2() through the public header only, in the worlds it exists for:
 * the kernel's call allowed, refused with ENOSYS, refused with EPERM (a
 * seccomp filter of this test's own, or the refusal already there, as
 * under qemu-user). Libc-neutral: no cmocka, no libseccomp, so musl and
 * the qemu-user builds run it too.
 *
 *   test-openat2 checks|answers|own-eperm|stale-belief
 *
 * checks: the argument-check table, rows that fail before any lookup;
 *   each row's errno is asserted of the raw system call on this kernel
 *   too, so a kernel that changes its answers is noticed here rather than
 *   taken for the library's fault.
 * answers: paths that the fallback's walk must answer as the kernel does
 *   (a file inside, an escape, a refused link, a creation, arguments that
 *   pass the checks).
 * own-eperm: an EPERM that is the file's own (O_NOATIME on another user's
 *   file) is returned as it is: no fallback.
 * stale-belief: a belief that openat2 is refused, learned by a thread or
 *   a vfork child under a filter, never changes another thread's answer.
 * regular-opens-nothing: Linux 7.2's OPENAT2_REGULAR refuses a FIFO and a
 *   directory with EFTYPE, the library's fallback too, and neither opens
 *   them on the way (no inotify open event); a kernel before 7.2 and the
 *   library there refuse the flag (EINVAL), opening nothing either. The
 *   kernel matrix boots 7.2.
 *
 * Every library call in a refused world runs in a forked child, which
 * also checks that the call leaves no fd open but the one it returns.
 * Prints one line per case; exits 1 if any failed, 77 (skipped) with the
 * reason where a group needs what this machine cannot give.
 *
 * _GNU_SOURCE for O_PATH, O_TMPFILE and O_NOATIME. glibc 2.43 then
 * declares openat2 __nonnull ((2, 3)) too; the NULL rows pass their NULL
 * through a table, which the compiler cannot see through.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "execveat.h"
#include "child_errno.h"
#include "kernel_env.h"
#include "openat2_again.h"

#define OPENED 0            /* a row's expectation: an fd, not an errno */
#define CHILD_SETUP_FAILED 255
#define CHILD_LEAKED_FD 254
#define CHILD_WRONG_FILE 253
#define CHILD_CRASHED 252
/* The kernel's openat2 (the library's in the world that allows it) kept
 * answering a scoped ".." EAGAIN while renames went on elsewhere on the
 * machine: no answer (openat2_again.h). */
#define KERNEL_UNANSWERED 251

static int world_dirfd = -1; /* the fixture directory */
static char world_path[4096]; /* its name */
static int refusal;         /* openat2_refusal(): 0, ENOSYS (qemu-user) */

struct row {
	const char *name;
	const char *path;   /* NULL is passed as it is */
	uint64_t flags, mode, resolve;
	size_t size;        /* bytes of how passed, or ABOVE_PAGE */
	size_t tail_byte;   /* a non-zero byte here, past the struct */
	bool null_how;
	int expect;         /* errno, or OPENED */
	const char *same_as; /* for OPENED: the file openat gives by this name */
};

/* Room for a struct with a page-sized tail, and a byte past it. */
static union {
	struct open_how how;
	unsigned char bytes[65536 + 64];
} how_buffer;

static const void *make_how(const struct row *r)
{
	memset(&how_buffer, 0, sizeof(how_buffer));
	how_buffer.how.flags = r->flags;
	how_buffer.how.mode = r->mode;
	how_buffer.how.resolve = r->resolve;
	if (r->tail_byte != 0)
		how_buffer.bytes[r->tail_byte] = 1;
	return r->null_how ? NULL : &how_buffer;
}

#define V0 24                   /* OPEN_HOW_SIZE_VER0 */
#define ABOVE_PAGE ((size_t)-1) /* the page size, plus one */

static size_t row_size(const struct row *r)
{
	return r->size == ABOVE_PAGE ? (size_t)sysconf(_SC_PAGESIZE) + 1
				     : r->size;
}

static const struct row check_rows[] = {
	{ "size_0_is_einval", "file", 0, 0, 0, 0, 0, false, EINVAL, NULL },
	{ "size_23_is_einval", "file", 0, 0, 0, 23, 0, false, EINVAL, NULL },
	{ "size_23_before_bad_flags_is_einval", "file", 1ULL << 40, 0, 0, 23, 0,
	  false, EINVAL, NULL },
	{ "size_above_page_is_e2big", "file", 0, 0, 0, ABOVE_PAGE, 0, false,
	  E2BIG, NULL },
	{ "size_above_page_before_bad_flags_is_e2big", "file", 1ULL << 40, 0,
	  0, ABOVE_PAGE, 0, false, E2BIG, NULL },
	{ "nonzero_tail_is_e2big", "file", 0, 0, 0, 32, 31, false, E2BIG,
	  NULL },
	{ "null_how_is_efault", "file", 0, 0, 0, V0, 0, true, EFAULT, NULL },
	{ "null_how_size_0_is_einval", "file", 0, 0, 0, 0, 0, true, EINVAL,
	  NULL },
	{ "null_path_is_efault", NULL, 0, 0, 0, V0, 0, false, EFAULT, NULL },
	{ "null_path_bad_flags_is_einval", NULL, 1ULL << 40, 0, 0, V0, 0,
	  false, EINVAL, NULL },
	{ "flag_bit_32_is_einval", "file", 1ULL << 32, 0, 0, V0, 0, false,
	  EINVAL, "file" },
	{ "flag_bit_40_is_einval", "file", 1ULL << 40, 0, 0, V0, 0, false,
	  EINVAL, NULL },
	{ "flag_bit_33_is_einval", "file", 1ULL << 33, 0, 0, V0, 0, false,
	  EINVAL, NULL },
	{ "flag_bit_26_is_einval", "file", 1ULL << 26, 0, 0, V0, 0, false,
	  EINVAL, "file" },
	{ "empty_path_with_bit_26_is_einval", "", 1ULL << 26, 0, 0, V0, 0,
	  false, EINVAL, "." },
	/* Refused on Linux 7.2 too: a regular file and no directory. */
	{ "bit_32_with_path_is_einval", "file", OPENAT2_REGULAR | O_PATH, 0, 0,
	  V0, 0, false, EINVAL, NULL },
	{ "bit_32_with_directory_is_einval", "sub",
	  OPENAT2_REGULAR | O_DIRECTORY, 0, 0, V0, 0, false, EINVAL, NULL },
	{ "bit_32_with_tmpfile_is_einval", ".",
	  OPENAT2_REGULAR | O_TMPFILE | O_WRONLY, 0600, 0, V0, 0, false,
	  EINVAL, NULL },
	{ "resolve_bit_6_is_einval", "file", 0, 0, 0x40, V0, 0, false, EINVAL,
	  NULL },
	{ "mode_without_creat_is_einval", "file", O_RDONLY, 0644, 0, V0, 0,
	  false, EINVAL, NULL },
	{ "mode_above_07777_is_einval", "new", O_CREAT | O_WRONLY, 010000, 0,
	  V0, 0, false, EINVAL, NULL },
	{ "beneath_with_in_root_is_einval", "file", 0, 0,
	  RESOLVE_BENEATH | RESOLVE_IN_ROOT, V0, 0, false, EINVAL, NULL },
	{ "creat_with_directory_is_einval", "new", O_CREAT | O_DIRECTORY,
	  0600, 0, V0, 0, false, EINVAL, NULL },
	{ "tmpfile_read_only_is_einval", ".", O_TMPFILE | O_RDONLY, 0600, 0,
	  V0, 0, false, EINVAL, NULL },
	{ "tmpfile_with_creat_is_einval", ".", O_TMPFILE | O_CREAT | O_WRONLY,
	  0600, 0, V0, 0, false, EINVAL, NULL },
	{ "path_with_rdwr_is_einval", "file", O_PATH | O_RDWR, 0, 0, V0, 0,
	  false, EINVAL, NULL },
	{ "path_with_nonblock_is_einval", "file", O_PATH | O_NONBLOCK, 0, 0, V0,
	  0, false, EINVAL, NULL },
	{ "cached_with_creat_is_eagain", "new", O_CREAT | O_WRONLY, 0600,
	  RESOLVE_CACHED, V0, 0, false, EAGAIN, NULL },
	{ "cached_with_trunc_is_eagain", "file", O_TRUNC | O_WRONLY, 0,
	  RESOLVE_CACHED, V0, 0, false, EAGAIN, NULL },
	{ "cached_with_tmpfile_is_eagain", ".", O_TMPFILE | O_WRONLY, 0600,
	  RESOLVE_CACHED, V0, 0, false, EAGAIN, NULL },
	{ "bad_dirfd_is_ebadf_after_checks", "file", O_RDONLY, 0644, 0, V0, 0,
	  false, EINVAL, NULL },
	{ NULL, NULL, 0, 0, 0, 0, 0, false, 0, NULL },
};

static const struct row answer_rows[] = {
	{ "zero_tail_opens", "file", O_RDONLY, 0, 0, 32, 0, false, OPENED,
	  "file" },
	{ "path_with_cloexec_opens", "file", O_PATH | O_CLOEXEC, 0, 0, V0, 0,
	  false, OPENED, "file" },
	{ "beneath_file_inside_opens", "sub/file", O_RDONLY, 0,
	  RESOLVE_BENEATH, V0, 0, false, OPENED, "sub/file" },
	{ "beneath_dotdot_inside_opens", "sub/../file", O_RDONLY, 0,
	  RESOLVE_BENEATH, V0, 0, false, OPENED, "file" },
	{ "beneath_dotdot_escape_is_exdev", "../outside", O_RDONLY, 0,
	  RESOLVE_BENEATH, V0, 0, false, EXDEV, NULL },
	{ "beneath_absolute_is_exdev", "/", O_RDONLY, 0, RESOLVE_BENEATH, V0, 0,
	  false, EXDEV, NULL },
	{ "beneath_absolute_link_is_exdev", "abslink", O_RDONLY, 0,
	  RESOLVE_BENEATH, V0, 0, false, EXDEV, NULL },
	{ "in_root_absolute_stays_inside", "/sub/file", O_RDONLY, 0,
	  RESOLVE_IN_ROOT, V0, 0, false, OPENED, "sub/file" },
	{ "in_root_dotdot_at_root_stays", "../../file", O_RDONLY, 0,
	  RESOLVE_IN_ROOT, V0, 0, false, OPENED, "file" },
	{ "no_symlinks_link_is_eloop", "link", O_RDONLY, 0,
	  RESOLVE_NO_SYMLINKS, V0, 0, false, ELOOP, NULL },
	{ "link_followed_opens", "link", O_RDONLY, 0, RESOLVE_BENEATH, V0, 0,
	  false, OPENED, "file" },
	{ "missing_is_enoent", "missing", O_RDONLY, 0, RESOLVE_BENEATH, V0, 0,
	  false, ENOENT, NULL },
	{ "file_slash_is_enotdir", "file/", O_RDONLY, 0, RESOLVE_BENEATH, V0,
	  0, false, ENOTDIR, NULL },
	{ "directory_opens", "sub", O_RDONLY | O_DIRECTORY, 0, RESOLVE_BENEATH,
	  V0, 0, false, OPENED, "sub" },
	{ "creat_beneath_makes_file_inside", "sub/created",
	  O_CREAT | O_EXCL | O_WRONLY, 0600, RESOLVE_BENEATH, V0, 0, false,
	  OPENED, "sub/created" },
	{ "bad_dirfd_is_ebadf", "file", O_RDONLY, 0, 0, V0, 0, false, EBADF,
	  NULL },
	/* Linux 7.2's flags, EINVAL before (other_kernels). */
	{ "regular_directory_is_einval", "sub", OPENAT2_REGULAR, 0,
	  RESOLVE_BENEATH, V0, 0, false, EINVAL, NULL },
	{ "regular_link_to_file_is_einval", "link", OPENAT2_REGULAR, 0,
	  RESOLVE_BENEATH, V0, 0, false, EINVAL, "file" },
	{ "regular_link_not_followed_is_einval", "link",
	  OPENAT2_REGULAR | O_NOFOLLOW, 0, RESOLVE_BENEATH, V0, 0, false,
	  EINVAL, NULL },
	{ "regular_file_slash_is_einval", "file/", OPENAT2_REGULAR, 0,
	  RESOLVE_BENEATH, V0, 0, false, EINVAL, NULL },
	{ "regular_creat_of_directory_is_einval", "sub",
	  OPENAT2_REGULAR | O_CREAT | O_WRONLY, 0600, RESOLVE_BENEATH, V0, 0,
	  false, EINVAL, NULL },
	{ "regular_creat_new_is_einval", "sub/made",
	  OPENAT2_REGULAR | O_CREAT | O_WRONLY, 0600, RESOLVE_IN_ROOT, V0, 0,
	  false, EINVAL, "sub/made" },
	{ "regular_empty_path_directory_is_einval", "",
	  OPENAT2_REGULAR | O_EMPTYPATH, 0, RESOLVE_BENEATH, V0, 0, false,
	  EINVAL, NULL },
	{ "empty_path_opens_dirfd_is_einval", "", O_EMPTYPATH, 0,
	  RESOLVE_IN_ROOT, V0, 0, false, EINVAL, "." },
	{ "empty_path_bad_dirfd_is_einval", "", O_EMPTYPATH, 0, 0, V0, 0,
	  false, EINVAL, NULL },
	{ NULL, NULL, 0, 0, 0, 0, 0, false, 0, NULL },
};

/* fds open in this process, counted without /proc. */
static int open_fd_count(void)
{
	int count = 0;

	for (int fd = 0; fd < 1024; fd++)
		if (fcntl(fd, F_GETFD) != -1)
			count++;
	return count;
}

static bool same_file(int fd, const char *same_as)
{
	struct stat got, want;

	return fstat(fd, &got) == 0 &&
	       fstatat(world_dirfd, same_as, &want, AT_SYMLINK_NOFOLLOW) == 0 &&
	       got.st_dev == want.st_dev && got.st_ino == want.st_ino;
}

static int row_dirfd(const struct row *r)
{
	return strstr(r->name, "bad_dirfd") != NULL ? 999 : world_dirfd;
}

/* The library's answer to r, as a status: an errno, OPENED, one of the
 * CHILD_ codes, or KERNEL_UNANSWERED where openat2 is the kernel's (not
 * refused). A scoped ".." that a rename raced is asked again
 * (openat2_again.h). */
static int library_answer(const struct row *r, bool openat2_is_kernels)
{
	int before = open_fd_count();
	struct openat2_again again;
	int fd, answer;

	openat2_again_start(&again);
	do
		fd = openat2(row_dirfd(r), r->path, make_how(r), row_size(r));
	while (fd < 0 && openat2_ask_again(&again, r->resolve, errno));
	answer = fd >= 0 ? OPENED : errno;
	if (openat2_is_kernels &&
	    openat2_kernel_unanswered(&again, r->resolve, answer))
		answer = KERNEL_UNANSWERED;

	if (fd >= 0) {
		if (r->same_as != NULL && !same_file(fd, r->same_as))
			answer = CHILD_WRONG_FILE;
		close(fd);
	}
	if (open_fd_count() != before)
		answer = CHILD_LEAKED_FD;
	return answer;
}

static int raw_answer(const struct row *r)
{
	bool unanswered;
	long fd = kernel_openat2(row_dirfd(r), r->path, make_how(r),
				 row_size(r), &unanswered);

	if (fd < 0)
		return unanswered ? KERNEL_UNANSWERED : errno;
	close((int)fd);
	return OPENED;
}

/* Forks; the child makes openat2 fail with refused_with (0: as it is) and
 * reports the library's answer as its exit status. */
static int answer_in_world(const struct row *r, int refused_with)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (refused_with != 0 && block_openat2(refused_with) != 0)
			_exit(CHILD_SETUP_FAILED);
		_exit(library_answer(r, refused_with == 0 && refusal == 0));
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return CHILD_SETUP_FAILED;
	return WIFEXITED(status) ? WEXITSTATUS(status) : CHILD_CRASHED;
}

static const char *answer_name(int answer)
{
	switch (answer) {
	case OPENED: return "an fd";
	case CHILD_SETUP_FAILED: return "(the world could not be made)";
	case CHILD_LEAKED_FD: return "an fd leaked";
	case CHILD_WRONG_FILE: return "an fd to the wrong file";
	case CHILD_CRASHED: return "a crash";
	case EFTYPE: return "EFTYPE"; /* newer than the C library */
	default: return strerror(answer);
	}
}

/* Removes what a creating row made, so that each world starts alike. */
static void reset_fixture(const struct row *r)
{
	if (r->flags & O_CREAT)
		unlinkat(world_dirfd, r->path, 0);
}

/*
 * Where other kernels answer a row otherwise than the table, which is
 * Linux 6.18's and the fallback's (openat2(3), NOTES): each seen on a
 * Debian kernel booted by tests/kernels/run-matrix. Versions are
 * major * 100 + minor, the row's answer holding in [since, until).
 * library_too: the fallback answers as that kernel does (Linux 7.2's
 * flags, which it takes where the kernel has them); otherwise it keeps
 * 6.18's answer there.
 */
struct kernel_answer {
	const char *row;
	int since, until;
	int answer;
	bool library_too;
};

#define SINCE_7_2 702, 100000

static const struct kernel_answer other_kernels[] = {
	/* 5.10 takes a struct above a page whose tail is zero; 6.1 does not. */
	{ "size_above_page_is_e2big", 0, 601, OPENED, false },
	{ "size_above_page_before_bad_flags_is_e2big", 0, 601, EINVAL, false },
	/* O_CREAT | O_DIRECTORY: ENOTDIR on 5.10, EINVAL on 6.1. */
	{ "creat_with_directory_is_einval", 0, 601, ENOTDIR, false },
	/* 5.10 and 6.1 let an internal flag through (FMODE_NONOTIFY's
	 * bit), and then refuse the empty name; 6.12 refuses the bit. The
	 * kernels between were not booted. */
	{ "flag_bit_26_is_einval", 0, 602, OPENED, false },
	{ "empty_path_with_bit_26_is_einval", 0, 602, ENOENT, false },
	{ "empty_path_opens_dirfd_is_einval", 0, 602, ENOENT, false },
	{ "empty_path_bad_dirfd_is_einval", 0, 602, ENOENT, false },
	/* Linux 7.2: O_EMPTYPATH (bit 26) and OPENAT2_REGULAR (bit 32). */
	{ "flag_bit_26_is_einval", SINCE_7_2, OPENED, true },
	{ "empty_path_with_bit_26_is_einval", SINCE_7_2, OPENED, true },
	{ "flag_bit_32_is_einval", SINCE_7_2, OPENED, true },
	{ "regular_directory_is_einval", SINCE_7_2, EFTYPE, true },
	{ "regular_link_to_file_is_einval", SINCE_7_2, OPENED, true },
	{ "regular_link_not_followed_is_einval", SINCE_7_2, EFTYPE, true },
	{ "regular_file_slash_is_einval", SINCE_7_2, ENOTDIR, true },
	{ "regular_creat_of_directory_is_einval", SINCE_7_2, EISDIR, true },
	{ "regular_creat_new_is_einval", SINCE_7_2, OPENED, true },
	{ "regular_empty_path_directory_is_einval", SINCE_7_2, EFTYPE, true },
	{ "empty_path_opens_dirfd_is_einval", SINCE_7_2, OPENED, true },
	{ "empty_path_bad_dirfd_is_einval", SINCE_7_2, EBADF, true },
};

static bool other_kernel_answer(const struct row *r, int answer,
				bool kernel)
{
	int version = kernel_version();

	for (size_t i = 0; i < sizeof(other_kernels) / sizeof(other_kernels[0]); i++) {
		const struct kernel_answer *k = &other_kernels[i];

		if (strcmp(k->row, r->name) == 0 && version >= k->since &&
		    version < k->until && answer == k->answer &&
		    (kernel || k->library_too))
			return true;
	}
	return false;
}

/*
 * RESOLVE_CACHED on a lookup that could be cached: the kernel may open it
 * or answer EAGAIN; the fallback always answers EAGAIN. The kernel's own
 * call may give the answer of its version.
 */
static bool answer_expected(const struct row *r, int answer, bool kernel)
{
	if ((r->resolve & RESOLVE_CACHED) && r->expect == OPENED)
		return answer == EAGAIN || (kernel && answer == OPENED);
	return answer == r->expect || other_kernel_answer(r, answer, kernel);
}

static const char *const world_names[] = { "allowed", "ENOSYS", "EPERM" };
static const int world_errnos[] = { 0, ENOSYS, EPERM };

enum verdict { PASSED, FAILED, NOT_HERE };

/* Worlds no row could be checked in here (no seccomp filter loads under
 * qemu-user), by index into world_errnos. */
static bool world_not_made[3];

static enum verdict run_row(const struct row *r)
{
	enum verdict verdict = NOT_HERE;

	/* The kernel's own answer, where the kernel answers here. */
	if (refusal == 0) {
		int raw = raw_answer(r);

		reset_fixture(r);
		if (raw == KERNEL_UNANSWERED) {
			openat2_say_not_judged(r->name, "the worlds that "
					       "refuse openat2 still judged");
		} else if (!answer_expected(r, raw, true)) {
			printf("not ok %s: this kernel's openat2 gives %s, the "
			       "table says %s\n", r->name, answer_name(raw),
			       answer_name(r->expect));
			return FAILED;
		}
	}
	for (int w = 0; w < 3; w++) {
		int answer = answer_in_world(r, world_errnos[w]);
		bool kernel = world_errnos[w] == 0 && refusal == 0;

		reset_fixture(r);
		if (answer == CHILD_SETUP_FAILED && world_errnos[w] != 0) {
			world_not_made[w] = true;
			continue;
		}
		if (answer == KERNEL_UNANSWERED) {
			openat2_say_not_judged(r->name, "where openat2 is "
					       "allowed, the library returns "
					       "the kernel's EAGAIN; the worlds "
					       "that refuse it still judged");
			continue;
		}
		if (!answer_expected(r, answer, kernel)) {
			printf("not ok %s (openat2 %s): %s, expected %s\n",
			       r->name, world_names[w], answer_name(answer),
			       answer_name(r->expect));
			verdict = FAILED;
		} else if (verdict == NOT_HERE) {
			verdict = PASSED;
		}
	}
	if (verdict == PASSED)
		printf("ok %s\n", r->name);
	return verdict;
}

static int run_rows(const struct row *rows)
{
	int counts[3] = { 0, 0, 0 };

	for (; rows->name != NULL; rows++)
		counts[run_row(rows)]++;
	for (int w = 0; w < 3; w++)
		if (world_not_made[w])
			printf("not here: openat2 refused with %s (no seccomp "
			       "filter can be loaded); the other worlds were "
			       "checked\n", world_names[w]);
	printf("%d passed, %d failed, %d not here\n", counts[PASSED],
	       counts[FAILED], counts[NOT_HERE]);
	return counts[FAILED] != 0 || counts[PASSED] == 0;
}

/* A directory of our own: file, link -> file, abslink -> /, sub/file,
 * and ../outside beside it. */
static int make_fixture(char *top)
{
	char path[4096];
	int fd;

	if (mkdtemp(top) == NULL)
		return -1;
	snprintf(path, sizeof(path), "%s/outside", top);
	if ((fd = open(path, O_CREAT | O_WRONLY, 0644)) < 0)
		return -1;
	close(fd);
	snprintf(path, sizeof(path), "%s/root", top);
	snprintf(world_path, sizeof(world_path), "%s", path);
	if (mkdir(path, 0755) != 0 ||
	    (world_dirfd = open(path, O_RDONLY | O_DIRECTORY)) < 0 ||
	    mkdirat(world_dirfd, "sub", 0755) != 0 ||
	    symlinkat("file", world_dirfd, "link") != 0 ||
	    symlinkat("/", world_dirfd, "abslink") != 0)
		return -1;
	for (int i = 0; i < 2; i++) {
		fd = openat(world_dirfd, i == 0 ? "file" : "sub/file",
			    O_CREAT | O_WRONLY, 0644);
		if (fd < 0)
			return -1;
		close(fd);
	}
	return 0;
}

/* ---- own-eperm ---- */

#define OTHER_UID 65534 /* nobody */

/*
 * O_NOATIME on a file this user does not own: EPERM from a kernel that
 * has openat2, the file's own answer. The library must return it as it
 * is. With RESOLVE_CACHED beside it the two paths would answer apart: the
 * kernel (the fast path) EPERM, a wrongly taken fallback EAGAIN.
 */
static int noatime_answer(uint64_t resolve)
{
	struct open_how how = { O_RDONLY | O_NOATIME, 0, resolve };
	int fd = openat2(world_dirfd, "file", &how, sizeof(how));

	if (fd >= 0) {
		close(fd);
		return OPENED;
	}
	return errno;
}

static int run_own_eperm(void)
{
	int status, failed = 0;
	pid_t pid;

	if (getuid() != 0) {
		printf("SKIP: needs root, to give a file to another user\n");
		return 77;
	}
	if (fchownat(world_dirfd, "file", OTHER_UID, OTHER_UID, 0) != 0 ||
	    fchmod(world_dirfd, 0755) != 0)
		return 1;
	pid = fork();
	if (pid == 0) {
		/* Not the owner, and no CAP_FOWNER: the kernel refuses
		 * O_NOATIME with EPERM. */
		if (setgid(OTHER_UID - 1) != 0 || setuid(OTHER_UID - 1) != 0)
			_exit(CHILD_SETUP_FAILED);
		int cached = noatime_answer(RESOLVE_CACHED);
		int plain = noatime_answer(0);

		if (plain != EPERM) {
			printf("not ok noatime_eperm_is_returned: %s\n",
			       answer_name(plain));
			_exit(1);
		}
		printf("ok noatime_eperm_is_returned\n");
		if (refusal != 0) {
			/* valgrind 3.19 and qemu-user 7.2 refuse openat2 for
			 * every thread: every answer is the fallback's. */
			printf("not here noatime_eperm_takes_no_fallback: "
			       "openat2 is refused (%s) here\n",
			       strerror(refusal));
			_exit(0);
		}
		/* The kernel's cached lookup may say EAGAIN too, but the
		 * dentry was just looked up: it says EPERM here. */
		if (cached != EPERM) {
			printf("not ok noatime_eperm_takes_no_fallback: %s "
			       "(a fallback would say EAGAIN)\n",
			       answer_name(cached));
			_exit(1);
		}
		printf("ok noatime_eperm_takes_no_fallback\n");
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		failed = 1;
	printf("%s\n", failed ? "own-eperm failed" : "own-eperm passed");
	return failed;
}

/* ---- stale-belief ---- */

/* RESOLVE_CACHED on a file just looked up: the kernel opens it; the
 * fallback answers EAGAIN. So the answer tells which path gave it. */
static int cached_answer(void)
{
	struct open_how how = { O_RDONLY, 0, RESOLVE_CACHED };
	struct stat st;
	int fd;

	fstatat(world_dirfd, "file", &st, 0);
	fd = openat2(world_dirfd, "file", &how, sizeof(how));
	if (fd >= 0) {
		close(fd);
		return OPENED;
	}
	return errno;
}

static int filtered_thread_answer;

static void *filtered_thread(void *unused)
{
	(void)unused;
	if (block_openat2(ENOSYS) != 0)
		filtered_thread_answer = CHILD_SETUP_FAILED;
	else
		filtered_thread_answer = cached_answer();
	return NULL;
}

static bool check(const char *name, int answer, int expect)
{
	if (answer == expect) {
		printf("ok %s\n", name);
		return true;
	}
	printf("not ok %s: %s, expected %s\n", name, answer_name(answer),
	       answer_name(expect));
	return false;
}

/* In a child of its own, so that no filter outlives the group. */
static int stale_belief_cases(void)
{
	pthread_t thread;
	int failed = 0;
	pid_t pid;

	/* A thread under a filter learns that openat2 is refused ... */
	if (pthread_create(&thread, NULL, filtered_thread, NULL) != 0 ||
	    pthread_join(thread, NULL) != 0)
		return CHILD_SETUP_FAILED;
	if (filtered_thread_answer == CHILD_SETUP_FAILED)
		return CHILD_SETUP_FAILED;
	failed |= !check("filtered_thread_gets_fallback", filtered_thread_answer,
			 EAGAIN);
	/* ... and this thread, which has no filter, still gets the kernel. */
	failed |= !check("unfiltered_thread_after_filtered_gets_kernel",
			 cached_answer(), OPENED);

	/* A vfork child, under a filter of its own, writes the belief into
	 * this process's memory. */
	pid = vfork();
	if (pid == 0) {
		if (block_openat2(ENOSYS) != 0)
			_exit(CHILD_SETUP_FAILED);
		_exit(cached_answer());
	}
	int status;

	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return CHILD_SETUP_FAILED;
	failed |= !check("filtered_vfork_child_gets_fallback",
			 WEXITSTATUS(status), EAGAIN);
	failed |= !check("parent_after_filtered_vfork_child_gets_kernel",
			 cached_answer(), OPENED);
	return failed;
}

static int run_stale_belief(void)
{
	int status;
	pid_t pid;

	if (refusal != 0) {
		/* valgrind 3.19 and qemu-user 7.2 refuse openat2 for every
		 * thread: no belief can be stale. */
		printf("not here stale_belief: openat2 is refused (%s) for every"
		       " thread here\n", strerror(refusal));
		return 0;
	}
	if (cached_answer() != OPENED) {
		printf("SKIP: this kernel answers a cached lookup with EAGAIN; "
		       "the answers cannot be told apart\n");
		return 77;
	}
	pid = fork();
	if (pid == 0)
		_exit(stale_belief_cases());
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 1;
	if (WEXITSTATUS(status) == CHILD_SETUP_FAILED) {
		printf("SKIP: no seccomp filter can be loaded here\n");
		return 77;
	}
	return WEXITSTATUS(status) != 0;
}

/* What an inotify fd has seen, as the mask of its queued events. */
static uint32_t events_seen(int inotify)
{
	union {
		struct inotify_event event;
		char bytes[4096];
	} buf;
	uint32_t mask = 0;
	ssize_t n = read(inotify, &buf, sizeof(buf));

	for (ssize_t at = 0; at < n;) {
		const struct inotify_event *e =
			(const struct inotify_event *)(buf.bytes + at);

		mask |= e->mask;
		at += (ssize_t)(sizeof(*e) + e->len);
	}
	return mask;
}

static int run_regular_opens_nothing(void)
{
	static const struct row rows[] = {
		{ "regular_fifo_opens_nothing", "fifo",
		  OPENAT2_REGULAR | O_RDONLY | O_NONBLOCK, 0, RESOLVE_BENEATH,
		  V0, 0, false, EFTYPE, NULL },
		{ "regular_directory_opens_nothing", "sub", OPENAT2_REGULAR, 0,
		  RESOLVE_IN_ROOT, V0, 0, false, EFTYPE, NULL },
	};
	char fifo[4200], sub[4200];
	int failed = 0, inotify;
	/* The kernel's own answer where it answers (EINVAL before 7.2);
	 * where openat2 is refused (qemu-user), the library takes the flag
	 * where the kernel reopens by O_EMPTYPATH, as 7.2 does. */
	bool has_flag = refusal == 0 ? raw_answer(&rows[1]) == EFTYPE :
				       kernel_reopens_empty_path();
	int expect = has_flag ? EFTYPE : EINVAL;

	printf("OPENAT2_REGULAR on a FIFO or a directory: %s expected\n",
	       answer_name(expect));
	snprintf(fifo, sizeof(fifo), "%s/fifo", world_path);
	snprintf(sub, sizeof(sub), "%s/sub", world_path);
	inotify = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (inotify < 0 || mkfifo(fifo, 0600) != 0 ||
	    inotify_add_watch(inotify, fifo, IN_OPEN) < 0 ||
	    inotify_add_watch(inotify, sub, IN_OPEN) < 0) {
		perror("inotify");
		return 1;
	}
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		for (int w = 0; w < 3; w++) {
			int answer = answer_in_world(&rows[i], world_errnos[w]);
			uint32_t seen = events_seen(inotify);

			if (answer == CHILD_SETUP_FAILED)
				continue;
			if (answer != expect || (seen & IN_OPEN)) {
				printf("not ok %s (openat2 %s): %s%s\n",
				       rows[i].name, world_names[w],
				       answer_name(answer),
				       seen & IN_OPEN ? ", and it was opened" :
							"");
				failed++;
			}
		}
		if (failed == 0)
			printf("ok %s, nothing opened\n", rows[i].name);
	}
	close(inotify);
	return failed != 0;
}

int main(int argc, char **argv)
{
	char top[] = "/tmp/test-openat2.XXXXXX";
	int result;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc != 2) {
		fprintf(stderr, "usage: %s checks|answers|own-eperm|"
			"stale-belief|regular-opens-nothing\n", argv[0]);
		return 2;
	}
	if (make_fixture(top) != 0) {
		perror("fixture");
		return 2;
	}
	refusal = openat2_refusal();
	if (refusal != 0)
		printf("openat2 fails with %s here: the kernel's answers are "
		       "the table's\n", strerror(refusal));
	if (strcmp(argv[1], "checks") == 0)
		result = run_rows(check_rows);
	else if (strcmp(argv[1], "answers") == 0)
		result = run_rows(answer_rows);
	else if (strcmp(argv[1], "own-eperm") == 0)
		result = run_own_eperm();
	else if (strcmp(argv[1], "stale-belief") == 0)
		result = run_stale_belief();
	else if (strcmp(argv[1], "regular-opens-nothing") == 0)
		result = run_regular_opens_nothing();
	else
		result = 2;
	{
		char cmd[64];

		/* The fixture: a few files of our own under /tmp. */
		snprintf(cmd, sizeof(cmd), "rm -rf %s", top);
		if (system(cmd) != 0)
			result = result == 0 ? 1 : result;
	}
	return result;
}
