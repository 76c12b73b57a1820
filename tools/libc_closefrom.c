/*
 * libc-closefrom: opens a file at fd 3, an O_PATH fd of "/" at fd 4 and
 * a file at fd 1500, lowers RLIMIT_NOFILE to 1024 below that last one, as
 * a sandbox launcher may find them, calls closefrom(3) as the C library
 * has it, and says which of them are still open. Built against the C
 * library only, never linked with libexecveat, so it shows the C
 * library's own closefrom, or, run with LD_PRELOAD=libexecveat.so.1,
 * what preloading changes. For tools/demo; not installed.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

int main(void)
{
	static const int fds[] = { 3, 4, 1500 };
	struct rlimit lowered = { 1024, 1024 };
	int open_after = 0;

	if (open("/dev/null", O_RDONLY) != 3 || open("/", O_PATH) != 4 ||
	    dup2(3, 1500) != 1500 || setrlimit(RLIMIT_NOFILE, &lowered) != 0) {
		perror("libc-closefrom: setup");
		return 125;
	}
	closefrom(3);
	printf("-> closefrom returned;");
	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		if (fcntl(fds[i], F_GETFD) != -1) {
			printf("%s %d", open_after++ ? "," : " STILL OPEN:",
			       fds[i]);
		}
	printf("%s\n", open_after ? "" : " fds 3, 4 (O_PATH) and 1500 closed");
	return open_after != 0;
}
