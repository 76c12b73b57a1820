/*
 * What a file is, asked only where something needs the answer: a level
 * the walk lets go while a later ".." could come back to it, a mount
 * crossing under RESOLVE_NO_XDEV, a trailing link's owner. A plain step
 * identifies nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/sysmacros.h>

#include "../path/mount_id.h"
#include "../syscalls/files.h"
#include "identity.h"

/* Linux's own dev_t encoding (12-bit major, 20-bit minor) fits 32 bits. */
static uint32_t kernel_dev(uint32_t major, uint32_t minor)
{
	return (major << 20) | (minor & 0xfffff);
}

/* The mount of name in fd where statx gave no mount id (mount_id.h):
 * name_to_handle_at's, else id->dev. */
static void mount_without_statx(int fd, const char *name, int flags,
				struct dir_id *id)
{
	if (!libexecveat_mount_by_handle(fd, name, flags, &id->mount))
		id->mount = (struct mount_id){ .by_device = true,
					       .value = id->dev };
}

static int identify_by_statx(int fd, const char *name, int flags,
			     struct dir_id *id)
{
	struct sys_statx stx;
	int err = sys_statx(fd, name, flags,
			    SYS_STATX_TYPE | SYS_STATX_MODE | SYS_STATX_UID |
				    SYS_STATX_INO | SYS_STATX_BTIME |
				    SYS_STATX_MNT_ID,
			    &stx);

	if (err < 0)
		return err;
	*id = (struct dir_id){
		.ino = stx.stx_ino,
		.dev = kernel_dev(stx.stx_dev_major, stx.stx_dev_minor),
		.mount = { .value = stx.stx_mnt_id },
		.btime = (stx.stx_mask & SYS_STATX_BTIME) ?
				 (uint64_t)stx.stx_btime.tv_sec * 1000000000U +
					 stx.stx_btime.tv_nsec :
				 0,
		.uid = stx.stx_uid,
		.mode = stx.stx_mode,
	};
	if (!(stx.stx_mask & SYS_STATX_MNT_ID)) /* before Linux 5.8 */
		mount_without_statx(fd, name, flags, id);
	return 0;
}

/* Where statx is refused: no birth time, and the mount told otherwise. */
static int identify_by_fstatat(int fd, const char *name, int flags,
			       struct dir_id *id)
{
	struct stat st;
	int err = sys_fstatat(fd, name, &st, flags);

	if (err < 0)
		return err;
	*id = (struct dir_id){
		.ino = st.st_ino,
		.dev = kernel_dev(major(st.st_dev), minor(st.st_dev)),
		.uid = st.st_uid,
		.mode = (uint16_t)st.st_mode,
	};
	mount_without_statx(fd, name, flags, id);
	return 0;
}

/*
 * The identity of name in the directory fd, not followed ("" with
 * AT_EMPTY_PATH: of fd itself): 0 or -errno. statx gives the mount id and
 * birth time; a seccomp policy or a kernel before 4.11 may refuse it, and
 * then fstatat serves, for the rest of the walk.
 */
static int identify_at(struct walk *w, int fd, const char *name, int flags,
		       struct dir_id *id)
{
	int err;

	if (w->use_statx) {
		err = identify_by_statx(fd, name, flags, id);
		if (err != -ENOSYS && err != -EPERM)
			return err;
		w->use_statx = false;
	}
	return identify_by_fstatat(fd, name, flags, id);
}

/* What the file of fd is. */
int libexecveat_identify_fd(struct walk *w, int fd, struct dir_id *id)
{
	return identify_at(w, fd, "", AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH, id);
}

/* What name in the directory dirfd is, not followed. */
int libexecveat_identify_name(struct walk *w, int dirfd, const char *name,
			      struct dir_id *id)
{
	return identify_at(w, dirfd, name, AT_SYMLINK_NOFOLLOW, id);
}

int libexecveat_identify_level(struct walk *w, struct level *level)
{
	int err;

	if (level->identified)
		return 0;
	err = libexecveat_identify_fd(w, level->fd, &level->id);
	level->identified = err == 0;
	return err;
}

bool libexecveat_same_identity(const struct dir_id *a, const struct dir_id *b)
{
	return a->ino == b->ino && a->dev == b->dev &&
	       libexecveat_same_mount(&a->mount, &b->mount) &&
	       a->btime == b->btime;
}

/* 64 bits that stand for a level's identity (splitmix64's mixer). */
uint64_t libexecveat_digest_of(const struct dir_id *id)
{
	uint64_t mount = id->mount.value ^ (id->mount.by_device ? ~0ULL : 0);
	uint64_t h = id->ino ^ ((uint64_t)id->dev << 32 ^ mount) * 31 ^
		     id->btime * 0x9e3779b97f4a7c15U;

	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9U;
	h = (h ^ (h >> 27)) * 0x94d049bb133111ebU;
	return h ^ (h >> 31);
}

/*
 * RESOLVE_NO_XDEV, for every step that can cross a mount: into a
 * directory, up out of the bottom, to the root, through a magic link, to
 * the last name. Whether `to`, the file a step reached from the level
 * `from`, is on another mount: -EXDEV if so, 0 if not, -errno if either
 * cannot be identified. Without NO_XDEV it asks nothing and answers 0;
 * with it, both levels are identified after.
 */
int libexecveat_refuse_crossing(struct walk *w, struct level *from,
				struct level *to)
{
	int err;

	if (!(w->req.resolve & RESOLVE_NO_XDEV))
		return 0;
	err = libexecveat_identify_level(w, from);
	if (err == 0)
		err = libexecveat_identify_level(w, to);
	if (err < 0)
		return err;
	return libexecveat_same_mount(&from->id.mount, &to->id.mount) ? 0 :
								       -EXDEV;
}
