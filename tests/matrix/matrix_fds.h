/*
 * The open files the seed's matrix runs against, all inside a fresh
 * fixture directory: its test cases each add their own files to rename
 * and delete, so that every case stands alone.
 */
#ifndef TESTS_MATRIX_FDS_H
#define TESTS_MATRIX_FDS_H

#include <limits.h>

#include "fixture_dir.h"

/* The seed's fd for "a descriptor that is not open". */
#define NONSENSE_FD 99

struct matrix_fds {
	struct fixture_dir dir;
	int dot_dfd;        /* the fixture directory, O_RDONLY */
	int dot_dfd_path;   /* the same, O_PATH */
	int subdir_dfd;     /* its subdirectory */
	int program;        /* program, O_RDONLY */
	int program_path;   /* program, O_PATH */
	int symlink;        /* program opened through program.symlink */
	int script;         /* script, O_RDONLY */
	char program_abs[PATH_MAX];
	char symlink_abs[PATH_MAX];
	char script_abs[PATH_MAX];
};

extern struct matrix_fds m;

/* cmocka group setup: makes all of the above. */
int matrix_fds_open(void **state);

/* After the tests: closes and removes it all; 0, or an errno (printed). */
int matrix_fds_close(void);

/* A name no other case in this run has used, starting with base. */
const char *fresh_name(const char *base);

/* A new copy of the program or script under a fresh name, opened with
 * flags; its name is stored in name (NAME_MAX + 1 bytes). */
int open_fresh_program(char *name, int flags);
int open_fresh_script(char *name, int flags);

/* rename(2) and unlink(2) inside the fixture directory, or fail. */
void rename_fixture(const char *from, const char *to);
void unlink_fixture(const char *name);

#endif /* TESTS_MATRIX_FDS_H */
