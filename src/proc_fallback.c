/*
 * Proving that /proc/self/fd/N may stand in for fd N.
 *
 * glibc execs /proc/self/fd/N on trust. Whoever controls the mount at /proc
 * (a container image, a sandbox, an attacker with a tmpfs) then decides
 * what runs. We exec the name only if the directory holding it is procfs
 * and the name resolves to the very file (st_dev, st_ino) behind the fd.
 *
 * No allocation, no locks, no stdio: this runs between vfork and exec.
 */
#include <stdbool.h>
#include <string.h>

#include "proc_fallback.h"
#include "sys.h"

#define PROC_FD_DIR "/proc/self/fd/"
#define PROC_SUPER_MAGIC 0x9fa0 /* <linux/magic.h> */

void proc_fd_path(char path[PROC_FD_PATH_SIZE], int fd)
{
	char digits[10];
	size_t n = 0;
	unsigned int value = (unsigned int)fd;

	do {
		digits[n++] = (char)('0' + value % 10);
		value /= 10;
	} while (value != 0);

	memcpy(path, PROC_FD_DIR, sizeof(PROC_FD_DIR) - 1);
	path += sizeof(PROC_FD_DIR) - 1;
	while (n > 0)
		*path++ = digits[--n];
	*path = '\0';
}

static bool dir_is_procfs(const char *dir)
{
	struct statfs sfs;

	return sys_statfs(dir, &sfs) == 0 && sfs.f_type == PROC_SUPER_MAGIC;
}

enum proc_fd_verdict proc_fd_path_check(const char *path, int fd)
{
	struct stat by_fd, by_name;

	if (sys_fstat(fd, &by_fd) != 0)
		return PROC_FD_NOT_OPEN;
	if (!dir_is_procfs(PROC_FD_DIR) || sys_stat(path, &by_name) != 0)
		return PROC_FD_UNTRUSTED;
	if (by_fd.st_dev != by_name.st_dev || by_fd.st_ino != by_name.st_ino)
		return PROC_FD_UNTRUSTED;
	return PROC_FD_SAME_FILE;
}
