/*
 * The walk: openat2's fallback resolution (resolve.h). Its state is four
 * parts, what the caller asked (struct request), the directories held
 * (struct levels), the path still to walk (struct unwalked) and the name
 * being looked up (struct component), and the few facts the steps learn
 * on the way (struct walk's other fields). resolve.c has the threat
 * model, the loop and the map of the steps to the kernel's fs/namei.c.
 */
#ifndef EXECVEAT_RESOLVE_WALK_H
#define EXECVEAT_RESOLVE_WALK_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../path/held_ring.h"
#include "../path/mount_id.h"
#include "../path/path_name.h"
#include "execveat.h" /* RESOLVE_ flags */
#include "moment.h"

#define MAX_LINKS 40 /* the kernel's MAXSYMLINKS, over the whole lookup */
/* Directory fds held at once besides the bottom one (fewer where the fd
 * limit says so): a path of 64 components costs no more than one call
 * per component. */
#define HELD_MAX 64
/* Fds a ".." let go, closed together later: one close_range, not one
 * close each. */
#define SPARE_MAX 16
/* Levels deeper than the bottom. A path of PATH_MAX holds up to 2,048
 * components; links can add more, up to this depth (deeper still:
 * ENAMETOOLONG, where the kernel has no limit). */
#define MAX_DEPTH 4096
#define TEXT_SIZE (2 * PATH_MAX) /* the unwalked path, links spliced in */

#define SCOPED (RESOLVE_BENEATH | RESOLVE_IN_ROOT)

/* What the caller asked; read only during the walk. */
struct request {
	int flags;
	unsigned int mode;
	unsigned int resolve;
	bool regular_only; /* OPENAT2_REGULAR, which flags cannot hold */
};

/* What a directory is: enough to know it again (a ".." that must come
 * back to it), and to judge a mount crossing or a followed link. */
struct dir_id {
	uint64_t ino;
	uint64_t btime; /* seconds and nanoseconds, where the fs knows them */
	uint32_t dev;
	struct mount_id mount;
	uint32_t uid;
	uint16_t mode;
};

/* What the file system of a directory says of the links in it. */
struct fs_verdict {
	bool known;
	bool proc; /* procfs: a link may be magic */
	bool nosymfollow; /* mounted nosymfollow (Linux 5.10) */
};

/* A directory the walk went through and holds open. */
struct level {
	int fd;
	bool searched; /* a lookup in it succeeded: it may be searched */
	bool identified; /* id is known */
	struct dir_id id;
	struct fs_verdict fs;
};

/*
 * The directories held: level 0 (the bottom: dirfd, the cwd, or the
 * process root) and levels 1 .. depth above it, the last `held` of them
 * open in the ring (held_ring.h), the rest known by a digest of their
 * identity.
 */
struct levels {
	struct level bottom;
	bool bottom_owned; /* opened by the walk, so closed by it */
	struct held_ring ring;
	struct level slot[HELD_MAX]; /* level L in slot[L % HELD_MAX] */
	int spare[SPARE_MAX]; /* let go, closed at the end */
	int spares;
	bool close_range_refused;
	uint64_t digest[MAX_DEPTH + 1]; /* levels let go: what they were */
};

/* The path still to walk: text[pos ..], with links' texts spliced in
 * front of it; text[.. pos) is free room. */
struct unwalked {
	size_t pos;
	char text[TEXT_SIZE];
};

/* The name being looked up, NUL-terminated in place in the text. */
struct component {
	const char *name;
	enum last_kind kind; /* a name, ".", ".." */
	bool last; /* nothing follows it */
	bool trailing_slash; /* but slashes do */
};

struct walk {
	struct request req;
	struct levels levels;
	struct component comp;
	int links; /* followed so far */
	bool must_be_dir; /* a trailing slash asks it of the rest */
	bool root_set; /* the kernel's nd->root: see jump_to_root */
	bool use_statx; /* cleared where statx is refused */
	int answer; /* STEP_OPENED: the fd */
	bool answer_cloexec_added; /* opened close-on-exec for the walk's sake */
	struct unwalked unwalked;
};

/*
 * What a step did: one of these (never negative), or -errno where the
 * lookup fails. The loop (resolve.c) takes the next step; a step never calls
 * another step.
 */
enum step {
	STEP_ON, /* the walk goes on with the next component */
	STEP_AGAIN, /* the name changed under the step: take it again */
	STEP_LINK, /* the name is a link to follow */
	STEP_LINK_OR_FILE, /* a link, or no directory: readlinkat tells */
	STEP_MAGIC_LAST, /* the last name is a magic link, to open through */
	STEP_OPENED, /* the last component is open: w->answer */
};

#endif /* EXECVEAT_RESOLVE_WALK_H */
