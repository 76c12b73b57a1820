#define _GNU_SOURCE
#include "matrix_fds.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

struct matrix_fds m;

static int openat_or_fail(int dfd, const char *name, int flags)
{
	int fd = openat(dfd, name, flags);

	if (fd < 0)
		fail_msg("open %s: %m", name);
	return fd;
}

int matrix_fds_open(void **state)
{
	(void)state;
	/* The nonsense fd must really be closed, or its cases prove nothing. */
	if (fcntl(NONSENSE_FD, F_GETFD) != -1 || errno != EBADF)
		fail_msg("fd %d is open in the test process", NONSENSE_FD);

	fixture_dir_create(&m.dir);
	m.dot_dfd = m.dir.dfd;
	m.dot_dfd_path = openat_or_fail(m.dot_dfd, ".", O_DIRECTORY | O_PATH);
	m.subdir_dfd = openat_or_fail(m.dot_dfd, FIXTURE_SUBDIR,
				      O_DIRECTORY | O_RDONLY);
	m.program = openat_or_fail(m.dot_dfd, FIXTURE_PROGRAM, O_RDONLY);
	m.program_path = openat_or_fail(m.dot_dfd, FIXTURE_PROGRAM, O_PATH);
	m.symlink = openat_or_fail(m.dot_dfd, FIXTURE_SYMLINK, O_RDONLY);
	m.script = openat_or_fail(m.dot_dfd, FIXTURE_SCRIPT, O_RDONLY);
	fixture_path(&m.dir, FIXTURE_PROGRAM, m.program_abs);
	fixture_path(&m.dir, FIXTURE_SYMLINK, m.symlink_abs);
	fixture_path(&m.dir, FIXTURE_SCRIPT, m.script_abs);
	return 0;
}

int matrix_fds_close(void)
{
	close(m.dot_dfd_path);
	close(m.subdir_dfd);
	close(m.program);
	close(m.program_path);
	close(m.symlink);
	close(m.script);
	return fixture_dir_remove(&m.dir);
}

const char *fresh_name(const char *base)
{
	static char name[NAME_MAX + 1];
	static unsigned int serial;

	snprintf(name, sizeof(name), "%s.%u", base, ++serial);
	return name;
}

int open_fresh_program(char *name, int flags)
{
	strcpy(name, fresh_name(FIXTURE_PROGRAM));
	fixture_add_program(m.dot_dfd, name, 0755);
	return openat_or_fail(m.dot_dfd, name, flags);
}

int open_fresh_script(char *name, int flags)
{
	strcpy(name, fresh_name(FIXTURE_SCRIPT));
	fixture_add_script(m.dot_dfd, name);
	return openat_or_fail(m.dot_dfd, name, flags);
}

void rename_fixture(const char *from, const char *to)
{
	if (renameat(m.dot_dfd, from, m.dot_dfd, to) != 0)
		fail_msg("rename %s %s: %m", from, to);
}

void unlink_fixture(const char *name)
{
	if (unlinkat(m.dot_dfd, name, 0) != 0)
		fail_msg("unlink %s: %m", name);
}
