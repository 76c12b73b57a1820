/*
 * A program built from the install tree with nothing but
 * `pkg-config --cflags --libs execveat`. It runs /bin/sh, which exits 42,
 * through the library: with execveat's null path (glibc's own execveat
 * would fail with EFAULT), or with fexecve.
 *
 *   installed_program execveat|fexecve
 */
#include <execveat.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

extern char **environ;

int main(int argc, char **argv)
{
	char *sh_argv[] = { "sh", "-c", "exit 42", NULL };
	int fd = open("/bin/sh", O_RDONLY | O_CLOEXEC);

	if (argc != 2 || fd < 0)
		return 2;
	if (strcmp(argv[1], "execveat") == 0)
		execveat(fd, NULL, sh_argv, environ, 0);
	else if (strcmp(argv[1], "fexecve") == 0)
		fexecve(fd, sh_argv, environ);
	perror(argv[1]);
	return 1;
}
