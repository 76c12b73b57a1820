/* Runs /bin/sh through its fd with the NULL-path execveat, so its exit
 * status (7) shows the subproject's library did it. */
#include <fcntl.h>
#include <stdio.h>

#include <execveat.h>

int main(void)
{
	char *argv[] = { "sh", "-c", "exit 7", NULL };
	char *envp[] = { NULL };
	int fd = open("/bin/sh", O_RDONLY | O_CLOEXEC);

	execveat(fd, NULL, argv, envp, 0);
	perror("execveat");
	return 1;
}
