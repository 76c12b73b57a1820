/*
 * Emptying a directory tree beneath a root, for inroot_remove_all
 * (src/inroot/emptying.c): the walk down the tree, and the two checks
 * that the removal of the tree's top shares with it. Inside: -errno.
 */
#ifndef EXECVEAT_INROOT_EMPTYING_H
#define EXECVEAT_INROOT_EMPTYING_H

/* Each directory is emptied at most this many times where entries keep
 * being added to it: its rmdir then answers ENOTEMPTY. */
#define EMPTYING_PASSES 2

/*
 * Everything beneath the open directory top removed, as `rm -rf` removes
 * it: an entry that cannot be removed (a mount point, EBUSY) is left with
 * the directories above it, and every other entry is removed all the
 * same. 0, or the first error met other than ENOENT (a name removed by
 * someone else meanwhile).
 */
int libexecveat_empty_tree(int top);

/* 0 where the directory sub is on the mount of dir, its parent; -EBUSY
 * where it is not (a mount point: the kernel's rmdir answers so); -errno
 * where neither can be told (mount_id.h). */
int libexecveat_not_a_mount_point(int dir, int sub);

/*
 * name, found a directory and then, on the next look, another file,
 * unlinked as what it is now; a directory again is a name that another
 * process keeps changing: EAGAIN, as for a rename under the walk.
 */
int libexecveat_unlink_changed(int dir, const char *name);

#endif /* EXECVEAT_INROOT_EMPTYING_H */
