/*
 * What the mount operations beneath a root share: the target held (its
 * directory and name, and an O_PATH fd of it), the old mount(2) made
 * onto that held fd where the new mount API is refused, and the proof,
 * after each mount, that it landed on the target held.
 */
#ifndef EXECVEAT_INROOT_MOUNT_TARGET_H
#define EXECVEAT_INROOT_MOUNT_TARGET_H

#include <sys/stat.h>

#include "held_parent.h"
#include "../path/mount_id.h"

struct mount_target {
	struct held_parent p; /* the directory held and the target's name */
	int fd;               /* O_PATH of the name's file, as looked up */
	struct stat st;
	struct mount_id mount; /* the mount fd is on */
};

/*
 * Holds path's target inside root: a last symlink followed inside the
 * root (as mount(2) follows one), the last component a name (a target
 * of ".", ".." or the root: EINVAL), a trailing slash asking for a
 * directory (ENOTDIR). 0, or -errno; on 0, mount_target_release lets go.
 */
int libexecveat_mount_target_hold(int root, const char *path,
				  struct mount_target *t);
void libexecveat_mount_target_release(struct mount_target *t);

/*
 * After a mount onto t: whether the name held now shows a mount other
 * than t's own (and, where tree is not NULL, that very mount) whose root
 * is the file *root_st (NULL: any). 0, or -EAGAIN where it does not: a
 * swap of the name after it was held, and the mount stays where the
 * kernel made it, on the file held. Mounts are told apart by their ids
 * (path/mount_id.h); where only a device tells, no bind mount of one
 * file system can be told from another, and only *root_st judges.
 */
int libexecveat_mount_landed(const struct mount_target *t,
			     const struct mount_id *tree,
			     const struct stat *root_st);

/*
 * mount(2) onto the held target, for where the new mount API is refused:
 * a directory by the held fd itself (fchdir to it, then "."), anything
 * else through its proven /proc entry (fchdir to the proven fd
 * directory, then the entry's name); with source_fd >= 0 the source is
 * that fd's proven entry too, else the string source as mount(2) reads
 * it (an absolute path, or a file system's name). The working directory
 * is every thread's: it is moved for the one call and put back (another
 * thread that resolves a relative path meanwhile resolves it there).
 * 0, -errno, or -EOPNOTSUPP where no held way is left.
 */
int libexecveat_mount_old(const struct mount_target *t, const char *source,
			  int source_fd, const char *fstype,
			  unsigned long flags, const char *data);

#endif /* EXECVEAT_INROOT_MOUNT_TARGET_H */
