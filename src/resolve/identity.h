/*
 * What a file is (identity.c), asked only where something needs the
 * answer, and RESOLVE_NO_XDEV's judgement of a step across a mount.
 */
#ifndef EXECVEAT_RESOLVE_IDENTITY_H
#define EXECVEAT_RESOLVE_IDENTITY_H

#include <stdbool.h>
#include <stdint.h>

#include "walk.h"

/* What the file of fd is: 0 or -errno. */
int libexecveat_identify_fd(struct walk *w, int fd, struct dir_id *id);

/* What name in the directory dirfd is, not followed: 0 or -errno. */
int libexecveat_identify_name(struct walk *w, int dirfd, const char *name,
			      struct dir_id *id);

/* level->id, asked once: 0 or -errno. */
int libexecveat_identify_level(struct walk *w, struct level *level);

/* Whether a and b are one file: inode, device, mount and birth time. */
bool libexecveat_same_identity(const struct dir_id *a, const struct dir_id *b);

/* 64 bits that stand for an identity (levels.c says why that is enough). */
uint64_t libexecveat_digest_of(const struct dir_id *id);

/* RESOLVE_NO_XDEV: -EXDEV where `to`, reached from `from`, is on another
 * mount, 0 where it is not or the flag is not asked, -errno where either
 * cannot be identified. */
int libexecveat_refuse_crossing(struct walk *w, struct level *from,
				struct level *to);

#endif /* EXECVEAT_RESOLVE_IDENTITY_H */
