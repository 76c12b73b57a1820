/*
 * The path still to walk. It sits at the end of a buffer twice PATH_MAX
 * long, so that the text of each link followed can be put in front of
 * what is left of it, as the kernel's walk takes a link's body before the
 * rest of the path. Each name is looked up where it stands in the text,
 * NUL-terminated there: a name longer than NAME_MAX goes to the kernel as
 * it is, and the file system answers it (procfs: ENOENT; most others:
 * ENAMETOOLONG), as it would the kernel's own walk.
 */
#include <errno.h>
#include <string.h>

#include "../path/path_name.h"
#include "components.h"

void libexecveat_start_unwalked(struct walk *w, const char *path, size_t len)
{
	struct unwalked *u = &w->unwalked;

	u->pos = TEXT_SIZE - 1 - len;
	memcpy(u->text + u->pos, path, len + 1);
}

/*
 * The next component into w->comp; false at the end of the path. Slashes
 * between components are skipped; those after the last one are noted.
 */
bool libexecveat_next_component(struct walk *w)
{
	struct unwalked *u = &w->unwalked;
	size_t start = u->pos, end;

	if (!libexecveat_next_name(u->text, &start, &end))
		return false;
	w->comp.kind = libexecveat_name_kind(u->text + start, end - start);
	w->comp.trailing_slash = u->text[end] == '/';
	u->pos = end;
	while (u->text[u->pos] == '/')
		u->pos++;
	w->comp.last = u->text[u->pos] == '\0';
	/* The slash ended the name and was consumed: it is free to hold the
	 * name's NUL. */
	u->text[end] = '\0';
	w->comp.name = u->text + start;
	return true;
}

/*
 * The current name was a link, whose text of n bytes readlinkat put at
 * the start of the buffer: it takes the name's place in front of the rest
 * of the path (the name is not needed again).
 */
int libexecveat_splice_link_text(struct walk *w, size_t n)
{
	struct unwalked *u = &w->unwalked;
	bool rest = u->text[u->pos] != '\0';
	size_t need = n + (rest ? 1 : 0);

	if (need > u->pos)
		return -ENAMETOOLONG;
	if (rest)
		u->text[u->pos - 1] = '/';
	memmove(u->text + u->pos - need, u->text, n);
	u->pos -= need;
	return 0;
}
