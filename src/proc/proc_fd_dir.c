/*
 * Proving that a /proc fd directory is procfs and this thread's own table.
 *
 * Every proof is made on the directory fd once it is open, and every name
 * that is used afterwards is looked up relative to that fd: a mount made
 * at /proc after the proof cannot stand in for it.
 *
 * No allocation, no locks, no stdio: closefrom runs between fork and exec.
 */
#include <errno.h>
#include <stdbool.h>

#include "proc_fd_dir.h"
#include "../path/same_file.h"
#include "../syscalls/fds.h"
#include "../syscalls/files.h"

void libexecveat_fd_name(char name[FD_NAME_SIZE], int fd)
{
	char digits[10];
	size_t n = 0;
	unsigned int value = (unsigned int)fd;

	do {
		digits[n++] = (char)('0' + value % 10);
		value /= 10;
	} while (value != 0);
	while (n > 0)
		*name++ = digits[--n];
	*name = '\0';
}

int libexecveat_proc_fd_names(int dir, int fd, const struct stat *st)
{
	char name[FD_NAME_SIZE];
	struct stat by_name;

	libexecveat_fd_name(name, fd);
	/* Following the entry, which procfs makes a link to the open file. */
	return sys_fstatat(dir, name, &by_name, 0) == 0 &&
	       libexecveat_same_file(&by_name, st);
}

/* An open or a pipe refused for want of an fd or of memory: the fd
 * limit's answer, not /proc's. */
static bool no_fd_free(int r)
{
	return r == -EMFILE || r == -ENFILE || r == -ENOMEM;
}

/*
 * A pipe is a new inode that only the table it was made in holds: listed
 * in dir as itself, it proves dir to be that table. 0 where it is listed,
 * -ENOENT where it is not, or the pipe's -errno.
 */
static int judge_witness(int dir, enum proc_fd_dir_verdict *verdict)
{
	int pipe_fds[2];
	struct stat witness;
	bool listed;
	int r = sys_pipe2(pipe_fds, O_CLOEXEC);

	if (r < 0) {
		*verdict = no_fd_free(r) ? PROC_FD_DIR_NO_FD :
					   PROC_FD_DIR_NO_WITNESS;
		return r;
	}
	listed = sys_fstat(pipe_fds[0], &witness) == 0 &&
		 libexecveat_proc_fd_names(dir, pipe_fds[0], &witness);
	sys_close(pipe_fds[0]);
	sys_close(pipe_fds[1]);
	*verdict = listed ? PROC_FD_DIR_PROVEN : PROC_FD_DIR_OTHER_TABLE;
	return listed ? 0 : -ENOENT;
}

/* path opened and proven: the directory fd, or -errno. */
static int open_proven(const char *path, enum proc_fd_dir_verdict *verdict)
{
	struct statfs sfs;
	int dir = sys_openat(AT_FDCWD, path,
			     O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0), r;

	if (dir < 0) {
		*verdict = no_fd_free(dir) ? PROC_FD_DIR_NO_FD :
					     PROC_FD_DIR_MISSING;
		return dir;
	}
	if (sys_fstatfs(dir, &sfs) != 0 ||
	    sfs.f_type != PROC_SUPER_MAGIC_VALUE) {
		*verdict = PROC_FD_DIR_NOT_PROCFS;
		r = -ENOENT;
	} else {
		r = judge_witness(dir, verdict);
	}
	if (r == 0)
		return dir;
	sys_close(dir);
	return r;
}

int libexecveat_proc_fd_dir_open(enum proc_fd_dir_verdict *verdict)
{
	int dir = open_proven("/proc/self/fd", verdict);

	/* The process's table is not the thread's after unshare(CLONE_FILES);
	 * thread-self (Linux 3.17) names the thread's. Tried second, as
	 * fexecve does: in a new process its lookup costs more. */
	if (dir < 0 && *verdict == PROC_FD_DIR_OTHER_TABLE) {
		dir = open_proven("/proc/thread-self/fd", verdict);
		if (dir < 0 && *verdict == PROC_FD_DIR_MISSING)
			*verdict = PROC_FD_DIR_OTHER_TABLE;
	}
	return dir;
}

int libexecveat_proc_entry(int fd, const struct stat *st,
			   char name[FD_NAME_SIZE])
{
	enum proc_fd_dir_verdict verdict;
	int dir = libexecveat_proc_fd_dir_open(&verdict);

	/* Too few fds free to prove /proc: the fd limit's answer, as for
	 * any open (proc_fd_dir.h). */
	if (dir < 0)
		return verdict == PROC_FD_DIR_NO_FD ? dir : -EOPNOTSUPP;
	if (!libexecveat_proc_fd_names(dir, fd, st)) {
		sys_close(dir);
		return -EOPNOTSUPP;
	}
	libexecveat_fd_name(name, fd);
	return dir;
}
