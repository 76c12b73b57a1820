/*
 * The pid a pidfd refers to, read from this thread's fdinfo file of it in
 * /proc, once /proc is proven to be procfs of this process's own pid
 * namespace. pidfd_getpid's way on kernels before 6.13, which have no
 * PIDFD_GET_INFO; shared with fexec --probe, which names each verdict.
 */
#ifndef EXECVEAT_PIDFD_FDINFO_H
#define EXECVEAT_PIDFD_FDINFO_H

enum pidfd_fdinfo_verdict {
	PIDFD_FDINFO_PID,        /* *pid is the Pid: line's value */
	PIDFD_FDINFO_NOT_PIDFD,  /* proven, and the fdinfo has no Pid: line */
	PIDFD_FDINFO_NOT_OPEN,   /* the fd is not open */
	PIDFD_FDINFO_NO_PROC,    /* no /proc directory to open */
	PIDFD_FDINFO_NOT_PROCFS, /* /proc is not procfs */
	PIDFD_FDINFO_NOT_SELF,   /* /proc/self is not this process, or its
				    procfs is of another pid namespace */
	PIDFD_FDINFO_OTHER_FILE, /* the file is reached across a mount, or
				    describes another inode than the fd's */
	PIDFD_FDINFO_UNREADABLE, /* a file of the proof could not be opened
				    or read; *err says why */
};

/*
 * Judges /proc and, where it is proven, reads the Pid: line of
 * /proc/PID/task/TID/fdinfo/FD: the pid the procfs prints for the pidfd
 * fd (> 0), 0 where that process is not in this pid namespace, -1 where
 * it has been reaped. *err: for PIDFD_FDINFO_UNREADABLE, the -errno of
 * the open or read that failed (0 for a line that could not be parsed).
 */
enum pidfd_fdinfo_verdict libexecveat_pidfd_fdinfo_pid(int fd, long *pid,
							int *err);

#endif /* EXECVEAT_PIDFD_FDINFO_H */
