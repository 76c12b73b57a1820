/*
 * Whether the process still holds the POSIX record locks (F_SETLK) a
 * test took: the question every fallback that opens and closes files
 * must leave unchanged.
 */
#ifndef TESTS_RECORD_LOCK_H
#define TESTS_RECORD_LOCK_H

#include <stdbool.h>

/* Whether a write lock over the whole file, asked through fd as an open
 * file description's lock (F_OFD_GETLK, which meets the process's own
 * POSIX locks), finds a lock of this process in its way. */
bool record_lock_seen(int fd);

/* The same through an fd opened on path for the question, and closed
 * once it is answered, which drops the lock: the last question. */
bool record_lock_held(const char *path);

#endif /* TESTS_RECORD_LOCK_H */
