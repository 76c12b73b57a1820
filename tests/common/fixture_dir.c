#define _GNU_SOURCE
#include "fixture_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fixture.h"

/* What report_args does, in sh: the same statuses for the same reasons. */
static const char script_text[] =
	"#!/bin/sh\n"
	"[ \"$IN_TEST\" = yes ] || exit 3\n"
	"[ $# -eq 1 ] || exit 4\n"
	"exit \"$1\"\n";

static void write_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);

		if (n <= 0)
			fail_msg("write: %m");
		buf += n;
		len -= (size_t)n;
	}
}

void fixture_copy_program_to(int fd)
{
	char buf[65536];
	ssize_t n;
	int src = open_or_fail(report_args_path, O_RDONLY | O_CLOEXEC);

	while ((n = read(src, buf, sizeof(buf))) > 0)
		write_all(fd, buf, (size_t)n);
	if (n < 0)
		fail_msg("read %s: %m", report_args_path);
	close(src);
}

static int create_at(int dfd, const char *name, mode_t mode)
{
	int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			mode);

	if (fd < 0)
		fail_msg("create %s: %m", name);
	/* The umask must not decide which fixtures are executable. */
	if (fchmod(fd, mode) != 0)
		fail_msg("chmod %s: %m", name);
	return fd;
}

void fixture_add_program(int dfd, const char *name, mode_t mode)
{
	int fd = create_at(dfd, name, mode);

	fixture_copy_program_to(fd);
	close(fd);
}

void fixture_add_script(int dfd, const char *name)
{
	int fd = create_at(dfd, name, 0755);

	write_all(fd, script_text, sizeof(script_text) - 1);
	close(fd);
}

char *fixture_path(const struct fixture_dir *dir, const char *name,
		   char path[PATH_MAX])
{
	if (snprintf(path, PATH_MAX, "%s/%s", dir->path, name) >= PATH_MAX)
		fail_msg("fixture path too long: %s/%s", dir->path, name);
	return path;
}

void fixture_dir_create(struct fixture_dir *dir)
{
	char parent[PATH_MAX];

	dir->dfd = -1;
	snprintf(parent, sizeof(parent), "%s", report_args_path);
	if (snprintf(dir->path, sizeof(dir->path), "%s/fixtures.XXXXXX",
		     dirname(parent)) >= (int)sizeof(dir->path) ||
	    mkdtemp(dir->path) == NULL) {
		dir->path[0] = '\0';
		fail_msg("mkdtemp beside %s: %m", report_args_path);
	}
	dir->dfd = open(dir->path, O_RDONLY | O_DIRECTORY);
	if (dir->dfd < 0)
		fail_msg("open %s: %m", dir->path);

	fixture_add_program(dir->dfd, FIXTURE_PROGRAM, 0755);
	fixture_add_program(dir->dfd, FIXTURE_NONEXEC, 0644);
	fixture_add_script(dir->dfd, FIXTURE_SCRIPT);
	fixture_add_script(dir->dfd, FIXTURE_NONEXEC_SCRIPT);
	if (fchmodat(dir->dfd, FIXTURE_NONEXEC_SCRIPT, 0644, 0) != 0 ||
	    symlinkat(FIXTURE_PROGRAM, dir->dfd, FIXTURE_SYMLINK) != 0 ||
	    mkdirat(dir->dfd, FIXTURE_SUBDIR, 0755) != 0 ||
	    mkfifoat(dir->dfd, FIXTURE_FIFO, 0755) != 0 ||
	    fchmodat(dir->dfd, FIXTURE_FIFO, 0755, 0) != 0)
		fail_msg("fixtures in %s: %m", dir->path);
}

/*
 * Removes everything below dfd, by fd rather than by path: the fixtures
 * include paths of PATH_MAX bytes, too long to pass whole to a call.
 */
static int remove_contents(int dfd)
{
	DIR *dir = fdopendir(dfd);
	struct dirent *entry;
	int err = 0;

	if (dir == NULL)
		return errno;
	while (err == 0 && (entry = readdir(dir)) != NULL) {
		const char *name = entry->d_name;
		int sub;

		if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
			continue;
		if (unlinkat(dirfd(dir), name, 0) == 0)
			continue;
		if (errno != EISDIR)
			err = errno;
		else if ((sub = openat(dirfd(dir), name,
				       O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
				       O_CLOEXEC)) < 0)
			err = errno;
		else if ((err = remove_contents(sub)) == 0 &&
			 unlinkat(dirfd(dir), name, AT_REMOVEDIR) != 0)
			err = errno;
	}
	closedir(dir);
	return err;
}

int fixture_dir_remove(struct fixture_dir *dir)
{
	int err;

	if (dir->path[0] == '\0')
		return 0; /* never made */
	if (dir->dfd < 0)
		dir->dfd = open(dir->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	err = dir->dfd < 0 ? errno : remove_contents(dir->dfd);
	dir->dfd = -1;
	if (err == 0 && rmdir(dir->path) != 0)
		err = errno;
	if (err != 0)
		fprintf(stderr, "cannot remove %s: %s\n", dir->path,
			strerror(err));
	return err;
}
