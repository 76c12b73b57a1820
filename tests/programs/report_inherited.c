/*
 * Exits with the number of the fds named in its arguments that it
 * inherited open: what a program exec'd after closefrom still holds.
 * fcntl, not /proc: the worlds it runs in have none. Depends on the C
 * library alone, so that it starts where /proc is hidden.
 */
#include <fcntl.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int count = 0;

	for (int i = 1; i < argc; i++)
		count += fcntl(atoi(argv[i]), F_GETFD) != -1;
	return count;
}
