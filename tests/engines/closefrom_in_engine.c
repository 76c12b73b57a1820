/*
 * closefrom() and close_range() in an engine's world, for the engines
 * suite: built against the C library alone (glibc's own functions, or the
 * library's where it is preloaded) and linked with -lexecveat
 * (-DLINKED), the same source.
 *
 *   closefrom_in_engine
 *
 * Opens five fds above 2 (one O_PATH, one moved above 1000), then
 * prints, one line each:
 *   close_range errno N | close_range 0   the raw call, (3, ~0U, 0)
 *   close_range left N                    close_range(3, ~0U, 0): fds left open
 *   closefrom left N                      closefrom(3): fds left open
 * and exits 0; 2 when it could not open its fds. A function that aborts
 * the program or never returns shows as the engine's exit status.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifdef LINKED
#include <execveat.h>
#endif

#define FDS 5

static int fds[FDS];

static int open_fds(void)
{
	for (int i = 0; i < FDS; i++) {
		fds[i] = open(i == 0 ? "/" : "/dev/null",
			      i == 0 ? O_PATH : O_RDONLY);
		if (fds[i] < 3)
			return -1;
	}
	int high = fcntl(fds[FDS - 1], F_DUPFD, 1000);

	if (high < 0)
		return -1;
	close(fds[FDS - 1]);
	fds[FDS - 1] = high;
	return 0;
}

static int left_open(void)
{
	int left = 0;

	for (int i = 0; i < FDS; i++)
		left += fcntl(fds[i], F_GETFD) != -1;
	return left;
}

int main(void)
{
	/* Each line out before the next call, which may abort. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (open_fds() < 0)
		return 2;
	if (syscall(436, 3L, (long)~0U, 0L) == 0)
		printf("close_range 0\n");
	else
		printf("close_range errno %d\n", errno);
	if (open_fds() < 0)
		return 2;
	close_range(3, ~0U, 0);
	printf("close_range left %d\n", left_open());
	if (open_fds() < 0)
		return 2;
	closefrom(3);
	printf("closefrom left %d\n", left_open());
	return 0;
}
