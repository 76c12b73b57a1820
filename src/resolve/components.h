/*
 * The path still to walk (components.c): its components one at a time, and
 * the text of each link followed put in front of the rest.
 */
#ifndef EXECVEAT_RESOLVE_COMPONENTS_H
#define EXECVEAT_RESOLVE_COMPONENTS_H

#include <stdbool.h>
#include <stddef.h>

#include "walk.h"

/* path (len bytes, NUL-terminated) as the whole of what is to walk. */
void libexecveat_start_unwalked(struct walk *w, const char *path, size_t len);

/* The next component into w->comp; false at the end of the path. */
bool libexecveat_next_component(struct walk *w);

/* The current name, a link whose text of n bytes readlinkat put at the
 * start of the buffer, replaced by that text: 0, or -ENAMETOOLONG. */
int libexecveat_splice_link_text(struct walk *w, size_t n);

#endif /* EXECVEAT_RESOLVE_COMPONENTS_H */
