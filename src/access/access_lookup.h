/*
 * faccessat's question asked through the old faccessat system call, which
 * follows a last symlink and has no empty path: what a lookup of the path
 * finds first (fstatat, with the question's AT_SYMLINK_NOFOLLOW and
 * AT_EMPTY_PATH), then the old call of the file it found. Asked by the
 * process whose real IDs are the question's (access_fallback.c).
 */
#ifndef EXECVEAT_ACCESS_LOOKUP_H
#define EXECVEAT_ACCESS_LOOKUP_H

#include <stdbool.h>
#include <sys/types.h>

#include "access_empty_path.h" /* ACCESS_CANNOT_ASK */
#include "../syscalls/files.h"

#ifndef AT_SYMLINK_NOFOLLOW
#define AT_SYMLINK_NOFOLLOW 0x100
#endif

#define ACCESS_LOOKUP_FLAGS (AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH)

/* What the lookup found. */
struct access_found {
	int err;       /* its -errno, or 0 */
	mode_t type;   /* the file's type (S_IFMT bits), where err is 0 */
	bool readonly; /* a symlink on a read-only mount, asked W_OK */
};

/* The lookup of path at dirfd with flags (ACCESS_LOOKUP_FLAGS only) and
 * this process's filesystem IDs and effective capabilities. */
void libexecveat_access_look_up(int dirfd, const char *path, int mode,
				int flags, struct access_found *found);

/* Whether found may be an error that a lookup with more permission would
 * not have met (EACCES, EPERM). */
bool libexecveat_access_view_may_be_narrow(const struct access_found *found);

/*
 * The question (flags: ACCESS_LOOKUP_FLAGS only), where this process's
 * lookups are the question's own: 0, -errno, or ACCESS_CANNOT_ASK;
 * with may_open, an empty path may be asked by an open of the file
 * (access_empty_path.c).
 */
int libexecveat_access_ask(int dirfd, const char *path, int mode, int flags,
			   bool may_open);

/*
 * The same, where found is what a lookup with other credentials found,
 * one that sees at least what the question's does wherever it found no
 * error that may be narrow. Where the answer depends on the walk to the
 * last name, the old call is asked to search the directories up to it,
 * named in scratch (ACCESS_SCRATCH_SIZE bytes).
 */
#define ACCESS_SCRATCH_SIZE 4096
int libexecveat_access_ask_found(int dirfd, const char *path, int mode,
				 int flags, const struct access_found *found,
				 char *scratch);

#endif /* EXECVEAT_ACCESS_LOOKUP_H */
