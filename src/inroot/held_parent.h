/*
 * What every operation beneath a root shares (include/inroot.h): the
 * resolve flags, the open of a path inside the root, and the directory
 * that holds the last name of a path, held open for the one *at call
 * that acts on that name.
 *
 * Inside: 0, an fd or a length on success, -errno on failure; errno is
 * set once, by answer() (answer.h), at the public entry.
 */
#ifndef EXECVEAT_INROOT_HELD_PARENT_H
#define EXECVEAT_INROOT_HELD_PARENT_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>

#include "../answer.h"
#include "../path/path_name.h" /* libexecveat_check_path, enum last_kind */
#include "execveat.h" /* RESOLVE_ flags, struct open_how */

/* RESOLVE_IN_ROOT: ".." and absolute links stay inside the root. And no
 * magic links: a procfs mounted inside a container's root names files
 * of the host through them. */
#define INROOT_RESOLVE (RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS)

/* What every open of inroot.h adds to the caller's flags, as libpathrs's
 * opens do: close-on-exec whatever the flags (a caller who wants the fd
 * inherited clears FD_CLOEXEC; an fd that leaks into what the caller
 * executes is how runc gave its containers a way into the host's files,
 * CVE-2024-21626), and never a controlling terminal. And O_LARGEFILE, as
 * a 32-bit program's open(2) asks (glibc's open64, musl's open): a 64-bit
 * kernel's openat2 adds it by itself, a 32-bit kernel's does not, and
 * without it a file over 2 GiB answers EOVERFLOW (glibc defines it as 0
 * on 64-bit ABIs). O_PATH drops O_NOCTTY and O_LARGEFILE, as open(2)
 * does. */
#define INROOT_ADDED_FLAGS (O_CLOEXEC | O_NOCTTY | O_LARGEFILE)

/* flags and mode as open(2) takes them (fs/open.c's build_open_how: bits
 * the kernel does not know dropped, O_PATH with only the flags O_PATH
 * takes, the mode only where a file is made), INROOT_ADDED_FLAGS added:
 * openat2's strict checks then refuse nothing that open(2) takes. */
struct open_how libexecveat_inroot_how(int flags, unsigned int mode);

/* path's file opened with flags (and mode, for O_CREAT) inside root, as
 * libexecveat_inroot_how makes them, by the library's openat2: the
 * kernel's where it answers, the library's own walk where the call is
 * refused. An fd or -errno. */
int libexecveat_inroot_open(int root, const char *path, int flags,
			    unsigned int mode);

/* inroot_mkdir's answer as -errno (mkdir_all makes its prefixes so). */
int libexecveat_inroot_mkdir(int root, const char *path, mode_t mode);

struct held_parent {
	int fd; /* the directory of the last name, O_PATH */
	/* What the last name is (path_name.h): only a name can be created,
	 * removed or renamed; the others are answered by the *at calls
	 * without a lookup. */
	enum last_kind kind;
	bool trailing_slash;
	/* The last name, with its trailing slashes, which the *at calls
	 * judge as the kernel's own lookup does; "." for LAST_IS_ROOT, so
	 * that no name handed to an *at call is ever absolute. */
	const char *name;
	char text[PATH_MAX]; /* the caller's path, copied */
};

/*
 * Walks all but the last component of path inside root and holds the
 * directory reached: 0, or the -errno of the path (EFAULT for NULL,
 * ENOENT for "", ENAMETOOLONG) or of the walk. On 0, release_parent
 * closes what was held.
 */
int libexecveat_hold_parent(int root, const char *path,
			    struct held_parent *p);
void libexecveat_release_parent(struct held_parent *p);

/* inroot_mknod's answer as -errno; on 0, the directory the node was
 * made in is still held in *p (mknod_checked opens the node there),
 * and release_parent lets go. */
int libexecveat_inroot_mknod(int root, const char *path, mode_t mode,
			     dev_t dev, struct held_parent *p);

/*
 * The search permission on the directory held, which the kernel's lookup
 * of a parent checks before it reads the last name ("x", ".", ".."; a
 * path of slashes only has none to read): 0, or -errno (EACCES). The *at
 * call on the name checks it again; an operation on two paths asks it
 * where the second path fails first, since the kernel walks the first
 * one whole before it reads the second.
 */
int libexecveat_parent_searchable(const struct held_parent *p);

#endif /* EXECVEAT_INROOT_HELD_PARENT_H */
