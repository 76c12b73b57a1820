/*
 * A path argument, read as the kernel's getname reads it (no byte past
 * PATH_MAX, and NULL refused before anything is read), and split into
 * its names as its lookup splits it.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "../null_check.h"
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

enum last_kind libexecveat_name_kind(const char *name, size_t len)
{
	if (len == 1 && name[0] == '.')
		return LAST_IS_DOT;
	if (len == 2 && name[0] == '.' && name[1] == '.')
		return LAST_IS_DOTDOT;
	return LAST_IS_NAME;
}

size_t libexecveat_slashes_trimmed(const char *path, size_t len)
{
	while (len > 1 && path[len - 1] == '/')
		len--;
	return len;
}

bool libexecveat_next_name(const char *path, size_t *start, size_t *end)
{
	while (path[*start] == '/')
		(*start)++;
	*end = *start;
	while (path[*end] != '\0' && path[*end] != '/')
		(*end)++;
	return *end > *start;
}

enum last_kind libexecveat_last_name(const char *path, size_t *start,
				     size_t *end)
{
	*end = strlen(path);
	while (*end > 0 && path[*end - 1] == '/')
		(*end)--;
	*start = *end;
	while (*start > 0 && path[*start - 1] != '/')
		(*start)--;
	if (*end == 0)
		return LAST_IS_ROOT;
	return libexecveat_name_kind(path + *start, *end - *start);
}
