/*
 * Proving that a /proc name may stand in for an fd.
 *
 * glibc execs /proc/self/fd/N on trust. Whoever controls the mount at /proc
 * (a container image, a sandbox, an attacker with a tmpfs) then decides
 * what runs. We exec the name only if the directory holding it is procfs
 * and the name resolves to the very file (st_dev, st_ino) behind the fd.
 *
 * The name is the calling thread's: /proc/self/fd is the thread-group
 * leader's table, which is not ours after unshare(CLONE_FILES).
 *
 * No allocation, no locks, no stdio: this runs between vfork and exec.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "proc_fallback.h"
#include "sys.h"

#define PROC_SUPER_MAGIC 0x9fa0 /* <linux/magic.h> */

/* Best first; a directory is skipped only when it does not exist. */
static const char *const fd_dirs[] = {
	"/proc/thread-self/fd/", /* Linux 3.17+ */
	"/proc/self/fd/",
};

/* Writes dir followed by the decimal digits of fd (>= 0). */
static void format_fd_path(char path[PROC_FD_PATH_SIZE], const char *dir,
			   int fd)
{
	char digits[10];
	size_t n = 0, dir_len = strlen(dir);
	unsigned int value = (unsigned int)fd;

	do {
		digits[n++] = (char)('0' + value % 10);
		value /= 10;
	} while (value != 0);

	memcpy(path, dir, dir_len);
	path += dir_len;
	while (n > 0)
		*path++ = digits[--n];
	*path = '\0';
}

/* The first fd directory that exists: statfs fills in its file system.
 * Returns NULL if there is none. */
static const char *existing_fd_dir(struct statfs *sfs)
{
	for (size_t i = 0; i < sizeof(fd_dirs) / sizeof(fd_dirs[0]); i++) {
		if (sys_statfs(fd_dirs[i], sfs) == 0)
			return fd_dirs[i];
		if (errno != ENOENT)
			return NULL;
	}
	return NULL;
}

enum proc_fd_verdict libexecveat_proc_fd_find(int fd, struct proc_fd_name *name)
{
	struct stat by_fd, by_name;
	struct statfs sfs;
	const char *dir;

	if (sys_fstat(fd, &by_fd) != 0)
		return PROC_FD_NOT_OPEN;
	name->mode = by_fd.st_mode;
	dir = existing_fd_dir(&sfs);
	if (dir == NULL)
		return PROC_FD_NO_DIR;
	format_fd_path(name->path, dir, fd);
	if (sfs.f_type != PROC_SUPER_MAGIC)
		return PROC_FD_NOT_PROCFS;
	if (sys_stat(name->path, &by_name) != 0)
		return PROC_FD_UNRESOLVED;
	if (by_fd.st_dev != by_name.st_dev || by_fd.st_ino != by_name.st_ino)
		return PROC_FD_OTHER_FILE;
	return PROC_FD_SAME_FILE;
}
