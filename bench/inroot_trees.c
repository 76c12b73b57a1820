#define _GNU_SOURCE
#include "inroot_trees.h"
#include "naive_inroot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char deep_file_path[] = "o01/o02/o03/o04/o05/o06/o07/o08/o09/o10/"
			      "o11/o12/o13/o14/o15/o16/file";

int build_deep_file(void)
{
	char dirs[sizeof deep_file_path];

	memcpy(dirs, deep_file_path, sizeof dirs);
	*strrchr(dirs, '/') = '\0';
	if (naive_mkdir_all(dirs, 0755) != 0)
		return -1;
	return mknod(deep_file_path, S_IFREG | 0644, 0);
}

void mkdir_chain_path(int i, char *buf, size_t size)
{
	int len = snprintf(buf, size, "m%d", i);

	for (int level = 2; level <= TREE_DEPTH && len > 0 &&
			    (size_t)len < size; level++)
		len += snprintf(buf + len, size - (size_t)len, "/m%02d", level);
}

int remove_mkdir_chain(int i)
{
	char path[256];
	char *slash;

	mkdir_chain_path(i, path, sizeof path);
	for (;;) {
		if (rmdir(path) != 0)
			return -1;
		slash = strrchr(path, '/');
		if (slash == NULL)
			return 0;
		*slash = '\0';
	}
}

static int fill_dir(int top, int d)
{
	char name[16];
	int dir, rc = 0;

	snprintf(name, sizeof name, "d%02d", d);
	if (mkdirat(top, name, 0755) != 0)
		return -1;
	dir = openat(top, name, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return -1;
	for (int f = 0; f < TREE_FILES_PER_DIR && rc == 0; f++) {
		snprintf(name, sizeof name, "f%02d", f);
		rc = mknodat(dir, name, S_IFREG | 0644, 0);
	}
	close(dir);
	return rc;
}

int build_removal_tree(const char *top)
{
	int fd, rc = 0;

	if (mkdir(top, 0755) != 0)
		return -1;
	fd = open(top, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	for (int d = 0; d < TREE_DIRS && rc == 0; d++)
		rc = fill_dir(fd, d);
	close(fd);
	return rc;
}
