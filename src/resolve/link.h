/* Links (link.c): read, judged by the kernel's rules, and walked. */
#ifndef EXECVEAT_RESOLVE_LINK_H
#define EXECVEAT_RESOLVE_LINK_H

#include "walk.h"

/* The current name, a link (seen: STEP_LINK) or maybe no directory
 * (STEP_LINK_OR_FILE), followed: STEP_ON, STEP_AGAIN, STEP_MAGIC_LAST
 * or -errno. */
int libexecveat_follow_link(struct walk *w, enum step seen);

#endif /* EXECVEAT_RESOLVE_LINK_H */
