/*
 * fchmodat's fallback, for where fchmodat2 (Linux 6.6) is refused: the
 * file opened O_PATH (without following a last symlink, under
 * AT_SYMLINK_NOFOLLOW), then its mode changed through a proven /proc fd
 * directory, or without /proc through an fd the process holds of it, or
 * a directory by its "." or by opening it again; never a file opened.
 */
#ifndef EXECVEAT_CHMOD_FALLBACK_H
#define EXECVEAT_CHMOD_FALLBACK_H

#include <stdbool.h>
#include <sys/stat.h>
#include <sys/types.h>

/* The fallback's answer where it would open a directory to change its
 * mode (step 5 of chmod_fallback.c) and may not. */
#define CHMOD_WOULD_OPEN 1

/* fchmodat2(dirfd, path, mode, flags) as the kernel would answer it, as
 * far as this can: 0, or -errno (chmod_fallback.c says when); or
 * without may_open, CHMOD_WOULD_OPEN where only an open of the file is
 * left to try. */
int libexecveat_chmod_without_fchmodat2(int dirfd, const char *path,
					mode_t mode, int flags,
					bool may_open);

/*
 * The step without /proc for a directory, for the tests to call as it
 * is: opens parent's entry name again as a directory (O_DIRECTORY, never
 * following a symlink) and changes its mode only if it is still the
 * directory that *st describes (the one that was looked up first): 0 or
 * -errno, -EAGAIN when the name has since come to name another file, or
 * *st is no directory.
 */
int libexecveat_chmod_by_reopening(int parent, const char *name,
				   const struct stat *st, mode_t mode);

#endif /* EXECVEAT_CHMOD_FALLBACK_H */
