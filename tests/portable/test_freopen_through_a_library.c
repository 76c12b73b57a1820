/*
 * freopen reached through a library that links libexecveat, from a
 * program that links only that library: the C library comes before
 * libexecveat in the load order, and the library's freopen must still
 * find the C library's own for a name, and reopen the stream by its
 * proven /proc name for NULL.
 *
 *   test-freopen-through-a-library FILE
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

FILE *freopen_user_reopen(const char *name, const char *mode, FILE *stream);

static int expect_first_line(FILE *stream, const char *what)
{
	char line[64];

	if (fgets(line, sizeof line, stream) == NULL) {
		printf("FAIL: %s: nothing to read\n", what);
		return 1;
	}
	printf("ok %s: read %s", what, line);
	return 0;
}

int main(int argc, char **argv)
{
	FILE *stream = fopen("/dev/null", "r");
	int failed = 0;

	if (argc != 2 || stream == NULL) {
		fprintf(stderr, "usage: %s FILE\n", argv[0]);
		return 2;
	}
	if (freopen_user_reopen(argv[1], "r", stream) != stream) {
		printf("FAIL: freopen with a name: %s\n", strerror(errno));
		return 1;
	}
	failed |= expect_first_line(stream, "freopen with a name");
	if (freopen_user_reopen(NULL, "r", stream) != stream) {
		printf("FAIL: freopen(NULL): %s\n", strerror(errno));
		return 1;
	}
	failed |= expect_first_line(stream, "freopen(NULL), from the start");
	fclose(stream);
	return failed;
}
