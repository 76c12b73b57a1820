/*
 * inroot_utimens, inroot_futimens: a file's timestamps beneath a root,
 * and through an fd.
 *
 * The path form: utimensat of the held name with AT_SYMLINK_NOFOLLOW,
 * which every kernel since 2.6.22 takes. The fd form: utimensat(fd, "",
 * AT_EMPTY_PATH), which takes an O_PATH fd; where a kernel refuses
 * AT_EMPTY_PATH there (EINVAL: older kernels), the fd itself where it
 * is open to read or write (a NULL path), a directory's own ".", or the
 * fd's proven /proc entry, followed, which opens nothing; else
 * EOPNOTSUPP.
 */
#define _GNU_SOURCE /* O_PATH */
#include <fcntl.h>
#include <sys/stat.h>

#include "../exports.h"
#include "held_file.h"
#include "inroot.h"
#include "proc_entry.h"
#include "../sys_2_1.h"

EXECVEAT_EXPORT int inroot_utimens(int root, const char *path,
				   const struct timespec *times, int flags)
{
	struct held_parent p;
	int r;

	r = libexecveat_hold_file_flags(root, path, flags, &p);
	if (r != 0)
		return answer(r);
	r = call_result(sys_utimensat(p.fd, p.name, times,
				      AT_SYMLINK_NOFOLLOW));
	libexecveat_release_parent(&p);
	return answer(r);
}

/* A way to fd's file that needs no AT_EMPTY_PATH. */
static int utimens_without_empty_path(int fd, const struct timespec ts[2])
{
	char name[FD_NAME_SIZE];
	struct stat st;
	int flags = sys_fcntl_getfl(fd), dir, r;

	if (flags < 0)
		return -errno;
	if (!(flags & O_PATH))
		return call_result(sys_utimensat(fd, NULL, ts, 0));
	if (sys_fstat(fd, &st) != 0)
		return -errno;
	if (S_ISDIR(st.st_mode)) {
		r = call_result(sys_utimensat(fd, ".", ts, 0));
		if (r != -EACCES)
			return r;
	}
	dir = libexecveat_proc_entry(fd, &st, name);
	if (dir < 0)
		return dir;
	r = call_result(sys_utimensat(dir, name, ts, 0));
	sys_close(dir);
	return r;
}

EXECVEAT_EXPORT int inroot_futimens(int fd, const struct timespec *times)
{
	int r = call_result(sys_utimensat(fd, "", times, AT_EMPTY_PATH));

	if (r == -EINVAL)
		r = utimens_without_empty_path(fd, times);
	return answer(r);
}
