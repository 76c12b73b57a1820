/*
 * The program the tests exec. It proves that its argv and environment
 * arrived: with IN_TEST=yes in the environment and exactly one argument,
 * it exits with that argument as its status; otherwise with 3 or 4.
 */
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	const char *in_test = getenv("IN_TEST");

	if (in_test == NULL || strcmp(in_test, "yes") != 0)
		return 3;
	if (argc != 2)
		return 4;
	return atoi(argv[1]);
}
