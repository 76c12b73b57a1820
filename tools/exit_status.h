/*
 * How fexec reports a failure: the shell's exit-status convention, and one
 * line on stderr naming the file and the reason.
 */
#ifndef FEXEC_EXIT_STATUS_H
#define FEXEC_EXIT_STATUS_H

#include <stdbool.h>

#define EXIT_NOT_FOUND 127     /* the file does not exist */
#define EXIT_CANNOT_EXEC 126   /* it exists but cannot be executed */
#define EXIT_USAGE 125         /* bad command line, bad fd number */

/* What failed to run, for the message. */
struct exec_target {
	const char *name;   /* a path, or "fd N" */
	int dirfd;          /* for a path: the directory it is relative to */
	bool by_fd;         /* run through fexecve rather than execveat */
	bool nofollow;      /* --nofollow was given */
	bool check;         /* --check: asked with AT_EXECVE_CHECK */
};

/* Prints "fexec: NAME: reason" and returns the exit status for err, the
 * errno of a failed exec (or of opening its directory). */
int report_exec_failure(const struct exec_target *target, int err);

/* Prints "fexec: message (see fexec --help)" and returns EXIT_USAGE. */
int report_usage_error(const char *message, const char *detail);

#endif /* FEXEC_EXIT_STATUS_H */
