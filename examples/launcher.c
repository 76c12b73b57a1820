/*
 * launcher PROGRAM [ARG...]: run PROGRAM as a sandbox's launcher would,
 * with nothing inherited but standard input, output and error, and only
 * if the file is a regular file owned by root or by the caller that no
 * one else may write. What is checked is what runs: the check (fstat)
 * and the exec (fexecve) use the same open file, so a rename between the
 * two changes nothing.
 *
 * It works where /proc is hidden or fake and where a seccomp policy
 * refuses close_range or execveat: closefrom() then closes every fd all
 * the same, and fexecve() runs the file through a /proc it has proven,
 * or fails, never running another file.
 *
 *   cc -o launcher launcher.c $(pkg-config --cflags --libs execveat)
 *   ./launcher /bin/echo hello
 */
#define _GNU_SOURCE
#include <execveat.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* Owned by root or by the caller, and written by no one else. */
static int trusted(const struct stat *st)
{
	return S_ISREG(st->st_mode) &&
	       (st->st_uid == 0 || st->st_uid == geteuid()) &&
	       (st->st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

int main(int argc, char **argv)
{
	struct stat st;
	int fd;

	if (argc < 2) {
		fprintf(stderr, "usage: launcher PROGRAM [ARG...]\n");
		return 2;
	}
	/* Every fd above stderr the launcher was started with. */
	closefrom(3);

	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		perror(argv[1]);
		return 127;
	}
	if (fstat(fd, &st) != 0 || !trusted(&st)) {
		fprintf(stderr, "launcher: %s: not a regular file that only "
				"root or you may write\n", argv[1]);
		return 126;
	}
	fexecve(fd, argv + 1, environ);
	perror("launcher: fexecve");
	return 126;
}
