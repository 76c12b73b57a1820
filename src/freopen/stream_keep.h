/*
 * freopen(NULL, mode, stream) without a name to open: the file the stream
 * has open, reopened through its own fd (Linux 7.2's O_EMPTYPATH), or
 * kept and given the mode's flags as far as an open file can take them.
 */
#ifndef EXECVEAT_STREAM_KEEP_H
#define EXECVEAT_STREAM_KEEP_H

#include <stdbool.h>

/* What an fopen mode asks of the file. */
struct stream_mode {
	bool read, write;
	bool append;    /* "a": O_APPEND */
	bool truncate;  /* "w": O_TRUNC */
	bool exclusive; /* "x": O_CREAT | O_EXCL */
	bool cloexec;   /* "e": O_CLOEXEC */
};

/* 0, or the -errno for a mode that no fopen takes (EINVAL) or that asks
 * for a character set (",ccs="), which only a reopen by name can set
 * (EOPNOTSUPP). */
int libexecveat_stream_mode_parse(const char *mode, struct stream_mode *m);

/*
 * The file open at fd opened anew with the mode's flags, by O_EMPTYPATH,
 * and put in fd's place (dup3), as a reopen by name would; fd's access
 * must be what the mode asks. 0; 1 where the kernel has no O_EMPTYPATH
 * (before Linux 7.2), nothing done; the open's -errno, fd kept.
 */
int libexecveat_stream_reopen_itself(int fd, const struct stream_mode *m,
				     bool largefile);

/*
 * The open file at fd kept, given what of the mode an open file can take:
 * O_APPEND set or cleared, a regular file truncated for "w", close-on-exec
 * set for "e". 0, or -errno and nothing changed.
 */
int libexecveat_stream_keep_file(int fd, const struct stream_mode *m);

#endif /* EXECVEAT_STREAM_KEEP_H */
