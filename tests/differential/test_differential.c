/*
 * The library's execveat against the raw system call, over thousands of
 * generated (dirfd, path, flags) triples: same outcome, same errno, same
 * exit status. The one difference is by design: a NULL path, which the
 * kernel refuses (EFAULT, or EINVAL for unknown flags from Linux 7.2 on)
 * and the library runs as "" + AT_EMPTY_PATH.
 *
 * Seeded and reproducible: DIFFERENTIAL_SEED and DIFFERENTIAL_TRIPLES
 * override the defaults, and a failure prints the seed and the triple.
 *
 * Where execveat is refused (qemu-user 7.2, a kernel before 3.19), both
 * sides would get the refusal for every triple and compare nothing: the
 * suite says so and skips.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "exec_outcome.h"
#include "execveat.h"
#include "execveat_refusal.h"
#include "fixture.h"
#include "fixture_dir.h"
#include "library_calls.h"

#define DEFAULT_SEED 20141105 /* any fixed value: runs must repeat */
#define DEFAULT_TRIPLES 3000
#define KNOWN_FLAGS (AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH | AT_EXECVE_CHECK)

struct triple {
	int dirfd;
	const char *path;
	int flags;
};

struct named_fd {
	const char *what;
	int fd;
};

struct named_path {
	const char *what;
	const char *path;
};

static struct fixture_dir dir;
static struct named_fd dirfds[20];
static size_t dirfd_count;
static struct named_path paths[24];
static size_t path_count;

/* splitmix64: small, fast, and the same sequence everywhere. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15U);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9U;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebU;
	return z ^ (z >> 31);
}

static uint64_t env_number(const char *name, uint64_t fallback)
{
	const char *value = getenv(name);

	return value != NULL && *value != '\0' ?
	       strtoull(value, NULL, 0) : fallback;
}

static void add_fd(const char *what, int fd)
{
	dirfds[dirfd_count++] = (struct named_fd){ what, fd };
}

static void add_path(const char *what, const char *path)
{
	paths[path_count++] = (struct named_path){ what, path };
}

static int open_in_dir(const char *name, int flags)
{
	int fd = openat(dir.dfd, name, flags);

	if (fd < 0)
		fail_msg("open %s: %m", name);
	return fd;
}

static void add_fds(void)
{
	int closed = open_in_dir(FIXTURE_PROGRAM, O_RDONLY), fds[2];

	close(closed);
	assert_int_equal(pipe(fds), 0);
	add_fd("AT_FDCWD", AT_FDCWD);
	add_fd("dir", dir.dfd);
	add_fd("dir O_PATH", open_in_dir(".", O_PATH | O_DIRECTORY));
	add_fd("subdir", open_in_dir(FIXTURE_SUBDIR, O_RDONLY | O_DIRECTORY));
	add_fd("program", open_in_dir(FIXTURE_PROGRAM, O_RDONLY));
	add_fd("program O_PATH", open_in_dir(FIXTURE_PROGRAM, O_PATH));
	add_fd("program O_CLOEXEC",
	       open_in_dir(FIXTURE_PROGRAM, O_RDONLY | O_CLOEXEC));
	add_fd("script", open_in_dir(FIXTURE_SCRIPT, O_RDONLY));
	add_fd("script O_CLOEXEC",
	       open_in_dir(FIXTURE_SCRIPT, O_RDONLY | O_CLOEXEC));
	add_fd("non-executable", open_in_dir(FIXTURE_NONEXEC, O_RDONLY));
	add_fd("pipe", fds[0]);
	/* Open for writing too, so that nothing that opens the FIFO to read
	 * it (valgrind's exec emulation does) waits for a writer. */
	add_fd("fifo", open_in_dir(FIXTURE_FIFO, O_RDWR));
	add_fd("closed fd", closed);
	add_fd("99", 99);
	add_fd("-1", -1);
	add_fd("INT_MAX", INT_MAX);
	add_fd("INT_MIN", INT_MIN);
}

static void add_paths(void)
{
	static char absolute[3][PATH_MAX], overlong[PATH_MAX + 1],
		long_name[NAME_MAX + 2];

	add_path("NULL", NULL);
	add_path("empty", "");
	add_path("program", FIXTURE_PROGRAM);
	add_path("../program", "../" FIXTURE_PROGRAM);
	add_path("script", FIXTURE_SCRIPT);
	add_path("../script", "../" FIXTURE_SCRIPT);
	add_path("symlink", FIXTURE_SYMLINK);
	add_path("absolute program", fixture_path(&dir, FIXTURE_PROGRAM,
						   absolute[0]));
	add_path("absolute symlink", fixture_path(&dir, FIXTURE_SYMLINK,
						   absolute[1]));
	add_path("absolute script", fixture_path(&dir, FIXTURE_SCRIPT,
						  absolute[2]));
	add_path("missing", "no-such-file");
	add_path("subdir", FIXTURE_SUBDIR);
	add_path("subdir/../program", FIXTURE_SUBDIR "/../" FIXTURE_PROGRAM);
	add_path(".", ".");
	add_path("/", "/");
	add_path("non-executable", FIXTURE_NONEXEC);
	add_path("program/", FIXTURE_PROGRAM "/");
	add_path("fifo", FIXTURE_FIFO);
	/* PATH_MAX bytes of "./": one too many with the NUL. */
	for (size_t i = 0; i < PATH_MAX; i++)
		overlong[i] = i % 2 == 0 ? '.' : '/';
	overlong[PATH_MAX] = '\0';
	add_path("PATH_MAX bytes", overlong);
	memset(long_name, 'n', NAME_MAX + 1);
	long_name[NAME_MAX + 1] = '\0';
	add_path("NAME_MAX + 1 component", long_name);
}

static int random_flags(uint64_t *state)
{
	uint64_t r = next_random(state);
	int known = 0;

	if (r & 1)
		known |= AT_SYMLINK_NOFOLLOW;
	if (r & 2)
		known |= AT_EMPTY_PATH;
	if ((r & 0x1c) == 0) /* rarely: it skips the exec on both sides */
		known |= AT_EXECVE_CHECK;
	switch ((r >> 8) % 10) {
	case 0: case 1: case 2:
		return known | (int)(1U << ((r >> 16) % 32));
	case 3: case 4:
		return (int)(uint32_t)(r >> 32);
	default:
		return known;
	}
}

static void call_library(void *ctx)
{
	const struct triple *t = ctx;

	call_execveat(t->dirfd, t->path, child_argv, child_envp, t->flags);
}

static void call_kernel(void *ctx)
{
	const struct triple *t = ctx;

	syscall(SYS_execveat, (long)t->dirfd, (long)(uintptr_t)t->path,
		(long)(uintptr_t)child_argv, (long)(uintptr_t)child_envp,
		(long)t->flags);
}

static bool same_outcome(struct exec_outcome a, struct exec_outcome b)
{
	return a.exec_returned == b.exec_returned &&
	       a.exec_errno == b.exec_errno &&
	       a.exit_status == b.exit_status && a.term_signal == b.term_signal;
}

static void describe(const char *side, struct exec_outcome o)
{
	if (o.exec_returned)
		fprintf(stderr, "  %s: returned, errno %d (%s)\n", side,
			o.exec_errno, strerror(o.exec_errno));
	else
		fprintf(stderr, "  %s: ran, exit %d, signal %d\n", side,
			o.exit_status, o.term_signal);
}

struct tally {
	unsigned int ran, returned;
	bool errno_seen[256];
};

/*
 * The kernel's answer to a NULL path: EFAULT, from reading it; or, where
 * the flags hold a bit execveat does not know, EINVAL from Linux 7.2 on,
 * which checks the flags before it reads the path (6.18 reads it first).
 */
static void assert_kernel_refuses_null(struct exec_outcome o, int flags)
{
	const int known = AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW |
			  AT_EXECVE_CHECK;

	if ((flags & ~known) && o.exec_returned && o.exec_errno == EINVAL)
		return;
	assert_exec_failed(o, EFAULT);
}

static void check_triple(uint64_t seed, uint64_t index,
			 const struct named_fd *fd,
			 const struct named_path *path, int flags,
			 struct tally *tally)
{
	struct triple lib = { fd->fd, path->path, flags };
	/* The NULL-path extension, spelled the way the kernel takes it. */
	struct triple raw = path->path == NULL ?
		(struct triple){ fd->fd, "", flags | AT_EMPTY_PATH } : lib;
	struct exec_outcome by_lib = run_in_child(NULL, call_library, &lib);
	struct exec_outcome by_raw = run_in_child(NULL, call_kernel, &raw);

	if (!same_outcome(by_lib, by_raw)) {
		fprintf(stderr, "seed %" PRIu64 ", triple %" PRIu64
			": dirfd %s, path %s, flags %#x\n", seed, index,
			fd->what, path->what, (unsigned int)flags);
		describe("library", by_lib);
		describe("kernel", by_raw);
		fail_msg("the library and the kernel disagree");
	}
	if (by_lib.exec_returned) {
		tally->returned++;
		tally->errno_seen[by_lib.exec_errno & 0xff] = true;
	} else {
		tally->ran++;
	}
	/* The difference by design: the kernel itself refuses NULL. */
	if (path->path == NULL)
		assert_kernel_refuses_null(run_in_child(NULL, call_kernel, &lib),
					   flags);
}

static void library_matches_kernel_on_generated_triples(void **state)
{
	(void)state;
	uint64_t seed = env_number("DIFFERENTIAL_SEED", DEFAULT_SEED);
	uint64_t count = env_number("DIFFERENTIAL_TRIPLES", DEFAULT_TRIPLES);
	uint64_t random_state = seed;
	struct tally tally = { 0 };
	unsigned int distinct_errnos = 0;

	printf("seed %" PRIu64 ", %" PRIu64 " triples\n", seed, count);
	for (uint64_t i = 0; i < count; i++) {
		uint64_t r = next_random(&random_state);

		check_triple(seed, i, &dirfds[r % dirfd_count],
			     &paths[(r >> 32) % path_count],
			     random_flags(&random_state), &tally);
	}
	for (size_t e = 0; e < 256; e++)
		distinct_errnos += tally.errno_seen[e];
	printf("%u ran, %u returned, %u distinct errnos\n", tally.ran,
	       tally.returned, distinct_errnos);
	/* A generator that only ever hit one error would prove little. */
	if (count >= DEFAULT_TRIPLES) {
		assert_true(tally.ran >= count / 20);
		assert_true(tally.returned >= count / 2);
		assert_true(distinct_errnos >= 7);
	}
}

static int make_fixtures(void **state)
{
	(void)state;
	fixture_dir_create(&dir);
	add_fds();
	add_paths();
	return 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(library_matches_kernel_on_generated_triples),
	};
	int failed, refusal = execveat_refusal();

	fixture_init(argc, argv);
	if (refusal != 0) {
		printf("SKIP: execveat fails with %s here, for the library "
		       "and the kernel alike, whatever the triple\n",
		       strerror(refusal));
		return 77;
	}
	failed = cmocka_run_group_tests(tests, make_fixtures, NULL);
	return fixture_dir_remove(&dir) == 0 ? failed : 1;
}
