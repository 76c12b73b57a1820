/*
 * faccessat's question about the file open at dirfd itself (AT_EMPTY_PATH
 * with "") where faccessat2 is refused; access_empty_path.c says how.
 */
#ifndef EXECVEAT_ACCESS_EMPTY_PATH_H
#define EXECVEAT_ACCESS_EMPTY_PATH_H

#include <stdbool.h>
#include <sys/types.h>

/* The answer where the question cannot be asked without faccessat2
 * (access_fallback.c, access_lookup.c and access_empty_path.c say
 * where): faccessat2's own refusal is the answer there, never a guess.
 * Every part of the fallback may answer it. */
#define ACCESS_CANNOT_ASK 1

/*
 * The question of mode about dirfd's file (AT_FDCWD: the working
 * directory), of type type (S_IFMT bits, from a lookup of "" at dirfd),
 * asked by a process whose real IDs are the question's. With may_open,
 * its lookups (filesystem IDs, effective capabilities) are the question's
 * too, and the file may be opened to ask (step 4 of
 * access_empty_path.c). 0, -errno, or ACCESS_CANNOT_ASK.
 */
int libexecveat_access_empty_path(int dirfd, mode_t type, int mode,
				  bool may_open);

#endif /* EXECVEAT_ACCESS_EMPTY_PATH_H */
