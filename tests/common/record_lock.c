#define _GNU_SOURCE /* F_OFD_GETLK */
#include "record_lock.h"

#include <fcntl.h>
#include <unistd.h>

bool record_lock_seen(int fd)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };

	return fcntl(fd, F_OFD_GETLK, &fl) == 0 && fl.l_type != F_UNLCK &&
	       fl.l_pid == getpid();
}

bool record_lock_held(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool held = fd >= 0 && record_lock_seen(fd);

	if (fd >= 0)
		close(fd);
	return held;
}
