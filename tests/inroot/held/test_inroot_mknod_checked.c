/*
 * inroot_mknod_checked: the node made is the node returned, and a swap
 * of its name between the mknod and the check is caught. The library is
 * built with the walk's call-outs (EXECVEAT_RESOLVE_TEST_HOOKS), and the
 * swap is made at exactly that moment (AFTER_MKNOD): the new node moved
 * aside and its name made a link to a file outside the root (what runc's
 * /dev/null and /dev/console attacks plant), or another device; or its
 * directory moved aside and another put in its place, holding a node of
 * the same kind under the same name: the node returned is still the one
 * made, in the directory it was made in (the directory is walked to
 * once, and held from the mknod to the check).
 *
 * Needs root (mknod, mount namespaces); else exits 77.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "inroot.h"
#include "resolve/moment.h"
#include "verdicts.h"
#include "world.h"

enum swap { NO_SWAP, SWAP_FOR_LINK, SWAP_FOR_DEVICE, SWAP_DIRECTORY };

static enum swap armed;
static char victim[256];
static const char *world;
static int root = -1;

void libexecveat_resolve_test_hook(enum resolve_moment moment, int dirfd,
				   const char *name)
{
	enum swap swap = armed;

	if (moment != AFTER_MKNOD || swap == NO_SWAP)
		return;
	armed = NO_SWAP;
	if (swap == SWAP_DIRECTORY) {
		/* dev moved aside, a new dev with a twin of the node made. */
		if (renameat(root, "dev", root, "dev-made") != 0 ||
		    mkdirat(root, "dev", 0755) != 0 ||
		    mknodat(root, "dev/zero", S_IFCHR | 0666, makedev(1, 5)))
			perror("the directory's swap");
		return;
	}
	if (renameat(dirfd, name, dirfd, "moved-aside") != 0 ||
	    (swap == SWAP_FOR_LINK ? symlinkat(victim, dirfd, name) :
	     mknodat(dirfd, name, S_IFCHR | 0666, makedev(1, 5))) != 0)
		perror("the swap");
}

static void expect(const char *name, int fd, int want_errno, mode_t type,
		   dev_t dev)
{
	char detail[160];
	struct stat st;
	bool ok;

	if (want_errno != 0) {
		ok = fd < 0 && errno == want_errno;
		snprintf(detail, sizeof detail, "answered %s",
			 fd < 0 ? strerror(errno) : "an fd");
	} else {
		ok = fd >= 0 && fstat(fd, &st) == 0 &&
		     (st.st_mode & S_IFMT) == type &&
		     (type == S_IFIFO || st.st_rdev == dev) &&
		     (fcntl(fd, F_GETFD) & FD_CLOEXEC) &&
		     (fcntl(fd, F_GETFL) & O_PATH);
		snprintf(detail, sizeof detail, "%s",
			 fd < 0 ? strerror(errno) : "not the node asked for");
	}
	verdict(ok, name, world, detail);
	if (fd >= 0)
		close(fd);
}

/* The node answered is dev-made/zero, the one made, not its twin. */
static void expect_made(const char *name, int fd)
{
	struct stat made, got;
	char detail[160];
	bool ok = fd >= 0 && fstat(fd, &got) == 0 &&
		  fstatat(root, "dev-made/zero", &made, AT_SYMLINK_NOFOLLOW) == 0 &&
		  got.st_ino == made.st_ino && got.st_dev == made.st_dev;

	snprintf(detail, sizeof detail, "%s", fd < 0 ? strerror(errno) :
		 "the twin put in the new directory, not the node made");
	verdict(ok, name, world, detail);
	if (fd >= 0)
		close(fd);
}

static int body(enum world w, const char *top)
{
	char path[512];

	world = world_names[w];
	snprintf(victim, sizeof victim, "%s/victim", top);
	snprintf(path, sizeof path, "%s/root", top);
	if (mkdir(path, 0755) != 0 || close(open(victim, O_CREAT | O_WRONLY,
						 0600)) != 0)
		return 2;
	root = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (inroot_mkdir_all(root, "dev", 0755) < 0)
		return 2;
	expect("a device node, checked", inroot_mknod_checked(root,
	       "/dev/null", S_IFCHR | 0666, makedev(1, 3)), 0, S_IFCHR,
	       makedev(1, 3));
	expect("a FIFO, checked", inroot_mknod_checked(root, "dev/fifo",
	       S_IFIFO | 0600, 0), 0, S_IFIFO, 0);
	expect("a name that exists", inroot_mknod_checked(root, "dev/null",
	       S_IFCHR | 0666, makedev(1, 3)), EEXIST, 0, 0);
	expect("a directory's mode", inroot_mknod_checked(root, "dev/x",
	       S_IFDIR | 0755, 0), EPERM, 0, 0);
	/* The kernel judges the type before it walks the path. */
	expect("no type, in a directory that is not there",
	       inroot_mknod_checked(root, "nowhere/x", S_IFMT | 0600, 0),
	       EINVAL, 0, 0);
	expect("a name in a directory that is not there",
	       inroot_mknod_checked(root, "nowhere/x", S_IFIFO | 0600, 0),
	       ENOENT, 0, 0);
	armed = SWAP_FOR_LINK;
	expect("swapped for a link out of the root", inroot_mknod_checked(root,
	       "dev/console", S_IFCHR | 0600, makedev(5, 1)), EAGAIN, 0, 0);
	armed = SWAP_FOR_DEVICE;
	expect("swapped for another device", inroot_mknod_checked(root,
	       "dev/tty", S_IFCHR | 0666, makedev(5, 0)), EAGAIN, 0, 0);
	armed = SWAP_DIRECTORY;
	expect_made("its directory swapped for one with a twin node",
		    inroot_mknod_checked(root, "dev/zero", S_IFCHR | 0666,
					 makedev(1, 5)));
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

int main(void)
{
	static const enum world worlds[] = { KERNEL, OPENAT2_ENOSYS, NO_PROC };

	return world_run_each(body, worlds, sizeof worlds / sizeof worlds[0],
			      "mknod and mount namespaces");
}
