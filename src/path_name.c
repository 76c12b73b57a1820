/*
 * A path argument, read as the kernel's getname reads it: no byte past
 * PATH_MAX, and NULL refused before anything is read.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "null_check.h"
#include "path_name.h"

int libexecveat_path_length(const char *path, size_t *len)
{
	if (pointer_is_null(path))
		return -EFAULT;
	*len = strnlen(path, PATH_MAX);
	return *len == PATH_MAX ? -ENAMETOOLONG : 0;
}

int libexecveat_check_path(const char *path)
{
	size_t len;
	int err = libexecveat_path_length(path, &len);

	if (err == 0 && len == 0)
		return -ENOENT;
	return err;
}
