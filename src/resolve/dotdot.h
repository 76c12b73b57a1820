/* ".." on the way (dotdot.c). */
#ifndef EXECVEAT_RESOLVE_DOTDOT_H
#define EXECVEAT_RESOLVE_DOTDOT_H

#include "walk.h"

/* ".." as a component that is not the last: STEP_ON or -errno. */
int libexecveat_step_dotdot(struct walk *w);

#endif /* EXECVEAT_RESOLVE_DOTDOT_H */
