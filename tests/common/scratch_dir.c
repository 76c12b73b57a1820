#define _GNU_SOURCE
#include "scratch_dir.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

int scratch_dir_make(char *template)
{
	if (mkdtemp(template) == NULL || chmod(template, 0755) < 0)
		return -1;
	return open(template, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

int scratch_dir_remove(const char *path, int fd)
{
	char cmd[PATH_MAX + 16];

	close(fd);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", path);
	return system(cmd) == 0 ? 0 : -1;
}
