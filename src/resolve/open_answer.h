/*
 * The answer's open (open_answer.c), through which every open of an answer
 * goes, and OPENAT2_REGULAR's proof that it is a regular file.
 */
#ifndef EXECVEAT_RESOLVE_OPEN_ANSWER_H
#define EXECVEAT_RESOLVE_OPEN_ANSWER_H

#include "walk.h"

/* name in dirfd opened as the answer, with the caller's flags and those a
 * step adds; under OPENAT2_REGULAR a regular file proven first. An fd, or
 * -errno. */
int libexecveat_open_answer(struct walk *w, int dirfd, const char *name,
			    int flags, unsigned int mode);

/* The file of fd opened under OPENAT2_REGULAR, by O_EMPTYPATH: an fd, or
 * -errno. */
int libexecveat_reopen_regular(struct walk *w, int fd, int flags,
			       unsigned int mode);

#endif /* EXECVEAT_RESOLVE_OPEN_ANSWER_H */
