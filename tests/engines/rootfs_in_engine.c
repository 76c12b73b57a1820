/*
 * A container runtime's first steps, linked with -lexecveat: it prepares
 * the mount targets of a root file system whose image planted links out
 * of it, with the operations of inroot.h, and prints what each gave, after
 * what the openat2 system call itself answers in the world it runs in.
 *
 *   rootfs_in_engine
 *
 * Beneath a directory of its own, /tmp/runtime.XXXXXX, it makes rootfs/
 * and outside/ side by side, and plants in rootfs/ the links dev -> "/"
 * and etc -> "../outside": followed from outside the root, each leads
 * out of it; resolved inside it, dev is the root itself and etc leads
 * nowhere. Prints, one line each:
 *   openat2 errno N  the raw call with a short struct: EINVAL (22) where
 *                    openat2 is allowed; EPERM or ENOSYS where refused
 *   proc dir         mkdir_all "proc": an O_PATH fd of rootfs/proc
 *   dev/pts dir      mkdir_all "dev/pts": rootfs/pts (dev -> / is the root)
 *   dev/null file    creat "dev/null" (rootfs/null), then resolve, reopen
 *                    O_PATH to O_RDONLY, fstat: the same regular file
 *   etc errno 17     mkdir_all "etc": EEXIST, mkdirat's answer for a
 *                    link that leads nowhere inside the root
 *   outside empty    nothing was made outside the root
 * or what came instead ("... errno N", "... of another file"). Exits 0
 * when every line is the one above, 1 when one is not, 2 when it could
 * not make its directory.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <inroot.h>

/* glibc 2.31 (Debian 11) names no SYS_openat2; the number is 437 on
 * every ABI this program is built for. */
#ifndef SYS_openat2
#define SYS_openat2 437
#endif

struct open_how_short {
	unsigned long long flags, mode, resolve;
};

static int rootfs = -1; /* an ordinary fd of rootfs/, to check against */
static int root = -1;	/* the O_PATH fd the runtime hands the library */
static bool all_expected = true;

/* fd (an answer of the library, closed here) must be the file named by
 * name in rootfs/, of type type. */
static void check_fd(const char *what, int fd, const char *name,
		     mode_t type)
{
	struct stat got, want;

	if (fd < 0) {
		printf("%s errno %d\n", what, errno);
		all_expected = false;
		return;
	}
	if (fstat(fd, &got) == 0 &&
	    fstatat(rootfs, name, &want, AT_SYMLINK_NOFOLLOW) == 0 &&
	    got.st_dev == want.st_dev && got.st_ino == want.st_ino &&
	    (got.st_mode & S_IFMT) == type) {
		printf("%s %s\n", what, type == S_IFDIR ? "dir" : "file");
	} else {
		printf("%s of another file\n", what);
		all_expected = false;
	}
	close(fd);
}

/* A bind-mount target for a file: made, then found again and opened for
 * reading through the O_PATH fd, as a runtime checks what it mounts on. */
static int file_target(const char *path)
{
	int fd = inroot_creat(root, path, O_WRONLY | O_CLOEXEC, 0644);
	int opath, readable, err;

	if (fd < 0)
		return -1;
	close(fd);
	opath = inroot_resolve(root, path);
	if (opath < 0)
		return -1;
	readable = inroot_reopen(opath, O_RDONLY | O_CLOEXEC);
	err = errno;
	close(opath);
	errno = err;
	return readable;
}

static void expect_errno(const char *what, int fd, int want)
{
	if (fd >= 0) {
		printf("%s fd\n", what);
		close(fd);
		all_expected = false;
		return;
	}
	printf("%s errno %d\n", what, errno);
	if (errno != want)
		all_expected = false;
}

/* Nothing was made in outside/ (its only way in is a link followed out
 * of the root). */
static void check_outside(int top)
{
	if (unlinkat(top, "outside", AT_REMOVEDIR) == 0) {
		printf("outside empty\n");
	} else {
		printf("outside errno %d\n", errno);
		all_expected = false;
	}
}

static int make_runtime_dir(char *dir, int *top)
{
	if (mkdtemp(dir) == NULL ||
	    (*top = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 ||
	    mkdirat(*top, "rootfs", 0755) != 0 ||
	    mkdirat(*top, "outside", 0755) != 0 ||
	    (rootfs = openat(*top, "rootfs", O_RDONLY | O_DIRECTORY |
						     O_CLOEXEC)) < 0 ||
	    symlinkat("/", rootfs, "dev") != 0 ||
	    symlinkat("../outside", rootfs, "etc") != 0 ||
	    (root = openat(*top, "rootfs", O_PATH | O_DIRECTORY |
						   O_CLOEXEC)) < 0) {
		fprintf(stderr, "making %s: %s\n", dir, strerror(errno));
		return -1;
	}
	return 0;
}

static void remove_runtime_dir(const char *dir, int top)
{
	static const char *const made[] = { "proc", "pts", "null", "dev",
					    "etc" };

	for (size_t i = 0; i < sizeof(made) / sizeof(made[0]); i++) {
		if (unlinkat(rootfs, made[i], 0) != 0)
			unlinkat(rootfs, made[i], AT_REMOVEDIR);
	}
	unlinkat(top, "rootfs", AT_REMOVEDIR);
	unlinkat(top, "outside", AT_REMOVEDIR);
	rmdir(dir);
}

int main(void)
{
	char dir[] = "/tmp/runtime.XXXXXX";
	struct open_how_short how = { .flags = O_RDONLY };
	int top = -1;

	setvbuf(stdout, NULL, _IONBF, 0);
	syscall(SYS_openat2, AT_FDCWD, ".", &how, 0);
	printf("openat2 errno %d\n", errno);

	if (make_runtime_dir(dir, &top) != 0)
		return 2;
	check_fd("proc", inroot_mkdir_all(root, "proc", 0755), "proc",
		 S_IFDIR);
	check_fd("dev/pts", inroot_mkdir_all(root, "dev/pts", 0755), "pts",
		 S_IFDIR);
	check_fd("dev/null", file_target("dev/null"), "null", S_IFREG);
	expect_errno("etc", inroot_mkdir_all(root, "etc", 0755), EEXIST);
	check_outside(top);
	remove_runtime_dir(dir, top);
	return all_expected ? 0 : 1;
}
