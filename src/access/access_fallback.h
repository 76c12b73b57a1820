/*
 * faccessat's fallback, for where faccessat2 (Linux 5.8) is refused: the
 * old faccessat system call, which has no flags and checks the real IDs,
 * asked by this process where that is the question, or by a short-lived
 * child that holds the question's IDs as its real ones where it is not.
 */
#ifndef EXECVEAT_ACCESS_FALLBACK_H
#define EXECVEAT_ACCESS_FALLBACK_H

#include <stdbool.h>

#include "access_lookup.h" /* ACCESS_CANNOT_ASK */

/* faccessat2(dirfd, path, mode, flags) as the kernel would answer it: 0,
 * -errno, or ACCESS_CANNOT_ASK. Without may_act, a question that
 * needs a child or an open of the file (access_fallback.c,
 * access_empty_path.c) is ACCESS_CANNOT_ASK too. */
int libexecveat_access_without_faccessat2(int dirfd, const char *path,
					  int mode, int flags, bool may_act);

/* faccessat() as the library answers it (src/access/faccessat.c): 0 or -errno.
 * Called inside the library by this name, which no preloaded or earlier
 * faccessat can take the place of. */
int libexecveat_faccessat_policy(int dirfd, const char *path, int mode,
				 int flags);

#endif /* EXECVEAT_ACCESS_FALLBACK_H */
