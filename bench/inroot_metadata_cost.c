/*
 * What 2.1's path forms cost against the plain *at call on the same
 * file, as ratios measured in the same run: inroot_statx against
 * statx(dir, name), inroot_chmod against fchmodat, inroot_chown against
 * fchownat, inroot_utimens against utimensat, inroot_getxattr against
 * lgetxattr, each on a file 4 directories deep in a scratch directory,
 * the root's fd held (the plain calls resolve the same relative path
 * from it). Also inroot_fstatx of an O_PATH fd against statx on it.
 * Best of 5 rounds of 20,000 calls each; prints a table.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "inroot.h"

#define CALLS 20000
#define ROUNDS 5
#define PATH "a/b/c/d/f"

static int root, file_fd;
static char abs_path[256];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static long plain_statx(void) { struct statx s; return statx(root, PATH, AT_SYMLINK_NOFOLLOW, STATX_INO, &s); }
static long lib_statx(void) { struct statx s; return inroot_statx(root, PATH, AT_SYMLINK_NOFOLLOW, STATX_INO, &s); }
static long plain_fstatx(void) { struct statx s; return statx(file_fd, "", AT_EMPTY_PATH, STATX_INO, &s); }
static long lib_fstatx(void) { struct statx s; return inroot_fstatx(file_fd, 0, STATX_INO, &s); }
static long plain_chmod(void) { return fchmodat(root, PATH, 0644, 0); }
static long lib_chmod(void) { return inroot_chmod(root, PATH, 0644, 0); }
static long plain_chown(void) { return fchownat(root, PATH, (uid_t)-1, (gid_t)-1, 0); }
static long lib_chown(void) { return inroot_chown(root, PATH, (uid_t)-1, (gid_t)-1, 0); }
static long plain_utimens(void) { return utimensat(root, PATH, NULL, 0); }
static long lib_utimens(void) { return inroot_utimens(root, PATH, NULL, 0); }
static long plain_getxattr(void) { char v[8]; return lgetxattr(abs_path, "user.k", v, sizeof v); }
static long lib_getxattr(void) { char v[8]; return inroot_getxattr(root, PATH, "user.k", v, sizeof v, AT_SYMLINK_NOFOLLOW); }

/* A failing call would be timed failing: each first call must succeed. */
static double best(const char *name, long (*call)(void))
{
	double fastest = 1e9;

	if (call() < 0) {
		perror(name);
		exit(1);
	}
	for (int r = 0; r < ROUNDS; r++) {
		double start = now();

		for (int i = 0; i < CALLS; i++)
			call();
		if (now() - start < fastest)
			fastest = now() - start;
	}
	return fastest / CALLS * 1e9;
}

int main(void)
{
	static const struct {
		const char *name;
		long (*plain)(void), (*lib)(void);
	} pairs[] = {
		{ "statx", plain_statx, lib_statx },
		{ "fstatx (O_PATH fd)", plain_fstatx, lib_fstatx },
		{ "chmod", plain_chmod, lib_chmod },
		{ "chown", plain_chown, lib_chown },
		{ "utimens", plain_utimens, lib_utimens },
		{ "getxattr (lgetxattr)", plain_getxattr, lib_getxattr },
	};
	char top[] = "/tmp/inroot-metadata-cost-XXXXXX";

	if (mkdtemp(top) == NULL || chdir(top) != 0 ||
	    system("mkdir -p a/b/c/d && touch a/b/c/d/f") != 0)
		return 1;
	root = open(top, O_PATH | O_DIRECTORY | O_CLOEXEC);
	file_fd = open(PATH, O_PATH | O_CLOEXEC);
	snprintf(abs_path, sizeof abs_path, "%s/%s", top, PATH);
	if (root < 0 || file_fd < 0 ||
	    setxattr(abs_path, "user.k", "v", 1, 0) != 0) {
		perror(top);
		return 1;
	}
	printf("%-22s %10s %10s %7s\n", "call", "plain ns", "inroot ns",
	       "ratio");
	for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
		double plain = best(pairs[i].name, pairs[i].plain);
		double lib = best(pairs[i].name, pairs[i].lib);

		printf("%-22s %10.0f %10.0f %7.2f\n", pairs[i].name, plain, lib,
		       lib / plain);
	}
	snprintf(abs_path, sizeof abs_path, "rm -rf '%s'", top);
	return chdir("/") != 0 || system(abs_path) != 0;
}
