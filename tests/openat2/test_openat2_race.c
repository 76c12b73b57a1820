/*
 * openat2's fallback under a rename race: another process exchanges, in a
 * loop, a directory inside the root with one outside it
 * (renameat2(RENAME_EXCHANGE)), and a directory inside with a symlink
 * outside, while the resolver resolves paths full of ".." under
 * RESOLVE_BENEATH and RESOLVE_IN_ROOT (O_PATH opens: directories too). No
 * result may be outside the root: the "secret" files above and beside
 * the root, and the directories that hold them, are never inside it.
 *
 * That the harness sees an escape when there is one is proven first, on
 * every run, without luck: a naive walk (one that asks the kernel for
 * "..", as a resolver holding no chain of directories must) calls back
 * between its steps, and the test makes the attacker's exchange right
 * there. The walk must then reach a secret, and must not without the
 * exchange. The timed race then runs the resolver, and the kernel's own
 * openat2 for reference, against the attacker, who must have exchanged
 * during each walk's attempts.
 *
 *   OPENAT2_RACE_ATTEMPTS  attempts per walk and flag (default 100000)
 *   OPENAT2_RACE_SECONDS   and at most this long each (default 20)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "resolve/resolve.h"

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

static char base[] = "/tmp/openat2-race-XXXXXX";
static int root_fd;
/* base/secret, base/out/secret, and the directories base and base/out */
static struct stat secrets[4];

static void die(const char *what)
{
	fprintf(stderr, "openat2-race: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void make(const char *rel, bool dir)
{
	char path[256];

	snprintf(path, sizeof path, "%s/%s", base, rel);
	if (dir ? mkdir(path, 0755) : close(open(path, O_CREAT | O_WRONLY,
						    0644)))
		die(path);
}

/*
 *   base/secret                 above the root
 *   base/root/a/b/c/d/1/.../8   the root, and the chain the paths walk:
 *                               deeper than the fds the resolver holds
 *   base/root/inside            a file the paths may reach
 *   base/out/secret             beside the root
 *   base/out/x/b/c/d/1/.../8    swapped with root/a
 *   base/out/link -> ../../../..  swapped with root/a/b/c
 *   base/root/target            a file, swapped with
 *   base/out/evil -> BASE/secret  an absolute link out of the root
 */
#define CHAIN "b/c/d/1/2/3/4/5/6/7/8"

static void make_chain(const char *top)
{
	char rel[128];
	size_t len = (size_t)snprintf(rel, sizeof rel, "%s", top);

	make(rel, true);
	for (const char *p = CHAIN; *p;) {
		size_t n = strcspn(p, "/");

		len += (size_t)snprintf(rel + len, sizeof rel - len, "/%.*s",
					(int)n, p);
		make(rel, true);
		p += n + (p[n] == '/');
	}
}

static void build(void)
{
	char path[256];

	if (mkdtemp(base) == NULL)
		die("mkdtemp");
	make("root", true);
	make("out", true);
	make_chain("root/a");
	make_chain("out/x");
	make("secret", false);
	make("out/secret", false);
	make("root/inside", false);
	snprintf(path, sizeof path, "%s/out/link", base);
	if (symlink("../../../..", path) < 0)
		die("symlink");
	make("root/target", false);
	char target[256];

	snprintf(target, sizeof target, "%s/secret", base);
	snprintf(path, sizeof path, "%s/out/evil", base);
	if (symlink(target, path) < 0)
		die("symlink evil");
	snprintf(path, sizeof path, "%s/secret", base);
	if (stat(path, &secrets[0]) < 0)
		die("stat secret");
	snprintf(path, sizeof path, "%s/out/secret", base);
	if (stat(path, &secrets[1]) < 0)
		die("stat out/secret");
	if (stat(base, &secrets[2]) < 0)
		die("stat base");
	snprintf(path, sizeof path, "%s/out", base);
	if (stat(path, &secrets[3]) < 0)
		die("stat out");
	snprintf(path, sizeof path, "%s/root", base);
	root_fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root_fd < 0)
		die("open root");
}

/* The attacker's moves, each an exchange that a second call undoes. */
enum move {
	MOVE_A_OUT,      /* root/a <-> out/x: the chain leaves the root */
	MOVE_TARGET_OUT, /* root/target <-> out/evil: an absolute link */
	MOVE_C_OUT,      /* root/a/b/c <-> out/link: c leaves, a link comes */
};

struct attacker {
	int root, out, b_in;
};

static struct attacker attacker_fds(void)
{
	int b = open(base, O_PATH | O_DIRECTORY | O_CLOEXEC);
	struct attacker at = {
		openat(b, "root", O_PATH | O_DIRECTORY | O_CLOEXEC),
		openat(b, "out", O_PATH | O_DIRECTORY | O_CLOEXEC), -1
	};

	at.b_in = openat(at.root, "a/b", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (b < 0 || at.root < 0 || at.out < 0 || at.b_in < 0)
		die("attacker's fds");
	close(b);
	return at;
}

static int exchange(const struct attacker *at, enum move m)
{
	switch (m) {
	case MOVE_A_OUT:
		return (int)syscall(SYS_renameat2, at->root, "a", at->out, "x",
				    RENAME_EXCHANGE);
	case MOVE_TARGET_OUT:
		return (int)syscall(SYS_renameat2, at->root, "target", at->out,
				    "evil", RENAME_EXCHANGE);
	default:
		return (int)syscall(SYS_renameat2, at->b_in, "c", at->out,
				    "link", RENAME_EXCHANGE);
	}
}

/* Exchanges made by the swapper, counted where the test can read them. */
static volatile uint64_t *swaps;

/* The attacker: exchanges, as fast as it can, until killed; dies with the
 * test (a test killed at its timeout leaves no swapper behind). */
static pid_t start_swapper(void)
{
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() == 1)
		_exit(1);
	struct attacker at = attacker_fds();

	for (unsigned long i = 0;; i++) {
		/* The chain's c twice as often as the others. */
		static const enum move order[] = { MOVE_A_OUT, MOVE_TARGET_OUT,
						   MOVE_C_OUT, MOVE_C_OUT };

		if (exchange(&at, order[i % 4]) == 0)
			(*swaps)++;
	}
}

/* Down the chain and back up, all or part of the way, then a name that
 * exists outside only. */
#define DOWN "a/" CHAIN "/"
#define UP4 "../../../../"
static const char *const paths[] = {
	"a/b/c/../../../secret",
	"a/b/c/d/../../../../../secret",
	"a/b/c/d/../../../../inside",
	DOWN UP4 UP4 "../../secret",             /* to b: out, if c moved */
	DOWN UP4 UP4 "../../../secret",          /* to a */
	DOWN UP4 UP4 UP4 "secret",               /* to the root */
	DOWN UP4 UP4 UP4 "../out/secret",        /* above it */
	"a/../a/b/../b/c/../../../secret",
	"target",                                /* the link, if swapped */
	"a/../target",
	"a/b/c/..",                              /* out, if c moved */
	DOWN UP4 UP4 "../..",                    /* the same */
};

/* Called by the naive walk after each step, with the number of steps
 * taken so far. */
typedef void between_steps(unsigned int steps);

/* A walk that asks the kernel for "..", and stops climbing where its own
 * count says the root is: what a resolver without a chain must do. */
static int naive_open(int dirfd, const char *path, unsigned int resolve,
		      between_steps *between)
{
	char copy[512], *save, *name;
	int cur = dup(dirfd), depth = 0;
	unsigned int steps = 0;

	snprintf(copy, sizeof copy, "%s", path);
	for (name = strtok_r(copy, "/", &save); name != NULL;) {
		char *next = strtok_r(NULL, "/", &save);
		int fd;

		if (strcmp(name, "..") == 0 && depth == 0) {
			if (resolve & RESOLVE_BENEATH) {
				close(cur);
				errno = EXDEV;
				return -1;
			}
			name = next;
			continue;
		}
		fd = openat(cur, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		close(cur);
		if (fd < 0)
			return -1;
		depth += strcmp(name, "..") == 0 ? -1 : 1;
		cur = fd;
		name = next;
		if (between != NULL)
			between(++steps);
	}
	return cur;
}

enum walker { RESOLVER, KERNEL };

static int open_by(enum walker who, const char *path, unsigned int resolve)
{
	struct open_how how = { .flags = O_PATH | O_CLOEXEC,
				.resolve = resolve };

	int fd;

	if (who == KERNEL)
		return (int)syscall(SYS_openat2, root_fd, path, &how,
				    sizeof how);
	/* The resolver answers -errno, as the library does inside. */
	fd = libexecveat_resolve_open(root_fd, path, &how);
	if (fd < 0) {
		errno = -fd;
		fd = -1;
	}
	return fd;
}

/* Which of the secrets fd is (an index into secrets), or -1. */
static int secret_of(int fd)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		die("fstat");
	for (int i = 0; i < 4; i++)
		if (st.st_dev == secrets[i].st_dev &&
		    st.st_ino == secrets[i].st_ino)
			return i;
	return -1;
}

static bool is_secret(int fd)
{
	return secret_of(fd) >= 0;
}

/* ---- the control: an escape, made on purpose, is seen ---- */

static const char *const secret_names[] = { "BASE/secret", "BASE/out/secret",
					    "BASE", "BASE/out" };

static const struct control {
	const char *path;
	enum move move;
	const char *move_name;
	unsigned int after_step; /* the walk is inside the moved directory */
	int reaches;             /* the secret it then reaches */
} controls[] = {
	/* a leaves: its ".." is out, which the walk counts as the root. */
	{ "a/b/c/d/../../../../secret", MOVE_A_OUT, "root/a <-> out/x", 1, 1 },
	/* c leaves: its ".." is out, and one more is the base. */
	{ "a/b/c/../../secret", MOVE_C_OUT, "root/a/b/c <-> out/link", 3, 0 },
};

static struct attacker control_attacker;
static const struct control *control_now;
static bool control_moved;

static void move_in_control(unsigned int steps)
{
	if (control_now != NULL && steps == control_now->after_step) {
		if (exchange(&control_attacker, control_now->move) != 0)
			die("exchange");
		control_moved = true;
	}
}

/* The naive walk of c's path, with c's move made between its steps (or
 * not), then undone: the secret it reached, or -1. */
static int naive_reaches(const struct control *c, unsigned int resolve,
			 bool with_move)
{
	int fd, reached = -1;

	control_now = with_move ? c : NULL;
	control_moved = false;
	fd = naive_open(root_fd, c->path, resolve, move_in_control);
	if (fd >= 0) {
		reached = secret_of(fd);
		close(fd);
	}
	if (control_moved && exchange(&control_attacker, c->move) != 0)
		die("exchange back");
	if (with_move && !control_moved)
		die("the walk never reached the control's step");
	return reached;
}

/* Each control path, under each flag: no escape as the tree stands, and
 * the escape expected when the attacker moves a directory between two
 * steps. */
static bool control_sees_escapes(const char *flag, unsigned int resolve)
{
	bool ok = true;

	for (size_t i = 0; i < sizeof controls / sizeof *controls; i++) {
		const struct control *c = &controls[i];
		int still = naive_reaches(c, resolve, false);
		int moved = naive_reaches(c, resolve, true);
		bool right = still < 0 && moved == c->reaches;

		printf("%s naive walk, %s, \"%s\": %s; with %s after step "
		       "%u: %s\n", right ? "control:" : "FAIL: control:", flag,
		       c->path, still < 0 ? "no secret" : secret_names[still],
		       c->move_name, c->after_step,
		       moved < 0 ? "no secret" : secret_names[moved]);
		ok &= right;
	}
	return ok;
}

/* ---- the timed race ---- */

struct tally {
	uint64_t attempts, escapes, opened, swaps, failed[256];
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static struct tally race(enum walker who, unsigned int resolve,
			 uint64_t attempts, double seconds)
{
	struct tally t = { 0 };
	double end = now() + seconds;
	uint64_t swaps_before = *swaps;

	while (t.attempts < attempts && (t.attempts % 256 || now() < end)) {
		const char *path =
			paths[t.attempts % (sizeof paths / sizeof *paths)];
		int fd = open_by(who, path, resolve);

		t.attempts++;
		if (fd < 0) {
			t.failed[errno & 255]++;
			continue;
		}
		t.opened++;
		if (is_secret(fd)) {
			t.escapes++;
			if (t.escapes == 1)
				printf("ESCAPE: %s reached a secret by \"%s\"\n",
				       who == RESOLVER ? "the resolver" :
							 "the kernel",
				       path);
		}
		close(fd);
	}
	t.swaps = *swaps - swaps_before;
	return t;
}

static void report(const char *who, const char *flag, struct tally t)
{
	printf("%-9s %-7s %7" PRIu64 " attempts, %" PRIu64 " escapes, %" PRIu64
	       " opened inside, %" PRIu64 " exchanges meanwhile, failed:",
	       who, flag, t.attempts, t.escapes, t.opened - t.escapes, t.swaps);
	for (int e = 1; e < 256; e++)
		if (t.failed[e])
			printf(" %s %" PRIu64, strerrorname_np(e), t.failed[e]);
	printf("\n");
}

static void remove_all(void)
{
	char cmd[300];

	/* The swapper is gone: the tree is still. */
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
	if (system(cmd) != 0)
		fprintf(stderr, "openat2-race: could not remove %s\n", base);
}

int main(void)
{
	const char *a = getenv("OPENAT2_RACE_ATTEMPTS");
	const char *s = getenv("OPENAT2_RACE_SECONDS");
	uint64_t attempts = a && *a ? strtoull(a, NULL, 0) : 100000;
	double seconds = s && *s ? strtod(s, NULL) : 20;
	static const struct {
		const char *name;
		unsigned int resolve;
	} flags[] = { { "BENEATH", RESOLVE_BENEATH },
		      { "IN_ROOT", RESOLVE_IN_ROOT } };
	bool failed = false;
	struct tally t;

	setvbuf(stdout, NULL, _IOLBF, 0);
	build();
	control_attacker = attacker_fds();
	for (size_t i = 0; i < 2; i++)
		failed |= !control_sees_escapes(flags[i].name, flags[i].resolve);
	if (failed) {
		printf("FAIL: the harness does not see an escape made on "
		       "purpose: the race would prove nothing\n");
		remove_all();
		return 1;
	}
	swaps = mmap(NULL, sizeof *swaps, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (swaps == MAP_FAILED)
		die("mmap");
	pid_t swapper = start_swapper();

	if (swapper < 0)
		die("fork");
	for (size_t i = 0; i < 2; i++) {
		t = race(RESOLVER, flags[i].resolve, attempts, seconds);
		report("resolver", flags[i].name, t);
		failed |= t.escapes != 0;
		if (t.swaps == 0) {
			printf("FAIL: the swapper exchanged nothing during the "
			       "resolver's walks: no race was run\n");
			failed = true;
		}
		t = race(KERNEL, flags[i].resolve, attempts / 10, seconds);
		report("kernel", flags[i].name, t);
	}
	kill(swapper, SIGKILL);
	waitpid(swapper, NULL, 0);
	remove_all();
	return failed ? 1 : 0;
}
