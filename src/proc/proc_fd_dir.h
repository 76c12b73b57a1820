/*
 * This thread's fd table as an open directory of procfs, proven before
 * anything in it is trusted, and an fd's entry in it. Shared by
 * closefrom's listing, fchmodat's fallback, the operations beneath a
 * root, and fexec --probe, which reports what they would find.
 */
#ifndef EXECVEAT_PROC_FD_DIR_H
#define EXECVEAT_PROC_FD_DIR_H

#include <sys/stat.h>

/* The decimal digits of INT_MAX, and the NUL. */
#define FD_NAME_SIZE 11

enum proc_fd_dir_verdict {
	PROC_FD_DIR_PROVEN,      /* procfs, and this thread's own table */
	PROC_FD_DIR_MISSING,     /* no /proc/self/fd to open */
	PROC_FD_DIR_NOT_PROCFS,  /* the directory is not on procfs */
	PROC_FD_DIR_OTHER_TABLE, /* procfs, but another fd table */
	PROC_FD_DIR_NO_WITNESS,  /* no pipe could be made to prove it */
	PROC_FD_DIR_NO_FD,       /* no fd free to open or prove it */
};

/*
 * Opens /proc/self/fd, or where that lists another table (a thread that
 * unshared its own) /proc/thread-self/fd, and proves it on the opened
 * directory fd: fstatfs says procfs, and a pipe made just now is listed
 * in it as that very pipe (st_dev, st_ino). A tmpfs fails the first proof;
 * another process's fd directory bound over ours fails the second, since
 * no other table can hold a pipe this call has just made. Returns the
 * directory fd (close-on-exec), or -errno, that of the open or the pipe
 * that failed, or -ENOENT where a proof failed; sets *verdict either way
 * (the reason of the last directory judged). The proof takes three fds
 * at once: where they are not free, the verdict is PROC_FD_DIR_NO_FD and
 * the answer -EMFILE, -ENFILE or -ENOMEM, so that a caller answers as the
 * kernel does at the fd limit rather than as where there is no /proc.
 */
int libexecveat_proc_fd_dir_open(enum proc_fd_dir_verdict *verdict);

/* Writes the decimal name of fd (>= 0), as /proc lists it. */
void libexecveat_fd_name(char name[FD_NAME_SIZE], int fd);

/* Whether dir's entry for fd names the file that *st describes. */
int libexecveat_proc_fd_names(int dir, int fd, const struct stat *st);

/*
 * fd's entry, once the directory is proven and the entry leads to fd's
 * file (*st): the last way to a file an O_PATH fd holds where the kernel
 * offers none without a name. A call made relative to the directory with
 * the entry's name follows the entry (a magic link) to the file itself,
 * and looks nothing else up. The directory's fd (close-on-exec; the
 * caller closes it) with name set to the entry's, or -EOPNOTSUPP where
 * there is none; -EMFILE, -ENFILE or -ENOMEM where too few fds are free
 * to prove the directory (PROC_FD_DIR_NO_FD), which is no proof that
 * there is none.
 */
int libexecveat_proc_entry(int fd, const struct stat *st,
			   char name[FD_NAME_SIZE]);

#endif /* EXECVEAT_PROC_FD_DIR_H */
