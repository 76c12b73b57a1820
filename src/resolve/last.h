/*
 * The last component (last.c) in each of its forms, opened as the answer:
 * a name, ".", the bottom's "..", a magic link.
 */
#ifndef EXECVEAT_RESOLVE_LAST_H
#define EXECVEAT_RESOLVE_LAST_H

#include "walk.h"

/* Whether an answer was opened close-on-exec for the walk's sake, which
 * finish_walk takes back where the caller did not ask for it. */
enum answer_cloexec { CLOEXEC_AS_ASKED, CLOEXEC_ADDED };

/* The open's fd as the answer: STEP_OPENED, or its -errno. */
static inline int opened(struct walk *w, int fd, enum answer_cloexec cloexec)
{
	if (fd < 0)
		return fd;
	w->answer = fd;
	w->answer_cloexec_added = cloexec == CLOEXEC_ADDED;
	return STEP_OPENED;
}

/* The last component with a name: STEP_OPENED, STEP_LINK,
 * STEP_LINK_OR_FILE or -errno. */
int libexecveat_open_last(struct walk *w);

/* The directory the walk stands in, opened with the caller's flags:
 * STEP_OPENED or -errno. */
int libexecveat_open_here(struct walk *w);

/* Unscoped, at the bottom, ".." as the last component: STEP_OPENED or
 * -errno. */
int libexecveat_open_parent_of_bottom(struct walk *w);

/* A magic link as the last component, followed as the kernel follows it:
 * STEP_OPENED or -errno. */
int libexecveat_open_magic_last(struct walk *w);

#endif /* EXECVEAT_RESOLVE_LAST_H */
