/*
 * What this process's fd table holds of one file. A close of any fd of a
 * file drops every POSIX record lock the process holds on it, and a
 * process that holds such a lock holds an fd of the file open for
 * reading or writing: a fallback that must open a file and close it
 * again asks here first.
 */
#ifndef EXECVEAT_FD_HELD_H
#define EXECVEAT_FD_HELD_H

#include <stdbool.h>
#include <sys/stat.h>

struct fd_holders {
	int reading;  /* the lowest fd open for reading, or -1 */
	bool writing; /* an fd open for writing (or one whose status flags
		       * could not be read) */
	int open;     /* the lowest fd open for reading or writing, or -1 */
};

/*
 * The fds of the file whose st_dev and st_ino st gives. Neither O_PATH
 * fds nor those of access mode 3 (which only ioctls use) can read, write
 * or take a lock: they count as neither. Every fd number up to the
 * table's edge is asked (fd_range.h): as many fstat calls as the table
 * has slots, and an fcntl for each fd of the file. Another thread's opens
 * and closes during the scan may go unseen.
 */
struct fd_holders libexecveat_fd_holders(const struct stat *st);

/* Whether an fd with these status flags (F_GETFL) reads, or writes. */
bool libexecveat_fd_flags_read(int flags);
bool libexecveat_fd_flags_write(int flags);

#endif /* EXECVEAT_FD_HELD_H */
