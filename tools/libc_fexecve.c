/*
 * libc-fexecve FD ARGV0 [ARG...]: fexecve(FD, ...) as the C library has it.
 * Built against the C library only, never linked with libexecveat, so it
 * shows the C library's own behaviour, or, run with
 * LD_PRELOAD=libexecveat.so.1, what preloading changes in such a program.
 * For tools/demo; not installed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: libc-fexecve FD ARGV0 [ARG...]\n");
		return 125;
	}
	fexecve(atoi(argv[1]), &argv[2], environ);
	fprintf(stderr, "libc-fexecve: fexecve: %s\n", strerror(errno));
	return 126;
}
