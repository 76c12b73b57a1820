/*
 * One walk of openat2's fallback: its state, in four parts (what the
 * caller asked, the directories held, the path still to walk, the name
 * being looked up), and the steps that share it, one file each. open.c
 * maps the steps to their files and to the kernel's fs/namei.c.
 */
#ifndef EXECVEAT_RESOLVE_WALK_H
#define EXECVEAT_RESOLVE_WALK_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../resolve.h"

/*
 * These names are global in libexecveat.a, where a program's own names
 * live beside them: the library's prefix keeps them apart
 * (tests/check-static-names.sh). The code calls them by the short names.
 */
#define check_search libexecveat_resolve_check_search
#define current_level libexecveat_resolve_current_level
#define digest_of libexecveat_resolve_digest_of
#define finish_walk libexecveat_resolve_finish_walk
#define follow_link libexecveat_resolve_follow_link
#define identify libexecveat_resolve_identify
#define identify_level libexecveat_resolve_identify_level
#define jump_to_root libexecveat_resolve_jump_to_root
#define let_go_to_bottom libexecveat_resolve_let_go_to_bottom
#define make_room libexecveat_resolve_make_room
#define move_bottom libexecveat_resolve_move_bottom
#define next_component libexecveat_resolve_next_component
#define open_here libexecveat_resolve_open_here
#define open_last libexecveat_resolve_open_last
#define open_answer libexecveat_resolve_open_answer
#define open_last_dotdot libexecveat_resolve_open_last_dotdot
#define open_walk_fd libexecveat_resolve_open_walk_fd
#define pop_level libexecveat_resolve_pop_level
#define push_level libexecveat_resolve_push_level
#define refuse_crossing libexecveat_resolve_refuse_crossing
#define reopen_regular libexecveat_resolve_reopen_regular
#define same_file libexecveat_resolve_same_file
#define splice_link_text libexecveat_resolve_splice_link_text
#define start_unwalked libexecveat_resolve_start_unwalked
#define step_dotdot libexecveat_resolve_step_dotdot

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
	uint32_t mnt; /* 0 where statx is refused: then dev alone */
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
 * open in the ring, the rest known by a digest of their identity.
 */
struct levels {
	struct level bottom;
	bool bottom_owned; /* opened by the walk, so closed by it */
	int depth;
	int held;
	struct level ring[HELD_MAX]; /* level L in ring[L % HELD_MAX] */
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
	int error; /* STEP_FAILED: the errno */
	struct unwalked unwalked;
};

/* What a step did. */
enum step {
	STEP_ON, /* the walk goes on with the next component */
	STEP_AGAIN, /* the name changed under the step: take it again */
	STEP_OPENED, /* the last component is open: w->answer */
	STEP_FAILED, /* the lookup fails with w->error */
};

static inline enum step failed(struct walk *w, int err)
{
	w->error = err;
	return STEP_FAILED;
}

/* A -errno from a helper, or STEP_ON. */
static inline enum step on_or_failed(struct walk *w, int err)
{
	return err < 0 ? failed(w, -err) : STEP_ON;
}

/*
 * Test builds (EXECVEAT_RESOLVE_TEST_HOOKS) call out at the moments an
 * attacker would act between two system calls of a step, so that the
 * attack can be made at exactly that moment; other builds make no call.
 */
enum resolve_moment {
	BEFORE_READLINK, /* a step's open said "not a directory" */
	BEFORE_LAST_OPEN, /* the last component (a name, "..") is next */
	BEFORE_MAGIC_REOPEN, /* a magic link's target was judged */
	BEFORE_REFETCH, /* ".." must fetch a level it let go */
};
#ifdef EXECVEAT_RESOLVE_TEST_HOOKS
void libexecveat_resolve_test_hook(enum resolve_moment moment, int dirfd,
				   const char *name);
#define AT_MOMENT(moment, dirfd, name) \
	libexecveat_resolve_test_hook(moment, dirfd, name)
#else
#define AT_MOMENT(moment, dirfd, name) ((void)0)
#endif

/* unwalked.c: the path's text. */
void start_unwalked(struct walk *w, const char *path, size_t len);
bool next_component(struct walk *w);
int splice_link_text(struct walk *w, size_t n);

/* levels.c: the directories held. */
struct level *current_level(struct walk *w);
int open_walk_fd(struct walk *w, int dirfd, const char *name, int flags,
		 unsigned int mode);
int push_level(struct walk *w, const struct level *next);
int pop_level(struct walk *w);
void let_go_to_bottom(struct walk *w);
enum step move_bottom(struct walk *w, struct level *from, int dirfd,
		      const char *name);
int check_search(struct walk *w);
void make_room(struct walk *w, int *const extra[], int n);
int finish_walk(struct walk *w, enum step outcome);

/* identity.c: what a file is, and which mount it is on. */
int identify(struct walk *w, int fd, const char *name, struct dir_id *id);
int identify_level(struct walk *w, struct level *level);
bool same_file(const struct dir_id *a, const struct dir_id *b);
uint64_t digest_of(const struct dir_id *id);
int refuse_crossing(struct walk *w, struct level *from, struct level *to);

/* regular.c: the answer's open, with the caller's flags (and those a
 * step adds); under OPENAT2_REGULAR, a regular file proven first. An fd,
 * or -errno. reopen_regular: the file of fd (one the walk proved, or the
 * caller's own with the empty name), under OPENAT2_REGULAR. */
int open_answer(struct walk *w, int dirfd, const char *name, int flags,
		unsigned int mode);
int reopen_regular(struct walk *w, int fd, int flags, unsigned int mode);

/* dotdot.c, link.c, last.c: the steps. */
enum step step_dotdot(struct walk *w);
enum step open_last_dotdot(struct walk *w);
enum step follow_link(struct walk *w, bool seen_as_link);
enum step jump_to_root(struct walk *w);
enum step open_last(struct walk *w);
enum step open_here(struct walk *w);

#endif /* EXECVEAT_RESOLVE_WALK_H */
