/*
 * The /proc name of an fd, used only when execveat is refused, and only
 * once it is proven to name the file behind the fd. Shared with fexec
 * --probe, so that what the probe reports is what fexecve would do.
 */
#ifndef EXECVEAT_PROC_FD_NAME_H
#define EXECVEAT_PROC_FD_NAME_H

#include <sys/types.h>

/* The longer fd directory, the decimal digits of INT_MAX, and the NUL. */
#define PROC_FD_PATH_SIZE (sizeof("/proc/thread-self/fd/") + 10)

struct proc_fd_name {
	mode_t mode;                  /* the fd's file type and mode */
	char path[PROC_FD_PATH_SIZE]; /* the name judged */
	int err; /* PROC_FD_NOT_OPEN, PROC_FD_NO_DIR: the call's -errno */
};

/* fexecve needs only SAME_FILE and NOT_OPEN; the reasons for refusing
 * are told apart for fexec --probe, which names them. */
enum proc_fd_verdict {
	PROC_FD_SAME_FILE,  /* path is on procfs and names the fd's file */
	PROC_FD_NOT_OPEN,   /* the fd is not an open file descriptor */
	PROC_FD_NO_DIR,     /* no fd directory under /proc at all */
	PROC_FD_NOT_PROCFS, /* the fd directory is not on procfs */
	PROC_FD_UNRESOLVED, /* path cannot be resolved */
	PROC_FD_OTHER_FILE, /* path resolves to another file */
};

/*
 * Finds the name that may stand in for fd (>= 0) and judges it:
 * /proc/self/fd/<fd>, or where that names no file or another one (a thread
 * with an fd table of its own), the calling thread's
 * /proc/thread-self/fd/<fd>. Only PROC_FD_SAME_FILE makes name->path safe
 * to exec. name->mode is set for every verdict but PROC_FD_NOT_OPEN,
 * name->path for every verdict but that and PROC_FD_NO_DIR, name->err for
 * those two.
 */
enum proc_fd_verdict libexecveat_proc_fd_find(int fd, struct proc_fd_name *name);

/* The same for the calling thread's working directory (AT_FDCWD):
 * /proc/thread-self/cwd, judged as a name of the directory that "" at
 * AT_FDCWD is. PROC_FD_NOT_OPEN where that directory cannot be looked
 * at. */
enum proc_fd_verdict libexecveat_proc_cwd_find(struct proc_fd_name *name);

#endif /* EXECVEAT_PROC_FD_NAME_H */
