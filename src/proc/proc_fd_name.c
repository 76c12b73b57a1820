/*
 * Proving that a /proc name may stand in for an fd.
 *
 * glibc execs /proc/self/fd/N on trust. Whoever controls the mount at /proc
 * (a container image, a sandbox, an attacker with a tmpfs) then decides
 * what runs. We exec the name only if the directory holding it is procfs
 * and the name resolves to the very file (st_dev, st_ino) behind the fd.
 *
 * /proc/self/fd is the thread-group leader's fd table, which is not the
 * calling thread's after unshare(CLONE_FILES): where the process's name
 * does not name the fd's file, the thread's own name is judged too.
 *
 * No allocation, no locks, no stdio: this runs between vfork and exec.
 */
#define _GNU_SOURCE /* O_PATH */
#include "proc_fd_name.h"
#include "proc_fd_dir.h"
#include "../path/same_file.h"
#include "../syscalls/files.h"

/*
 * The process's fd directory first: in a new process it is the cheaper
 * lookup (see docs/benchmarks.md), and it names the fd's file in every
 * thread that shares the process's table. Then the calling thread's own
 * (Linux 3.17+), which always does.
 */
#define PROCESS_FD_DIR "/proc/self/fd/"
#define THREAD_FD_DIR "/proc/thread-self/fd/"

/*
 * Writes text with its NUL; returns where the NUL is. Byte by byte, not
 * with strcpy: a lazily bound C library function would make a process's
 * first fallback pay for a symbol lookup.
 */
static char *copy_text(char *path, const char *text)
{
	while (*text != '\0')
		*path++ = *text++;
	*path = '\0';
	return path;
}

/* Writes dir followed by the decimal digits of fd (>= 0). */
static void format_fd_path(char *path, const char *dir, int fd)
{
	libexecveat_fd_name(copy_text(path, dir), fd);
}

/* Judges name->path, an entry of dir, as a name of the file by_fd
 * describes. */
static enum proc_fd_verdict judge_name(const char *dir,
				       struct proc_fd_name *name,
				       const struct stat *by_fd)
{
	struct statfs sfs;
	struct stat by_name;

	name->err = sys_statfs(dir, &sfs);
	if (name->err < 0)
		return PROC_FD_NO_DIR;
	if (sfs.f_type != PROC_SUPER_MAGIC_VALUE)
		return PROC_FD_NOT_PROCFS;
	if (sys_stat(name->path, &by_name) != 0)
		return PROC_FD_UNRESOLVED;
	if (!libexecveat_same_file(by_fd, &by_name))
		return PROC_FD_OTHER_FILE;
	return PROC_FD_SAME_FILE;
}

/* Judges dir's entry for fd as a name of the file by_fd describes; writes
 * it into name->path. */
static enum proc_fd_verdict judge_fd_name(const char *dir, int fd,
					  const struct stat *by_fd,
					  struct proc_fd_name *name)
{
	format_fd_path(name->path, dir, fd);
	return judge_name(dir, name, by_fd);
}

enum proc_fd_verdict libexecveat_proc_fd_find(int fd, struct proc_fd_name *name)
{
	struct stat by_fd;
	enum proc_fd_verdict verdict, thread_verdict;

	name->err = sys_fstat(fd, &by_fd);
	if (name->err < 0)
		return PROC_FD_NOT_OPEN;
	name->mode = by_fd.st_mode;
	verdict = judge_fd_name(PROCESS_FD_DIR, fd, &by_fd, name);
	if (verdict != PROC_FD_UNRESOLVED && verdict != PROC_FD_OTHER_FILE)
		return verdict;
	/* Before Linux 3.17 there is no thread-self: the process's verdict
	 * stands. */
	thread_verdict = judge_fd_name(THREAD_FD_DIR, fd, &by_fd, name);
	return thread_verdict == PROC_FD_NO_DIR ? verdict : thread_verdict;
}

/* The calling thread's working directory (Linux 3.17): the process's
 * (/proc/self/cwd) may be another thread's, one that called
 * unshare(CLONE_FS) or was made without it. */
#define THREAD_DIR "/proc/thread-self/"
#define THREAD_CWD THREAD_DIR "cwd"
_Static_assert(sizeof(THREAD_CWD) <= PROC_FD_PATH_SIZE,
	       "the working directory's name fits a proc_fd_name");

enum proc_fd_verdict libexecveat_proc_cwd_find(struct proc_fd_name *name)
{
	struct stat cwd;

	name->err = sys_fstatat(AT_FDCWD, "", &cwd, AT_EMPTY_PATH);
	if (name->err < 0)
		return PROC_FD_NOT_OPEN;
	name->mode = cwd.st_mode;
	copy_text(name->path, THREAD_CWD);
	return judge_name(THREAD_DIR, name, &cwd);
}
