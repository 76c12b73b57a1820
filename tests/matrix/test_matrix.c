/*
 * The 2014 draft's execveat selftest, case by case and in its order, run
 * through the library's execveat(). Cases that exec the fd itself run in
 * both forms, the draft's NULL path and mainline's "" with AT_EMPTY_PATH,
 * and (when they pass no flags) through fexecve() as well. Where mainline
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

enum fd_form { NULL_PATH, EMPTY_PATH, FEXECVE };

/* Exec the file behind fd itself, in the form asked for. */
static struct exec_outcome run_fd(int fd, enum fd_form form, int flags)
{
	switch (form) {
	case NULL_PATH:
		return run_execveat(fd, NULL, flags);
	case EMPTY_PATH:
		return run_execveat(fd, "", flags | AT_EMPTY_PATH);
	case FEXECVE:
		break;
	}
	assert_int_equal(flags, 0); /* fexecve takes none */
	return run_fexecve(fd);
}

/* From one function NAME(enum fd_form), the cmocka cases
 * NAME_with_null_path and NAME_with_empty_path (BOTH_FORMS), and also
 * NAME_through_fexecve (ALL_FORMS). */
#define FORM_CASE(name, suffix, form)                          \
	static void name##_##suffix(void **state)              \
	{                                                      \
		(void)state;                                   \
		name(form);                                    \
	}
#define BOTH_FORMS(name)                                       \
	FORM_CASE(name, with_null_path, NULL_PATH)             \
	FORM_CASE(name, with_empty_path, EMPTY_PATH)
#define ALL_FORMS(name)                                        \
	BOTH_FORMS(name)                                       \
	FORM_CASE(name, through_fexecve, FEXECVE)
#define BOTH_FORMS_TESTS(name)                                 \
	cmocka_unit_test(name##_with_null_path),               \
	cmocka_unit_test(name##_with_empty_path)
#define ALL_FORMS_TESTS(name)                                  \
	BOTH_FORMS_TESTS(name),                                \
	cmocka_unit_test(name##_through_fexecve)

/* The execveat call ran the program, and its exit status says its argv
 * and envp arrived; where execveat is refused, it came back refused. */
static void assert_execveat_runs(struct exec_outcome o)
{
	assert_execveat_ran(o, CHILD_STATUS);
}

/* The same for the file behind fd in the form asked for: fexecve runs it
 * wherever execveat could, or its fallback can. */
static void assert_fd_runs(int fd, enum fd_form form, int flags)
{
	struct exec_outcome o = run_fd(fd, form, flags);

	if (form == FEXECVE)
		assert_program_ran(o, CHILD_STATUS);
	else
		assert_execveat_runs(o);
}

/* The exec of the file behind fd came back with expected_errno; an
 * execveat call, where execveat is refused, with that refusal. */
static void assert_fd_fails(int fd, enum fd_form form, int flags,
			    int expected_errno)
{
	struct exec_outcome o = run_fd(fd, form, flags);

	if (form == FEXECVE)
		assert_exec_failed(o, expected_errno);
	else
		assert_execveat_failed(o, expected_errno);
}

/* --- A binary, named by dfd + path --------------------------------------- */

static void path_up_from_subdir_dfd_runs(void **state)
{
	(void)state;
	assert_execveat_runs(run_execveat(m.subdir_dfd, "../" FIXTURE_PROGRAM,
					  0));
}

static void path_in_dir_dfd_runs(void **state)
{
	(void)state;
	assert_execveat_runs(run_execveat(m.dot_dfd, FIXTURE_PROGRAM, 0));
}

static void path_in_o_path_dir_dfd_runs(void **state)
{
	(void)state;
	assert_execveat_runs(run_execveat(m.dot_dfd_path, FIXTURE_PROGRAM, 0));
}

/* --- Absolute path ------------------------------------------------------- */

static void absolute_path_with_at_fdcwd_runs(void **state)
{
	(void)state;
	assert_execveat_runs(run_execveat(AT_FDCWD, m.program_abs, 0));
}

/* --- Absolute path with a nonsense dfd ----------------------------------- */

static void absolute_path_ignores_nonsense_dfd(void **state)
{
	(void)state;
	assert_execveat_runs(run_execveat(NONSENSE_FD, m.program_abs, 0));
}

/* --- The fd itself ------------------------------------------------------- */

static void program_fd_runs(enum fd_form form)
{
	assert_fd_runs(m.program, form, 0);
}
ALL_FORMS(program_fd_runs)

/* --- A program renamed or deleted while open ----------------------------- */

static void fd_of_renamed_program_runs(enum fd_form form)
{
	char name[NAME_MAX + 1];
	int fd = open_fresh_program(name, O_RDONLY);

	rename_fixture(name, fresh_name("program.moved"));
	assert_fd_runs(fd, form, 0);
	close(fd);
}
ALL_FORMS(fd_of_renamed_program_runs)

static void fd_of_deleted_program_runs(enum fd_form form)
{
	char name[NAME_MAX + 1];
	int fd = open_fresh_program(name, O_RDONLY);

	unlink_fixture(name);
	assert_fd_runs(fd, form, 0);
	close(fd);
}
ALL_FORMS(fd_of_deleted_program_runs)

/* --- Symlinks to the program --------------------------------------------- */

static void symlink_in_dir_dfd_runs(void **state)
{
	(void)state;
	assert_execveat_runs(run_execveat(m.dot_dfd, FIXTURE_SYMLINK, 0));
}

static void symlink_in_o_path_dir_dfd_runs(void **state)
{
	(void)state;
	assert_execveat_runs(run_execveat(m.dot_dfd_path, FIXTURE_SYMLINK, 0));
}

static void absolute_symlink_runs(void **state)
{
	(void)state;
	assert_execveat_runs(run_execveat(AT_FDCWD, m.symlink_abs, 0));
}

static void fd_opened_through_symlink_runs(enum fd_form form)
{
	assert_fd_runs(m.symlink, form, 0);
}
ALL_FORMS(fd_opened_through_symlink_runs)

/* open() already followed the link: there is no symlink left to refuse. */
static void fd_via_symlink_runs_despite_nofollow(enum fd_form form)
{
	assert_fd_runs(m.symlink, form, AT_SYMLINK_NOFOLLOW);
}
BOTH_FORMS(fd_via_symlink_runs_despite_nofollow)

/* --- Symlinks with AT_SYMLINK_NOFOLLOW ----------------------------------- */

static void symlink_with_nofollow_fails_eloop(void **state)
{
	(void)state;
	assert_execveat_failed(run_execveat(m.dot_dfd, FIXTURE_SYMLINK,
			       AT_SYMLINK_NOFOLLOW), ELOOP);
}

static void symlink_in_o_path_dfd_nofollow_fails_eloop(void **state)
{
	(void)state;
	assert_execveat_failed(run_execveat(m.dot_dfd_path, FIXTURE_SYMLINK,
			       AT_SYMLINK_NOFOLLOW), ELOOP);
}

static void absolute_symlink_with_nofollow_fails_eloop(void **state)
{
	(void)state;
	assert_execveat_failed(run_execveat(AT_FDCWD, m.symlink_abs,
			       AT_SYMLINK_NOFOLLOW), ELOOP);
}

/* --- A #!/bin/sh script -------------------------------------------------- */

static void script_up_from_subdir_dfd_runs(void **state)
{
	(void)state;
	assert_execveat_runs(run_execveat(m.subdir_dfd, "../" FIXTURE_SCRIPT,
					  0));
}

static void script_in_dir_dfd_runs(void **state)
{
	(void)state;
	assert_execveat_runs(run_execveat(m.dot_dfd, FIXTURE_SCRIPT, 0));
}

static void script_in_o_path_dir_dfd_runs(void **state)
{
	(void)state;
	assert_execveat_runs(run_execveat(m.dot_dfd_path, FIXTURE_SCRIPT, 0));
}

static void absolute_script_runs(void **state)
{
	(void)state;
	assert_execveat_runs(run_execveat(AT_FDCWD, m.script_abs, 0));
}

static void script_fd_runs(enum fd_form form)
{
	assert_fd_runs(m.script, form, 0);
}
ALL_FORMS(script_fd_runs)

static void script_fd_runs_despite_nofollow(enum fd_form form)
{
	assert_fd_runs(m.script, form, AT_SYMLINK_NOFOLLOW);
}
BOTH_FORMS(script_fd_runs_despite_nofollow)

/* --- A script renamed or deleted while open ------------------------------ */

static void fd_of_renamed_script_runs(enum fd_form form)
{
	char name[NAME_MAX + 1];
	int fd = open_fresh_script(name, O_RDONLY);

	rename_fixture(name, fresh_name("script.moved"));
	assert_fd_runs(fd, form, 0);
	close(fd);
}
ALL_FORMS(fd_of_renamed_script_runs)

/*
 * Differs from the draft, which expected 127: the draft handed the shell
 * the file's path name, gone once the file is deleted. Mainline hands it
 * /dev/fd/N, and that magic link still reaches the deleted file, so the
 * script runs.
 */
static void fd_of_deleted_script_runs(enum fd_form form)
{
	char name[NAME_MAX + 1];
	int fd = open_fresh_script(name, O_RDONLY);

	unlink_fixture(name);
	assert_fd_runs(fd, form, 0);
	close(fd);
}
ALL_FORMS(fd_of_deleted_script_runs)

/* --- A subdirectory renamed or deleted while open ------------------------ */

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

/* The same, then emptied and deleted while still open. */
static int open_deleted_subdir(void)
{
	char name[NAME_MAX + 1];
	int dfd = open_renamed_subdir(name);

	if (unlinkat(dfd, FIXTURE_SCRIPT, 0) != 0 ||
	    unlinkat(m.dot_dfd, name, AT_REMOVEDIR) != 0)
		fail_msg("delete %s: %m", name);
	return dfd;
}

static void script_up_from_renamed_subdir_runs(void **state)
{
	(void)state;
	char name[NAME_MAX + 1];
	int dfd = open_renamed_subdir(name);

	assert_execveat_runs(run_execveat(dfd, "../" FIXTURE_SCRIPT, 0));
	close(dfd);
}

static void script_in_renamed_subdir_runs(void **state)
{
	(void)state;
	char name[NAME_MAX + 1];
	int dfd = open_renamed_subdir(name);

	assert_execveat_runs(run_execveat(dfd, FIXTURE_SCRIPT, 0));
	close(dfd);
}

/* ".." of a deleted directory is still its old parent, for the kernel
 * and for the shell opening /dev/fd/N/../script. */
static void script_up_from_deleted_subdir_runs(void **state)
{
	(void)state;
	int dfd = open_deleted_subdir();

	assert_execveat_runs(run_execveat(dfd, "../" FIXTURE_SCRIPT, 0));
	close(dfd);
}

static void script_in_deleted_subdir_fails_enoent(void **state)
{
	(void)state;
	int dfd = open_deleted_subdir();

	assert_execveat_failed(run_execveat(dfd, FIXTURE_SCRIPT, 0), ENOENT);
	close(dfd);
}

/* --- Bad flags ----------------------------------------------------------- */

static void unknown_flags_fail_einval(void **state)
{
	(void)state;
	assert_execveat_failed(run_execveat(m.dot_dfd, FIXTURE_PROGRAM, 0xFFFF),
			       EINVAL);
}

/* --- ENOENT -------------------------------------------------------------- */

static void missing_file_in_dir_dfd_fails_enoent(void **state)
{
	(void)state;
	assert_execveat_failed(run_execveat(m.dot_dfd, "no-such-file", 0),
			       ENOENT);
}

static void missing_file_in_o_path_dir_dfd_fails_enoent(void **state)
{
	(void)state;
	assert_execveat_failed(run_execveat(m.dot_dfd_path, "no-such-file", 0),
			       ENOENT);
}

static void missing_file_in_cwd_fails_enoent(void **state)
{
	(void)state;
	assert_execveat_failed(run_execveat(AT_FDCWD, "no-such-file", 0),
			       ENOENT);
}

/* --- EACCES -------------------------------------------------------------- */

/* The draft's NULL reaches the kernel as EFAULT on mainline; through the
 * library both forms get the draft's EACCES. */
static void directory_fd_fails_eacces(enum fd_form form)
{
	assert_fd_fails(m.dot_dfd, form, 0, EACCES);
}
ALL_FORMS(directory_fd_fails_eacces)

static void non_executable_file_fails_eacces(void **state)
{
	(void)state;
	assert_execveat_failed(run_execveat(m.dot_dfd, FIXTURE_NONEXEC, 0),
			       EACCES);
}

/* --- O_PATH fds and fds that are not open -------------------------------- */

/*
 * Differs from the draft, which refused every O_PATH fd with EBADF.
 * Mainline accepts O_PATH fds for exec; a directory is then refused for
 * what it is, EACCES.
 */
static void o_path_directory_fd_fails_eacces(enum fd_form form)
{
	assert_fd_fails(m.dot_dfd_path, form, 0, EACCES);
}
ALL_FORMS(o_path_directory_fd_fails_eacces)

/* Differs from the draft (EBADF): mainline runs an executable O_PATH fd. */
static void o_path_program_fd_runs(enum fd_form form)
{
	assert_fd_runs(m.program_path, form, 0);
}
ALL_FORMS(o_path_program_fd_runs)

static void nonsense_fd_fails_ebadf(enum fd_form form)
{
	assert_fd_fails(NONSENSE_FD, form, 0, EBADF);
}
ALL_FORMS(nonsense_fd_fails_ebadf)

static void path_in_nonsense_dfd_fails_ebadf(void **state)
{
	(void)state;
	assert_execveat_failed(run_execveat(NONSENSE_FD, FIXTURE_PROGRAM, 0),
			       EBADF);
}

/* --- ENOTDIR ------------------------------------------------------------- */

static void path_in_file_fd_fails_enotdir(void **state)
{
	(void)state;
	assert_execveat_failed(run_execveat(m.program, FIXTURE_PROGRAM, 0),
			       ENOTDIR);
}

/* --- Mainline only: what users of the fd form run into ------------------- */

/*
 * The shell would have to open /dev/fd/N, which the exec has just closed;
 * since 3.19 the kernel refuses up front rather than start a shell that
 * cannot read its script.
 */
static void cloexec_script_fd_fails_enoent(enum fd_form form)
{
	char name[NAME_MAX + 1];
	int fd = open_fresh_script(name, O_RDONLY | O_CLOEXEC);

	assert_fd_fails(fd, form, 0, ENOENT);
	close(fd);
}
ALL_FORMS(cloexec_script_fd_fails_enoent)

/* A binary needs no name after exec: CLOEXEC changes nothing for it. */
static void cloexec_program_fd_runs(enum fd_form form)
{
	char name[NAME_MAX + 1];
	int fd = open_fresh_program(name, O_RDONLY | O_CLOEXEC);

	assert_fd_runs(fd, form, 0);
	close(fd);
}
ALL_FORMS(cloexec_program_fd_runs)

/* Only regular files run, whatever their mode bits say. */
static void fifo_fd_fails_eacces(enum fd_form form)
{
	int fd = openat(m.dot_dfd, FIXTURE_FIFO, O_RDWR);

	assert_true(fd >= 0);
	assert_fd_fails(fd, form, 0, EACCES);
	close(fd);
}
ALL_FORMS(fifo_fd_fails_eacces)

static void non_executable_fd_fails_eacces(enum fd_form form)
{
	int fd = openat(m.dot_dfd, FIXTURE_NONEXEC, O_RDONLY);

	assert_true(fd >= 0);
	assert_fd_fails(fd, form, 0, EACCES);
	close(fd);
}
ALL_FORMS(non_executable_fd_fails_eacces)

/* O_PATH skips the open-time checks; exec still checks the mode. */
static void non_executable_o_path_fd_fails_eacces(enum fd_form form)
{
	int fd = openat(m.dot_dfd, FIXTURE_NONEXEC, O_PATH);

	assert_true(fd >= 0);
	assert_fd_fails(fd, form, 0, EACCES);
	close(fd);
}
ALL_FORMS(non_executable_o_path_fd_fails_eacces)

/* The kernel reads the file from offset 0, not from the fd's position. */
static void fd_with_offset_past_start_runs(enum fd_form form)
{
	char name[NAME_MAX + 1];
	int fd = open_fresh_program(name, O_RDONLY);

	assert_int_equal(lseek(fd, 100, SEEK_SET), 100);
	assert_fd_runs(fd, form, 0);
	close(fd);
}
ALL_FORMS(fd_with_offset_past_start_runs)

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
	assert_execveat_runs(run_execveat(m.dot_dfd, path, 0));
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
	const struct CMUnitTest tests[] = {
		/* dfd + path */
		cmocka_unit_test(path_up_from_subdir_dfd_runs),
		cmocka_unit_test(path_in_dir_dfd_runs),
		cmocka_unit_test(path_in_o_path_dir_dfd_runs),
		/* absolute path */
		cmocka_unit_test(absolute_path_with_at_fdcwd_runs),
		/* absolute path, nonsense dfd */
		cmocka_unit_test(absolute_path_ignores_nonsense_dfd),
		/* the fd itself */
		ALL_FORMS_TESTS(program_fd_runs),
		/* renamed and deleted behind an open fd */
		ALL_FORMS_TESTS(fd_of_renamed_program_runs),
		ALL_FORMS_TESTS(fd_of_deleted_program_runs),
		/* symlinks */
		cmocka_unit_test(symlink_in_dir_dfd_runs),
		cmocka_unit_test(symlink_in_o_path_dir_dfd_runs),
		cmocka_unit_test(absolute_symlink_runs),
		ALL_FORMS_TESTS(fd_opened_through_symlink_runs),
		BOTH_FORMS_TESTS(fd_via_symlink_runs_despite_nofollow),
		/* symlinks with AT_SYMLINK_NOFOLLOW */
		cmocka_unit_test(symlink_with_nofollow_fails_eloop),
		cmocka_unit_test(symlink_in_o_path_dfd_nofollow_fails_eloop),
		cmocka_unit_test(absolute_symlink_with_nofollow_fails_eloop),
		/* scripts */
		cmocka_unit_test(script_up_from_subdir_dfd_runs),
		cmocka_unit_test(script_in_dir_dfd_runs),
		cmocka_unit_test(script_in_o_path_dir_dfd_runs),
		cmocka_unit_test(absolute_script_runs),
		ALL_FORMS_TESTS(script_fd_runs),
		BOTH_FORMS_TESTS(script_fd_runs_despite_nofollow),
		/* renamed and deleted scripts */
		ALL_FORMS_TESTS(fd_of_renamed_script_runs),
		ALL_FORMS_TESTS(fd_of_deleted_script_runs),
		/* renamed and deleted subdirectories */
		cmocka_unit_test(script_up_from_renamed_subdir_runs),
		cmocka_unit_test(script_in_renamed_subdir_runs),
		cmocka_unit_test(script_up_from_deleted_subdir_runs),
		cmocka_unit_test(script_in_deleted_subdir_fails_enoent),
		/* bad flags */
		cmocka_unit_test(unknown_flags_fail_einval),
		/* ENOENT */
		cmocka_unit_test(missing_file_in_dir_dfd_fails_enoent),
		cmocka_unit_test(missing_file_in_o_path_dir_dfd_fails_enoent),
		cmocka_unit_test(missing_file_in_cwd_fails_enoent),
		/* EACCES */
		ALL_FORMS_TESTS(directory_fd_fails_eacces),
		cmocka_unit_test(non_executable_file_fails_eacces),
		/* O_PATH (the draft's EBADF) and fds that are not open */
		ALL_FORMS_TESTS(o_path_directory_fd_fails_eacces),
		ALL_FORMS_TESTS(o_path_program_fd_runs),
		ALL_FORMS_TESTS(nonsense_fd_fails_ebadf),
		cmocka_unit_test(path_in_nonsense_dfd_fails_ebadf),
		/* ENOTDIR */
		cmocka_unit_test(path_in_file_fd_fails_enotdir),
		/* mainline only */
		ALL_FORMS_TESTS(cloexec_script_fd_fails_enoent),
		ALL_FORMS_TESTS(cloexec_program_fd_runs),
		ALL_FORMS_TESTS(fifo_fd_fails_eacces),
		ALL_FORMS_TESTS(non_executable_fd_fails_eacces),
		ALL_FORMS_TESTS(non_executable_o_path_fd_fails_eacces),
		ALL_FORMS_TESTS(fd_with_offset_past_start_runs),
		cmocka_unit_test(path_of_path_max_minus_one_bytes_runs),
		cmocka_unit_test(path_of_path_max_bytes_fails_enametoolong),
		cmocka_unit_test(
			script_at_path_of_path_max_minus_one_bytes_cannot_be_read),
	};

	int failed;

	fixture_init(argc, argv);
	failed = cmocka_run_group_tests(tests, matrix_fds_open, NULL);
	return matrix_fds_close() == 0 ? failed : 1;
}
