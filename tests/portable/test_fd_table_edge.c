/*
 * The fd table's edge, as closefrom and the fd searches without /proc
 * prove it with select(2) (src/fd_table/fd_scan.c): in a process with a few fds
 * it is proven, and every number from it up is closed; where an fd of 700
 * has grown the table past what a 1024-bit set can prove, it is not (0),
 * and the scans run to their bound. Under qemu-user too, whose pselect6
 * fails a call whose timeout it cannot write back: an edge unproven there
 * made every scan run to 1048576.
 *
 * Links the static library, where the hidden symbol is. Libc-neutral.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

#include "fd_table/fd_range.h"

static int failed;

static void check(bool ok, const char *name, int edge)
{
	printf("%s %s: edge %d\n", ok ? "ok" : "not ok", name, edge);
	failed += !ok;
}

/* Every number from edge to the next power of two past it is closed. */
static bool closed_from(int edge)
{
	for (int fd = edge; fd < 2 * edge + 2; fd++)
		if (fcntl(fd, F_GETFD) != -1)
			return false;
	return true;
}

int main(void)
{
	int edge;

	setvbuf(stdout, NULL, _IONBF, 0);
	for (int fd = 3; fd < 1024; fd++)
		close(fd);
	edge = libexecveat_fd_table_edge();
	check(edge > 2 && edge <= 511 && closed_from(edge),
	      "a_few_fds_have_a_proven_edge", edge);
	if (dup2(0, 700) != 700) {
		perror("dup2");
		return 2;
	}
	edge = libexecveat_fd_table_edge();
	check(edge == 0, "an_fd_of_700_is_past_what_select_proves", edge);
	return failed != 0;
}
