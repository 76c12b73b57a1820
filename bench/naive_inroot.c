#define _GNU_SOURCE
#include "naive_inroot.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Directories nftw may hold open at once: more than the trees are deep,
 * so that it never closes one to reopen it by name later. */
#define NFTW_FDS 16

int naive_mkdir_all(const char *path, mode_t mode)
{
	char prefix[PATH_MAX];
	size_t len = strlen(path);

	if (len >= sizeof prefix) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(prefix, path, len + 1);
	for (size_t i = 1; i <= len; i++) {
		if (prefix[i] != '/' && prefix[i] != '\0')
			continue;
		prefix[i] = '\0';
		if (mkdir(prefix, mode) != 0 && errno != EEXIST)
			return -1;
		prefix[i] = path[i];
	}
	return 0;
}

static int remove_entry(const char *path, const struct stat *st, int type,
			struct FTW *at)
{
	(void)st;
	(void)at;
	return unlinkat(AT_FDCWD, path, type == FTW_DP ? AT_REMOVEDIR : 0);
}

int naive_remove_all(const char *path)
{
	return nftw(path, remove_entry, NFTW_FDS, FTW_DEPTH | FTW_PHYS);
}

int naive_open(const char *path, int flags)
{
	return open(path, flags);
}
