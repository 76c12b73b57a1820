/*
 * A fresh directory of fixtures for one run of a test program: copies of
 * report_args, a script doing the same job, a symlink, a subdirectory.
 * Made by the tests themselves, so nothing is checked in or left behind.
 */
#ifndef TESTS_FIXTURE_DIR_H
#define TESTS_FIXTURE_DIR_H

#include <limits.h>
#include <sys/types.h>

/* The names fixture_dir_create() makes inside the directory. */
#define FIXTURE_PROGRAM "program"          /* report_args, mode 0755 */
#define FIXTURE_SYMLINK "program.symlink"  /* -> program */
#define FIXTURE_SCRIPT "script"            /* #!/bin/sh, mode 0755 */
#define FIXTURE_NONEXEC "nonexec"          /* report_args, mode 0644 */
#define FIXTURE_NONEXEC_SCRIPT "nonexec-script" /* #!/bin/sh, mode 0644 */
#define FIXTURE_SUBDIR "subdir"
#define FIXTURE_FIFO "fifo"                /* mode 0755 */

/*
 * The status of /bin/sh when it cannot open the script it was started
 * for: 2 from dash, Debian's /bin/sh ("cannot open /dev/fd/3"). Run by fd,
 * a script is named to the shell as /dev/fd/N, which needs /proc and a
 * path short enough to open.
 */
#define SHELL_CANNOT_OPEN_SCRIPT 2

struct fixture_dir {
	char path[PATH_MAX]; /* absolute */
	int dfd;             /* O_DIRECTORY, not CLOEXEC */
};

/* Makes a new directory beside report_args (where the build put an
 * executable, so the file system allows exec) and fills it. */
void fixture_dir_create(struct fixture_dir *dir);

/* Removes the directory and all it holds, and closes dfd; returns 0 or
 * an errno (printed). Uses no cmocka assertion: call it after the tests
 * have run, so that a failure to clean up fails the program. */
int fixture_dir_remove(struct fixture_dir *dir);

/* dir->path + "/" + name, in a buffer of PATH_MAX bytes. */
char *fixture_path(const struct fixture_dir *dir, const char *name,
		   char path[PATH_MAX]);

/* One more copy of report_args or of the script, relative to dfd, for
 * tests that rename or delete what they run. */
void fixture_add_program(int dfd, const char *name, mode_t mode);
void fixture_add_script(int dfd, const char *name);

/* Copies report_args into fd (a memfd, say). */
void fixture_copy_program_to(int fd);

#endif /* TESTS_FIXTURE_DIR_H */
