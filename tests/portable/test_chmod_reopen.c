/*
 * fchmodat's step without /proc (src/chmod_fallback.c) when the name
 * changes between the lookup and the reopen: the file first looked up is
 * the one whose (st_dev, st_ino) the step is given; the name is then made
 * to name another file, a symlink, or a FIFO, as a rename racing with the
 * call would. The step must refuse (EAGAIN) and change nothing, and must
 * not block on the FIFO. The race is made deterministic by calling the
 * step itself, from the static library, with the name already swapped.
 *
 * Libc-neutral, so that musl and the qemu-user builds run it. Prints one
 * line per case and "N passed, N failed".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chmod_fallback.h"

static int dir = -1;
static int passed, failed;

static mode_t mode_of(const char *name)
{
	struct stat st;

	return fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0 ?
	       st.st_mode & 07777 : (mode_t)-1;
}

static void check(bool ok, const char *name, const char *detail)
{
	printf("%s %s%s%s\n", ok ? "ok" : "not ok", name, ok ? "" : ": ",
	       ok ? "" : detail);
	if (ok)
		passed++;
	else
		failed++;
}

static void make_file(const char *name)
{
	int fd = openat(dir, name, O_CREAT | O_WRONLY | O_TRUNC, 0644);

	if (fd < 0 || fchmod(fd, 0644) != 0) {
		perror(name);
		exit(2);
	}
	close(fd);
}

/* "target" looked up, then "target" made to name what swap() makes;
 * the first file stays reachable as "first". */
static void swapped_case(const char *name, void (*swap)(void),
			 const char *swapped_in)
{
	struct stat first;
	char detail[160];
	int rc, err;

	make_file("target");
	if (fstatat(dir, "target", &first, 0) != 0 ||
	    renameat(dir, "target", dir, "first") != 0) {
		perror("setup");
		exit(2);
	}
	swap();
	rc = libexecveat_chmod_by_reopening(dir, "target", &first, 0600);
	err = errno;
	snprintf(detail, sizeof(detail), "returned %d (%s); first %04o, %s "
		 "%04o", rc, rc ? strerror(err) : "-", (unsigned)mode_of("first"),
		 swapped_in, (unsigned)mode_of(swapped_in));
	check(rc == -1 && err == EAGAIN && mode_of("first") == 0644 &&
	      mode_of(swapped_in) == 0644, name, detail);
	unlinkat(dir, "first", 0);
	unlinkat(dir, "target", 0);
	unlinkat(dir, "other", 0);
}

/* A swap that could not be made proves nothing: the run stops. */
static void swapped(int rc, const char *what)
{
	if (rc != 0) {
		perror(what);
		exit(2);
	}
}

static void swap_in_another_file(void)
{
	make_file("other");
	swapped(renameat(dir, "other", dir, "target"), "rename");
}

static void swap_in_a_symlink(void)
{
	make_file("other");
	swapped(symlinkat("other", dir, "target"), "symlink");
}

static void swap_in_a_fifo(void)
{
	swapped(mkfifoat(dir, "target", 0644), "mkfifo");
	swapped(fchmodat(dir, "target", 0644, 0), "chmod");
}

static void unchanged_name_changes_mode(void)
{
	struct stat st;
	char detail[64];
	int rc;

	make_file("target");
	fstatat(dir, "target", &st, 0);
	rc = libexecveat_chmod_by_reopening(dir, "target", &st, 0600);
	snprintf(detail, sizeof(detail), "returned %d, mode %04o", rc,
		 (unsigned)mode_of("target"));
	check(rc == 0 && mode_of("target") == 0600,
	      "same_file_reopened_changes_mode", detail);
	unlinkat(dir, "target", 0);
}

int main(void)
{
	char top[] = "/tmp/test-chmod-reopen.XXXXXX";

	setvbuf(stdout, NULL, _IONBF, 0);
	if (mkdtemp(top) == NULL || (dir = open(top, O_RDONLY | O_DIRECTORY)) < 0) {
		perror("fixture");
		return 2;
	}
	unchanged_name_changes_mode();
	swapped_case("renamed_over_by_another_file_is_eagain",
		     swap_in_another_file, "target");
	/* The symlink's target keeps its mode: nothing was followed. */
	swapped_case("replaced_by_a_symlink_is_eagain", swap_in_a_symlink,
		     "other");
	/* A blocking open of a FIFO without a writer would never return. */
	swapped_case("replaced_by_a_fifo_is_eagain_without_blocking",
		     swap_in_a_fifo, "target");
	rmdir(top);
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0 || passed == 0;
}
