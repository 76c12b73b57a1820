/*
 * openat2's fallback under a rename race: another process exchanges, in a
 * loop, a directory inside the root with one outside it
 * (renameat2(RENAME_EXCHANGE)), and a directory inside with a symlink
 * outside, while the resolver resolves paths full of ".." under
 * RESOLVE_BENEATH and RESOLVE_IN_ROOT. No result may be outside the root:
 * the "secret" files above and beside the root are never inside it.
 *
 * The same harness runs a naive walk (one that asks the kernel for "..",
 * as a resolver holding no chain of directories must) and requires it to
 * escape, so that the test can fail; and the kernel's own openat2, for
 * reference.
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
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "resolve.h"

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

static char base[] = "/tmp/openat2-race-XXXXXX";
static int root_fd;
static struct stat secrets[2]; /* base/secret, base/out/secret */

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
	snprintf(path, sizeof path, "%s/secret", base);
	if (stat(path, &secrets[0]) < 0)
		die("stat secret");
	snprintf(path, sizeof path, "%s/out/secret", base);
	if (stat(path, &secrets[1]) < 0)
		die("stat out/secret");
	snprintf(path, sizeof path, "%s/root", base);
	root_fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root_fd < 0)
		die("open root");
}

/* The attacker: exchanges, as fast as it can, until killed. */
static pid_t start_swapper(void)
{
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	int b = open(base, O_PATH | O_DIRECTORY);
	int root = openat(b, "root", O_PATH | O_DIRECTORY);
	int out = openat(b, "out", O_PATH | O_DIRECTORY);
	int b_in = openat(root, "a/b", O_PATH | O_DIRECTORY);

	if (b < 0 || root < 0 || out < 0 || b_in < 0)
		_exit(1);

	for (unsigned long i = 0;; i++) {
		if (i % 3 == 0)
			syscall(SYS_renameat2, root, "a", out, "x",
				RENAME_EXCHANGE);
		else
			syscall(SYS_renameat2, b_in, "c", out, "link",
				RENAME_EXCHANGE);
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
};

/* A walk that asks the kernel for "..", and stops climbing where its own
 * count says the root is: what a resolver without a chain must do. */
static int naive_open(int dirfd, const char *path, unsigned int resolve)
{
	char copy[512], *save, *name;
	int cur = dup(dirfd), depth = 0;

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
		fd = openat(cur, name, next ? O_PATH | O_NOFOLLOW | O_CLOEXEC :
					     O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		close(cur);
		if (fd < 0)
			return -1;
		depth += strcmp(name, "..") == 0 ? -1 : 1;
		cur = fd;
		name = next;
	}
	return cur;
}

enum walker { RESOLVER, NAIVE, KERNEL };

static int open_by(enum walker who, const char *path, unsigned int resolve)
{
	struct open_how how = { .flags = O_RDONLY | O_CLOEXEC,
				.resolve = resolve };

	switch (who) {
	case RESOLVER:
		return libexecveat_resolve_open(root_fd, path, &how);
	case NAIVE:
		return naive_open(root_fd, path, resolve);
	default:
		return (int)syscall(SYS_openat2, root_fd, path, &how, sizeof how);
	}
}

struct tally {
	uint64_t attempts, escapes, opened, failed[256];
};

static bool is_secret(int fd)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		die("fstat");
	for (int i = 0; i < 2; i++)
		if (st.st_dev == secrets[i].st_dev &&
		    st.st_ino == secrets[i].st_ino)
			return true;
	return false;
}

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
			if (t.escapes == 1 && who != NAIVE)
				printf("ESCAPE: %s reached a secret by \"%s\"\n",
				       who == RESOLVER ? "the resolver" :
							 "the kernel",
				       path);
		}
		close(fd);
	}
	return t;
}

static void report(const char *who, const char *flag, struct tally t)
{
	printf("%-9s %-7s %7" PRIu64 " attempts, %" PRIu64 " escapes, %" PRIu64
	       " opened inside, failed:",
	       who, flag, t.attempts, t.escapes, t.opened - t.escapes);
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
	uint64_t naive_escapes = 0;
	struct tally t;

	build();
	pid_t swapper = start_swapper();

	if (swapper < 0)
		die("fork");
	for (size_t i = 0; i < 2; i++) {
		t = race(RESOLVER, flags[i].resolve, attempts, seconds);
		report("resolver", flags[i].name, t);
		failed |= t.escapes != 0;
		t = race(NAIVE, flags[i].resolve, attempts, seconds);
		report("naive", flags[i].name, t);
		naive_escapes += t.escapes;
		t = race(KERNEL, flags[i].resolve, attempts / 10, seconds);
		report("kernel", flags[i].name, t);
	}
	kill(swapper, SIGKILL);
	waitpid(swapper, NULL, 0);
	remove_all();
	if (naive_escapes == 0) {
		printf("FAIL: the naive walk never escaped: this race proves "
		       "nothing here\n");
		failed = true;
	}
	return failed ? 1 : 0;
}
