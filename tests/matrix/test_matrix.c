/*
 * The 2014 draft's execveat selftest, case by case and in its order, run
 * through the library's execveat(), one row of the table below each. Cases
 * that exec the fd itself run in both forms, the draft's NULL path and
 * mainline's "" with AT_EMPTY_PATH, and (when they pass no flags) through
 * fexecve() as well. Where mainline
 * Linux decided differently from the draft, the case asserts what mainline
 * does and says so. The mainline-only cases follow.
 *
 * Where execveat is refused (qemu-user 7.2: ENOSYS), every execveat case
 * expects that refusal, the kernel's answer there, and the fexecve cases
 * still expect what a kernel's execveat does: the library's /proc
 * fallback answers alike.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "execveat.h"
#include "fixture.h"
#include "library_calls.h"
#include "matrix_fds.h"

/* How a row's call is made: execveat of dfd + path, or an exec of the fd
 * itself (the draft's NULL path, mainline's "" with AT_EMPTY_PATH, or
 * fexecve). */
enum form { PATH_CALL, NULL_PATH, EMPTY_PATH, FEXECVE, FORMS };

#define BY_PATH (1u << PATH_CALL)
#define BOTH_FORMS ((1u << NULL_PATH) | (1u << EMPTY_PATH))
#define ALL_FORMS (BOTH_FORMS | (1u << FEXECVE))

/* Each form's cmocka case is the row's name with this after it. */
static const char *const form_suffix[FORMS] = {
	"", "_with_null_path", "_with_empty_path", "_through_fexecve",
};

/* The fds a row names that are not the fixture's. */
static const int at_fdcwd = AT_FDCWD;
static const int nonsense_fd = NONSENSE_FD;

/* --- What a row makes before its call (the fd it returns is closed after) */

/* A fresh copy of the program or script (open_fresh_program or
 * open_fresh_script) opened with flags, then renamed to a fresh name
 * starting with moved_to (unless NULL), or deleted. */
static int fresh_copy(int (*open_fresh)(char *name, int flags), int flags,
		      const char *moved_to, bool deleted)
{
	char name[NAME_MAX + 1];
	int fd = open_fresh(name, flags);

	if (moved_to != NULL)
		rename_fixture(name, fresh_name(moved_to));
	if (deleted)
		unlink_fixture(name);
	return fd;
}

static int renamed_program(void)
{
	return fresh_copy(open_fresh_program, O_RDONLY, "program.moved", false);
}

static int deleted_program(void)
{
	return fresh_copy(open_fresh_program, O_RDONLY, NULL, true);
}

static int renamed_script(void)
{
	return fresh_copy(open_fresh_script, O_RDONLY, "script.moved", false);
}

static int deleted_script(void)
{
	return fresh_copy(open_fresh_script, O_RDONLY, NULL, true);
}

static int cloexec_script(void)
{
	return fresh_copy(open_fresh_script, O_RDONLY | O_CLOEXEC, NULL, false);
}

static int cloexec_program(void)
{
	return fresh_copy(open_fresh_program, O_RDONLY | O_CLOEXEC, NULL, false);
}

/* The kernel reads the file from offset 0, not from the fd's position. */
static int program_read_past_start(void)
{
	int fd = fresh_copy(open_fresh_program, O_RDONLY, NULL, false);

	assert_int_equal(lseek(fd, 100, SEEK_SET), 100);
	return fd;
}

static int fixture_file(const char *name, int flags)
{
	int fd = openat(m.dot_dfd, name, flags);

	assert_true(fd >= 0);
	return fd;
}

static int fifo(void)
{
	return fixture_file(FIXTURE_FIFO, O_RDWR);
}

static int non_executable(void)
{
	return fixture_file(FIXTURE_NONEXEC, O_RDONLY);
}

/* O_PATH skips the open-time checks; exec still checks the mode. */
static int non_executable_o_path(void)
{
	return fixture_file(FIXTURE_NONEXEC, O_PATH);
}

/* A new subdirectory holding a script, open as a dfd, then renamed; its
 * new name is stored in name (NAME_MAX + 1 bytes). */
static int open_renamed_subdir(char *name)
{
	char old_name[NAME_MAX + 1];
	int dfd;

	strcpy(old_name, fresh_name(FIXTURE_SUBDIR));
	if (mkdirat(m.dot_dfd, old_name, 0755) != 0)
		fail_msg("mkdir %s: %m", old_name);
	dfd = openat(m.dot_dfd, old_name, O_DIRECTORY | O_RDONLY);
	assert_true(dfd >= 0);
	fixture_add_script(dfd, FIXTURE_SCRIPT);
	strcpy(name, fresh_name("subdir.moved"));
	rename_fixture(old_name, name);
	return dfd;
}

static int renamed_subdir(void)
{
	char name[NAME_MAX + 1];

	return open_renamed_subdir(name);
}

/* The same, then emptied and deleted while still open. */
static int deleted_subdir(void)
{
	char name[NAME_MAX + 1];
	int dfd = open_renamed_subdir(name);

	if (unlinkat(dfd, FIXTURE_SCRIPT, 0) != 0 ||
	    unlinkat(m.dot_dfd, name, AT_REMOVEDIR) != 0)
		fail_msg("delete %s: %m", name);
	return dfd;
}

/* --- The table ----------------------------------------------------------- */

struct matrix_case {
	const char *name;
	unsigned forms;	     /* BY_PATH, BOTH_FORMS or ALL_FORMS */
	const int *fd;	     /* the dfd, or the fd execed; */
	int (*make_fd)(void); /* or made by the row */
	const char *path;    /* BY_PATH only */
	int flags;
	int expected_errno;  /* 0: the program runs */
};

#define PATH_RUNS(name, fd, path) { #name, BY_PATH, fd, NULL, path, 0, 0 }
#define PATH_FAILS(name, fd, path, flags, err) \
	{ #name, BY_PATH, fd, NULL, path, flags, err }
#define MADE_PATH(name, make, path, err) \
	{ #name, BY_PATH, NULL, make, path, 0, err }
#define FD(name, forms, fd, flags, err) { #name, forms, fd, NULL, NULL, flags, err }
#define MADE_FD(name, make, err) { #name, ALL_FORMS, NULL, make, NULL, 0, err }

static const struct matrix_case cases[] = {
	/* dfd + path */
	PATH_RUNS(path_up_from_subdir_dfd_runs, &m.subdir_dfd,
		  "../" FIXTURE_PROGRAM),
	PATH_RUNS(path_in_dir_dfd_runs, &m.dot_dfd, FIXTURE_PROGRAM),
	PATH_RUNS(path_in_o_path_dir_dfd_runs, &m.dot_dfd_path,
		  FIXTURE_PROGRAM),
	/* absolute path */
	PATH_RUNS(absolute_path_with_at_fdcwd_runs, &at_fdcwd, m.program_abs),
	/* absolute path, nonsense dfd */
	PATH_RUNS(absolute_path_ignores_nonsense_dfd, &nonsense_fd,
		  m.program_abs),
	/* the fd itself */
	FD(program_fd_runs, ALL_FORMS, &m.program, 0, 0),
	/* renamed and deleted behind an open fd */
	MADE_FD(fd_of_renamed_program_runs, renamed_program, 0),
	MADE_FD(fd_of_deleted_program_runs, deleted_program, 0),
	/* symlinks */
	PATH_RUNS(symlink_in_dir_dfd_runs, &m.dot_dfd, FIXTURE_SYMLINK),
	PATH_RUNS(symlink_in_o_path_dir_dfd_runs, &m.dot_dfd_path,
		  FIXTURE_SYMLINK),
	PATH_RUNS(absolute_symlink_runs, &at_fdcwd, m.symlink_abs),
	FD(fd_opened_through_symlink_runs, ALL_FORMS, &m.symlink, 0, 0),
	/* open() already followed the link: there is no symlink left to
	 * refuse. */
	FD(fd_via_symlink_runs_despite_nofollow, BOTH_FORMS, &m.symlink,
	   AT_SYMLINK_NOFOLLOW, 0),
	/* symlinks with AT_SYMLINK_NOFOLLOW */
	PATH_FAILS(symlink_with_nofollow_fails_eloop, &m.dot_dfd,
		   FIXTURE_SYMLINK, AT_SYMLINK_NOFOLLOW, ELOOP),
	PATH_FAILS(symlink_in_o_path_dfd_nofollow_fails_eloop, &m.dot_dfd_path,
		   FIXTURE_SYMLINK, AT_SYMLINK_NOFOLLOW, ELOOP),
	PATH_FAILS(absolute_symlink_with_nofollow_fails_eloop, &at_fdcwd,
		   m.symlink_abs, AT_SYMLINK_NOFOLLOW, ELOOP),
	/* scripts */
	PATH_RUNS(script_up_from_subdir_dfd_runs, &m.subdir_dfd,
		  "../" FIXTURE_SCRIPT),
	PATH_RUNS(script_in_dir_dfd_runs, &m.dot_dfd, FIXTURE_SCRIPT),
	PATH_RUNS(script_in_o_path_dir_dfd_runs, &m.dot_dfd_path,
		  FIXTURE_SCRIPT),
	PATH_RUNS(absolute_script_runs, &at_fdcwd, m.script_abs),
	FD(script_fd_runs, ALL_FORMS, &m.script, 0, 0),
	FD(script_fd_runs_despite_nofollow, BOTH_FORMS, &m.script,
	   AT_SYMLINK_NOFOLLOW, 0),
	/* renamed and deleted scripts */
	MADE_FD(fd_of_renamed_script_runs, renamed_script, 0),
	/* Differs from the draft, which expected 127: the draft handed the
	 * shell the file's path name, gone once the file is deleted.
	 * Mainline hands it /dev/fd/N, and that magic link still reaches the
	 * deleted file, so the script runs. */
	MADE_FD(fd_of_deleted_script_runs, deleted_script, 0),
	/* renamed and deleted subdirectories */
	MADE_PATH(script_up_from_renamed_subdir_runs, renamed_subdir,
		  "../" FIXTURE_SCRIPT, 0),
	MADE_PATH(script_in_renamed_subdir_runs, renamed_subdir,
		  FIXTURE_SCRIPT, 0),
	/* ".." of a deleted directory is still its old parent, for the
	 * kernel and for the shell opening /dev/fd/N/../script. */
	MADE_PATH(script_up_from_deleted_subdir_runs, deleted_subdir,
		  "../" FIXTURE_SCRIPT, 0),
	MADE_PATH(script_in_deleted_subdir_fails_enoent, deleted_subdir,
		  FIXTURE_SCRIPT, ENOENT),
	/* bad flags */
	PATH_FAILS(unknown_flags_fail_einval, &m.dot_dfd, FIXTURE_PROGRAM,
		   0xFFFF, EINVAL),
	/* ENOENT */
	PATH_FAILS(missing_file_in_dir_dfd_fails_enoent, &m.dot_dfd,
		   "no-such-file", 0, ENOENT),
	PATH_FAILS(missing_file_in_o_path_dir_dfd_fails_enoent,
		   &m.dot_dfd_path, "no-such-file", 0, ENOENT),
	PATH_FAILS(missing_file_in_cwd_fails_enoent, &at_fdcwd,
		   "no-such-file", 0, ENOENT),
	/* EACCES. The draft's NULL reaches the kernel as EFAULT on mainline;
	 * through the library both forms get the draft's EACCES. */
	FD(directory_fd_fails_eacces, ALL_FORMS, &m.dot_dfd, 0, EACCES),
	PATH_FAILS(non_executable_file_fails_eacces, &m.dot_dfd,
		   FIXTURE_NONEXEC, 0, EACCES),
	/* O_PATH (the draft's EBADF) and fds that are not open. Differs from
	 * the draft, which refused every O_PATH fd with EBADF. Mainline
	 * accepts O_PATH fds for exec; a directory is then refused for what
	 * it is, EACCES, and an executable O_PATH fd runs. */
	FD(o_path_directory_fd_fails_eacces, ALL_FORMS, &m.dot_dfd_path, 0,
	   EACCES),
	FD(o_path_program_fd_runs, ALL_FORMS, &m.program_path, 0, 0),
	FD(nonsense_fd_fails_ebadf, ALL_FORMS, &nonsense_fd, 0, EBADF),
	PATH_FAILS(path_in_nonsense_dfd_fails_ebadf, &nonsense_fd,
		   FIXTURE_PROGRAM, 0, EBADF),
	/* ENOTDIR */
	PATH_FAILS(path_in_file_fd_fails_enotdir, &m.program, FIXTURE_PROGRAM,
		   0, ENOTDIR),
	/* Mainline only: what users of the fd form run into. The shell would
	 * have to open /dev/fd/N, which the exec has just closed; since 3.19
	 * the kernel refuses up front rather than start a shell that cannot
	 * read its script. */
	MADE_FD(cloexec_script_fd_fails_enoent, cloexec_script, ENOENT),
	/* A binary needs no name after exec: CLOEXEC changes nothing for
	 * it. */
	MADE_FD(cloexec_program_fd_runs, cloexec_program, 0),
	/* Only regular files run, whatever their mode bits say. */
	MADE_FD(fifo_fd_fails_eacces, fifo, EACCES),
	MADE_FD(non_executable_fd_fails_eacces, non_executable, EACCES),
	MADE_FD(non_executable_o_path_fd_fails_eacces, non_executable_o_path,
		EACCES),
	MADE_FD(fd_with_offset_past_start_runs, program_read_past_start, 0),
};

#define CASES (sizeof(cases) / sizeof(cases[0]))

/* --- The runner ---------------------------------------------------------- */

/* One cmocka case: a row in one of its forms. */
struct matrix_run {
	const struct matrix_case *c;
	enum form form;
	char name[NAME_MAX];
};

static struct exec_outcome run_in_form(int fd, const char *path,
				       enum form form, int flags)
{
	switch (form) {
	case PATH_CALL:
		return run_execveat(fd, path, flags);
	case NULL_PATH:
		return run_execveat(fd, NULL, flags);
	case EMPTY_PATH:
		return run_execveat(fd, "", flags | AT_EMPTY_PATH);
	case FEXECVE:
	case FORMS:
		break;
	}
	assert_int_equal(flags, 0); /* fexecve takes none */
	return run_fexecve(fd);
}

/*
 * The program ran, and its exit status says its argv and envp arrived,
 * or the exec came back with the row's errno. An execveat call, where
 * execveat is refused, came back with that refusal instead; fexecve runs
 * wherever execveat could, or its fallback can.
 */
static void run_case(void **state)
{
	const struct matrix_run *run = *state;
	const struct matrix_case *c = run->c;
	int fd = c->make_fd != NULL ? c->make_fd() : *c->fd;
	struct exec_outcome o = run_in_form(fd, c->path, run->form, c->flags);

	if (run->form == FEXECVE && c->expected_errno == 0)
		assert_program_ran(o, CHILD_STATUS);
	else if (run->form == FEXECVE)
		assert_exec_failed(o, c->expected_errno);
	else if (c->expected_errno == 0)
		assert_execveat_ran(o, CHILD_STATUS);
	else
		assert_execveat_failed(o, c->expected_errno);
	if (c->make_fd != NULL)
		close(fd);
}

/* Every row in each of its forms, in the table's order; returns how
 * many. */
static size_t runs_of_table(struct matrix_run *runs)
{
	size_t n = 0;

	for (size_t i = 0; i < CASES; i++)
		for (enum form f = PATH_CALL; f < FORMS; f++) {
			if (!(cases[i].forms & (1u << f)))
				continue;
			runs[n].c = &cases[i];
			runs[n].form = f;
			snprintf(runs[n].name, sizeof(runs[n].name), "%s%s",
				 cases[i].name, form_suffix[f]);
			n++;
		}
	return n;
}

/* --- Paths near PATH_MAX ------------------------------------------------- */

#define LONG_DIR_DEPTH 15 /* 15 * (NAME_MAX + 1) + NAME_MAX = PATH_MAX - 1 */

enum long_path_file { LONG_PATH_PROGRAM, LONG_PATH_SCRIPT };

/*
 * Makes a new chain of 15 nested directories with names of NAME_MAX bytes,
 * a program or script in the deepest named by name_len bytes of 'p', and
 * returns its path relative to the fixture directory: PATH_MAX - 1 bytes
 * when name_len is NAME_MAX.
 */
static const char *long_path_to(enum long_path_file file, size_t name_len)
{
	static char path[PATH_MAX];
	char component[NAME_MAX + 1];
	const char *chain = fresh_name("long"); /* each call its own chain */
	int dfd = dup(m.dot_dfd);
	size_t len = 0;

	assert_true(dfd >= 0);
	memset(component, 'd', NAME_MAX);
	component[NAME_MAX] = '\0';
	memcpy(component, chain, strlen(chain));
	for (int i = 0; i < LONG_DIR_DEPTH; i++) {
		int next;

		if (mkdirat(dfd, component, 0755) != 0)
			fail_msg("mkdir: %m");
		next = openat(dfd, component, O_DIRECTORY | O_RDONLY);
		assert_true(next >= 0);
		close(dfd);
		dfd = next;
		memcpy(path + len, component, NAME_MAX);
		path[len + NAME_MAX] = '/';
		len += NAME_MAX + 1;
		memset(component, 'd', NAME_MAX);
	}
	memset(component, 'p', name_len);
	component[name_len] = '\0';
	if (file == LONG_PATH_SCRIPT)
		fixture_add_script(dfd, component);
	else
		fixture_add_program(dfd, component, 0755);
	close(dfd);
	memcpy(path + len, component, name_len + 1);
	return path;
}

static void path_of_path_max_minus_one_bytes_runs(void **state)
{
	(void)state;
	const char *path = long_path_to(LONG_PATH_PROGRAM, NAME_MAX);

	assert_int_equal(strlen(path), PATH_MAX - 1);
	assert_execveat_ran(run_execveat(m.dot_dfd, path, 0), CHILD_STATUS);
}

/* One byte more names an existing program too, and is refused: the limit
 * counts the terminating NUL. */
static void path_of_path_max_bytes_fails_enametoolong(void **state)
{
	(void)state;
	char path[PATH_MAX + 1] = "./";

	strcpy(path + 2, long_path_to(LONG_PATH_PROGRAM, NAME_MAX - 1));
	assert_int_equal(strlen(path), PATH_MAX);
	assert_execveat_failed(run_execveat(m.dot_dfd, path, 0), ENAMETOOLONG);
}

/*
 * A script there starts, but the kernel names it to the shell as
 * /dev/fd/N/ + the path, over PATH_MAX, and the shell cannot open that.
 * A path this long suits binaries only.
 */
static void script_at_path_of_path_max_minus_one_bytes_cannot_be_read(
	void **state)
{
	(void)state;
	const char *path = long_path_to(LONG_PATH_SCRIPT, NAME_MAX);

	assert_int_equal(strlen(path), PATH_MAX - 1);
	assert_execveat_ran(run_execveat(m.dot_dfd, path, 0),
			    SHELL_CANNOT_OPEN_SCRIPT);
}

int main(int argc, char **argv)
{
	static struct matrix_run runs[CASES * FORMS]; /* room for all */
	size_t n = runs_of_table(runs);
	struct CMUnitTest tests[n + 3];

	for (size_t i = 0; i < n; i++)
		tests[i] = (struct CMUnitTest){ .name = runs[i].name,
						.test_func = run_case,
						.initial_state = &runs[i] };
	tests[n] = (struct CMUnitTest)cmocka_unit_test(
		path_of_path_max_minus_one_bytes_runs);
	tests[n + 1] = (struct CMUnitTest)cmocka_unit_test(
		path_of_path_max_bytes_fails_enametoolong);
	tests[n + 2] = (struct CMUnitTest)cmocka_unit_test(
		script_at_path_of_path_max_minus_one_bytes_cannot_be_read);

	int failed;

	fixture_init(argc, argv);
	failed = cmocka_run_group_tests(tests, matrix_fds_open, NULL);
	return matrix_fds_close() == 0 ? failed : 1;
}
