/*
 * /proc/self/fd/N, used only when execveat is refused, and only once it is
 * proven to name the file behind the fd.
 */
#ifndef EXECVEAT_PROC_FALLBACK_H
#define EXECVEAT_PROC_FALLBACK_H

/* "/proc/self/fd/" plus the decimal digits of INT_MAX, plus the NUL. */
#define PROC_FD_PATH_SIZE (sizeof("/proc/self/fd/") + 10)

/* Writes "/proc/self/fd/<fd>" into path; fd must be >= 0. */
void proc_fd_path(char path[PROC_FD_PATH_SIZE], int fd);

enum proc_fd_verdict {
	PROC_FD_SAME_FILE,  /* path is on procfs and names fd's file */
	PROC_FD_NOT_OPEN,   /* fd is not an open file descriptor */
	PROC_FD_UNTRUSTED,  /* no procfs there, or it names another file */
};

/* Judges path (from proc_fd_path) as a stand-in for fd; leaves errno as the
 * system calls left it. */
enum proc_fd_verdict proc_fd_path_check(const char *path, int fd);

#endif /* EXECVEAT_PROC_FALLBACK_H */
