/*
 * Reopening the file of a stream without its name.
 *
 * glibc 2.36's freopen(NULL, mode, stream) opens "/proc/self/fd/N" by name
 * and dup3s the result over the stream's fd: without /proc the stream is
 * lost (ENOENT), under a fake /proc it reads whatever file the fake names.
 * Here the name is never used. Linux 7.2's O_EMPTYPATH opens the file of
 * the fd itself, which is what the reopen by name did when the name was
 * true: a new open file description, truncated and with O_APPEND as the
 * mode says, its permissions checked again. Before 7.2 the open file is
 * kept, as musl keeps it, and given what of the mode fcntl can give it.
 *
 * Either way the stream's own access (what stdio lets it read or write)
 * is left as it is: only a reopen by name changes it, and the caller has
 * checked that the mode asks for that very access.
 */
#define _GNU_SOURCE /* O_LARGEFILE */
#include <errno.h>
#include <string.h>

#include "execveat.h" /* O_EMPTYPATH (Linux 7.2) */
#include "stream_keep.h"
#include "../syscalls/fds.h"
#include "../syscalls/files.h"

#ifndef O_LARGEFILE
#define O_LARGEFILE 0
#endif

/* How many characters after the first glibc's fopen reads. */
#define MODE_FLAGS_MAX 6

/* As glibc's fopen reads a mode: "r", "w" or "a" first, then up to six
 * more, up to the end or a comma, of which "+", "x" and "e" count here
 * and anything else is ignored; a ",ccs=" part anywhere asks for a
 * character set. */
int libexecveat_stream_mode_parse(const char *mode, struct stream_mode *m)
{
	const char *first = mode;

	*m = (struct stream_mode){ 0 };
	switch (*mode) {
	case 'r':
		m->read = true;
		break;
	case 'w':
		m->write = m->truncate = true;
		break;
	case 'a':
		m->write = m->append = true;
		break;
	default:
		return -EINVAL;
	}
	for (mode++; *mode != '\0' && *mode != ',' &&
		     mode - first <= MODE_FLAGS_MAX; mode++) {
		if (*mode == '+')
			m->read = m->write = true;
		else if (*mode == 'x')
			/* O_EXCL, which means nothing without O_CREAT: not
			 * for "r" and "r+". */
			m->exclusive = m->truncate || m->append;
		else if (*mode == 'e')
			m->cloexec = true;
	}
	return strstr(first, ",ccs=") != NULL ? -EOPNOTSUPP : 0;
}

int libexecveat_stream_reopen_itself(int fd, const struct stream_mode *m,
				     bool largefile)
{
	int access = m->read && m->write ? O_RDWR : m->write ? O_WRONLY
							     : O_RDONLY;
	int flags = access | (m->append ? O_APPEND : 0) |
		    (m->truncate ? O_TRUNC : 0) |
		    (largefile ? O_LARGEFILE : 0) | O_CLOEXEC;
	int reopened, r;
	bool cloexec;

	/* The file exists: O_CREAT | O_EXCL's answer, without asking. */
	if (m->exclusive)
		return -EEXIST;
	reopened = sys_openat(fd, "", flags | O_EMPTYPATH, 0);
	if (reopened < 0)
		/* Before 7.2 the flag is ignored and "" names nothing. */
		return reopened == -ENOENT ? 1 : reopened;
	/* dup3's flags say what fd's close-on-exec becomes: set by "e",
	 * left as it was without (glibc 2.36 and musl 1.2.3 alike). */
	cloexec = m->cloexec || (sys_fcntl_getfd(fd) & FD_CLOEXEC);
	r = sys_dup3(reopened, fd, cloexec ? O_CLOEXEC : 0);
	sys_close(reopened);
	return r < 0 ? r : 0;
}

int libexecveat_stream_keep_file(int fd, const struct stream_mode *m)
{
	struct stat st;
	int flags, r;

	if (m->exclusive)
		return -EEXIST;
	flags = sys_fcntl_getfl(fd);
	r = flags < 0 ? flags : sys_fstat(fd, &st);
	if (r < 0)
		return r;
	/* Only O_APPEND: the other status flags (O_NONBLOCK, O_ASYNC...) are
	 * the open file's, shared with every fd of it, and no mode names
	 * them. An append-only file (chattr +a) refuses its clearing with
	 * EPERM, as it refuses an open for writing without O_APPEND. */
	r = sys_fcntl_setfl(fd, m->append ? flags | O_APPEND
					  : flags & ~O_APPEND);
	if (r < 0)
		return r;
	/* O_TRUNC truncates a regular file and nothing else. */
	r = m->truncate && S_ISREG(st.st_mode) ? sys_ftruncate_to_zero(fd) : 0;
	if (r < 0) {
		sys_fcntl_setfl(fd, flags);
		return r;
	}
	/* Set by "e", left as it was without (glibc 2.36 and musl 1.2.3
	 * alike); cannot fail on an open fd. */
	if (m->cloexec)
		sys_fcntl_setfd(fd, FD_CLOEXEC);
	return 0;
}
