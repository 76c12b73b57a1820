/*
 * An unmodified program: freopen(NULL, "rb", stdin), the idiom for a
 * binary stdin (or freopen(NAME, "rb", stdin) given a NAME), then stdin
 * copied to stdout. Built against the C library
 * alone; built with -D_FILE_OFFSET_BITS=64, it calls freopen64.
 */
#include <stdio.h>

int main(int argc, char **argv)
{
	int c;

	if (freopen(argc > 1 ? argv[1] : NULL, "rb", stdin) == NULL) {
		perror("freopen");
		return 1;
	}
	while ((c = getchar()) != EOF)
		putchar(c);
	return ferror(stdin) ? 1 : 0;
}
