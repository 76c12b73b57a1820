/* The resolver itself: libexecveat_resolve_open, as openat2's policy
 * calls it once the system call is refused. */
#include "openat2_side.h"

int openat2_side_start(void)
{
	return 0;
}

void openat2_side_stop(void)
{
}

int openat2_side(int dirfd, const char *path, const struct open_how *how)
{
	return libexecveat_resolve_open(dirfd, path, how);
}
