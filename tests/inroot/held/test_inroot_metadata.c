/*
 * The metadata operations of inroot.h (statx, chmod, chown, utimens and
 * the xattr calls, by path and by O_PATH fd), in each world of world.h:
 * a last link followed inside the root and never out of it; a link met
 * where AT_SYMLINK_NOFOLLOW is asked acted on itself (or EOPNOTSUPP,
 * as the kernel's chmod answers); a file outside the root, and the one a
 * fake /proc names, never touched; a FIFO and a device node never
 * opened, nor a regular file (an inotify watch sees every open), and
 * another process's write lease on a file kept whole (the kernel's
 * chmod and setxattr break none; an open for reading would); and the
 * answer where no way without an open is left: EOPNOTSUPP, in the
 * worlds where that is so (a regular file's mode without fchmodat2 and
 * a proven /proc, its attributes without the *xattrat calls, or through
 * an O_PATH fd without a proven /proc as well).
 *
 * Needs root (mount namespaces, chown, mknod); else exits 77.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "inroot.h"
#include "verdicts.h"
#include "world.h"

static const char *world;

/* top's path p, for the test's own look at the tree. */

static int build(const char *top)
{
	static const char *const dirs[] = { "outside", "root", "root/d" };
	int ok = 0;

	for (size_t i = 0; i < 3; i++)
		ok |= mkdir(in_top(top, dirs[i]), 0755);
	ok |= close(open(in_top(top, "outside/victim"), O_CREAT | O_WRONLY,
			 0644));
	ok |= close(open(in_top(top, "root/f"), O_CREAT | O_WRONLY, 0644));
	ok |= close(open(in_top(top, "root/leased"), O_CREAT | O_WRONLY, 0644));
	ok |= symlink("/f", in_top(top, "root/l"));
	ok |= symlink("../outside/victim", in_top(top, "root/up"));
	ok |= symlink("/nowhere", in_top(top, "root/dangle"));
	ok |= symlink("loop", in_top(top, "root/loop"));
	ok |= mkfifo(in_top(top, "root/fifo"), 0644);
	ok |= mknod(in_top(top, "root/null"), S_IFCHR | 0644, makedev(1, 3));
	return ok;
}

static void check(const char *name, int rc, int want_errno)
{
	verdict_answer(name, world, rc, want_errno);
}

static void check_true(const char *name, bool ok, const char *detail)
{
	verdict(ok, name, world, detail);
}

static struct stat stat_of(const char *top, const char *p)
{
	struct stat st = { 0 };

	lstat(in_top(top, p), &st);
	return st;
}

static void victim_untouched(const char *top, const char *after)
{
	char name[96], value[8];
	struct stat st = stat_of(top, "outside/victim");

	snprintf(name, sizeof name, "victim untouched after %s", after);
	check_true(name, (st.st_mode & 07777) == 0644 && st.st_uid == 0 &&
			 st.st_mtime != 1000 &&
			 getxattr(in_top(top, "outside/victim"), "user.k",
				  value, sizeof value) < 0,
		   "its mode, owner, time or attributes changed");
}

static void by_path(enum world w, int root, const char *top)
{
	bool proc = world_proc(w), mode_ok = world_has(FCHMODAT2) || proc;
	bool attrs = user_xattrs_at(top), attrs_at = attrs && world_has(XATTRAT);
	struct statx stx;
	struct timespec ts[2] = { { 1000, 0 }, { 1000, 0 } };
	char value[8] = "";

	check("statx follows a link inside the root",
	      inroot_statx(root, "l", 0, STATX_INO, &stx), 0);
	check_true("statx of l is f", stx.stx_ino == stat_of(top, "root/f").st_ino,
		   "another inode");
	check("statx nofollow", inroot_statx(root, "l", AT_SYMLINK_NOFOLLOW,
					     STATX_TYPE, &stx), 0);
	check_true("statx nofollow is the link", S_ISLNK(stx.stx_mode),
		   "not a link");
	check("statx of a link out of the root", inroot_statx(root, "up", 0,
	      STATX_INO, &stx), ENOENT);
	check("statx of a loop", inroot_statx(root, "loop", 0, STATX_INO, &stx),
	      ELOOP);
	check("statx with an unknown flag",
	      inroot_statx(root, "f", AT_EMPTY_PATH, STATX_INO, &stx), EINVAL);
	/* A regular file's mode: fchmodat2, or a proven /proc. */
	check("chmod follows", inroot_chmod(root, "l", 0600, 0),
	      mode_ok ? 0 : EOPNOTSUPP);
	check_true("chmod changed f", (stat_of(top, "root/f").st_mode & 0777) ==
		   (mode_ok ? 0600 : 0644), "f's mode");
	check("chmod of a directory", inroot_chmod(root, "d", 0700, 0), 0);
	check_true("chmod changed d", (stat_of(top, "root/d").st_mode & 0777) ==
		   0700, "d's mode");
	check("chmod of a link itself", inroot_chmod(root, "l", 0600,
		  AT_SYMLINK_NOFOLLOW), EOPNOTSUPP);
	check("chmod of a dangling link", inroot_chmod(root, "dangle", 0600, 0),
	      ENOENT);
	check("chmod out of the root", inroot_chmod(root, "up", 0600, 0), ENOENT);
	check("chown follows", inroot_chown(root, "l", 1234, 1234, 0), 0);
	check_true("chown changed f", stat_of(top, "root/f").st_uid == 1234,
		   "f's owner");
	check("lchown", inroot_chown(root, "l", 4321, 4321,
				     AT_SYMLINK_NOFOLLOW), 0);
	check_true("lchown changed the link", stat_of(top, "root/l").st_uid ==
		   4321 && stat_of(top, "root/f").st_uid == 1234, "owners");
	check("utimens through .. and a link", inroot_utimens(root, "d/../l",
							      ts, 0), 0);
	check_true("utimens changed f", stat_of(top, "root/f").st_mtime == 1000,
		   "f's time");
	/* A regular file's attributes: the *xattrat calls (and a file
	 * system that has user.* attributes at all: tmpfs since 6.6). */
	check("setxattr follows", inroot_setxattr(root, "/d/../l", "user.k",
						  "v", 1, 0, 0),
	      attrs_at ? 0 : EOPNOTSUPP);
	check("getxattr", (int)inroot_getxattr(root, "f", "user.k", value,
					       sizeof value, 0) - 1,
	      attrs_at ? 0 : EOPNOTSUPP);
	check_true("getxattr's value", value[0] == (attrs_at ? 'v' : '\0'),
		   "not the value set");
	check("listxattr", (int)inroot_listxattr(root, "l", value,
						 sizeof value, 0) - 7,
	      attrs_at ? 0 : EOPNOTSUPP);
	check("removexattr", inroot_removexattr(root, "l", "user.k", 0),
	      attrs_at ? 0 : EOPNOTSUPP);
	/* A directory's, in every world. */
	check("setxattr of a directory", inroot_setxattr(root, "d/", "user.k",
		  "w", 1, 0, 0), attrs ? 0 : EOPNOTSUPP);
	check("getxattr of a directory", (int)inroot_getxattr(root, "d",
		  "user.k", value, sizeof value, 0) - 1, attrs ? 0 : EOPNOTSUPP);
	check_true("getxattr's value", value[0] == (attrs ? 'w' : '\0'),
		   "not the value set");
	/* Without user.* attributes, a list of none. */
	check("listxattr of a directory", (int)inroot_listxattr(root, "d/.",
		  value, sizeof value, 0) - (attrs ? 7 : 0), 0);
	check("removexattr of a directory", inroot_removexattr(root, "d",
		  "user.k", 0), attrs ? 0 : EOPNOTSUPP);
	check("removexattr again", inroot_removexattr(root, "d", "user.k", 0),
	      attrs ? ENODATA : EOPNOTSUPP);
	check("setxattr out of the root", inroot_setxattr(root, "up", "user.k",
		  "v", 1, 0, 0), ENOENT);
	victim_untouched(top, "the path forms");
}

/* The fd forms on O_PATH fds; those of a regular file's attributes and
 * mode need a way this world may not have. */
static void by_fd(enum world w, int root, const char *top)
{
	int f = inroot_resolve(root, "l"), d = inroot_resolve(root, "d");
	bool proc = world_proc(w), attrs = user_xattrs_at(top);
	bool mode_ok = world_has(FCHMODAT2) || proc;
	bool times_ok = world_has(UTIMENSAT_EMPTY) || proc;
	bool attrs_ok = attrs && world_has(XATTRAT) &&
			(proc || world_has(XATTRAT_OPATH));
	struct timespec ts[2] = { { 1000, 0 }, { 1000, 0 } };
	struct timespec bad_ns[2] = { { 1000, 1000000000 }, { 1000, 0 } };
	struct timespec bad_mtime_ns[2] = { { 1000, UTIME_OMIT }, { 1000, -1 } };
	struct statx stx;
	char value[8];

	check("fstatx of an O_PATH fd", inroot_fstatx(f, 0, STATX_INO, &stx), 0);
	check("fchmod of an O_PATH fd", inroot_fchmod(f, 0640),
	      mode_ok ? 0 : EOPNOTSUPP);
	check("fchown of an O_PATH fd", inroot_fchown(f, 7, 7), 0);
	/* Before Linux 5.8 (no AT_EMPTY_PATH there), a regular file's fd
	 * needs a proven /proc. */
	check("futimens of an O_PATH fd", inroot_futimens(f, ts),
	      times_ok ? 0 : EOPNOTSUPP);
	check("futimens of an O_PATH fd, a bad nanosecond",
	      inroot_futimens(f, bad_ns), EINVAL);
	check("futimens of an O_PATH fd, a bad nanosecond in mtime",
	      inroot_futimens(f, bad_mtime_ns), EINVAL);
	check("futimens of a directory's O_PATH fd", inroot_futimens(d, ts), 0);
	/* A regular file's attributes through an O_PATH fd: the *xattrat
	 * calls, on the fd itself or through its proven /proc entry. */
	check("fsetxattr of an O_PATH fd", inroot_fsetxattr(f, "user.k", "v", 1,
							    0),
	      attrs_ok ? 0 : EOPNOTSUPP);
	check("fsetxattr of a directory's O_PATH fd",
	      inroot_fsetxattr(d, "user.k", "w", 1, 0), attrs ? 0 : EOPNOTSUPP);
	check("fgetxattr of a directory's O_PATH fd",
	      (int)inroot_fgetxattr(d, "user.k", value, sizeof value) - 1,
	      attrs ? 0 : EOPNOTSUPP);
	check("flistxattr of a directory's O_PATH fd",
	      (int)inroot_flistxattr(d, value, sizeof value) - (attrs ? 7 : 0),
	      0);
	check("fremovexattr of a directory's O_PATH fd",
	      inroot_fremovexattr(d, "user.k"), attrs ? 0 : EOPNOTSUPP);
	check("fgetxattr of a bad fd", (int)inroot_fgetxattr(-1, "user.k",
							    value, 8), EBADF);
	victim_untouched(top, "the fd forms");
	close(f);
	close(d);
}

/* Never an open of the FIFO, the device or the regular file, whatever
 * the answers. */
static void never_opened(int root, const char *top)
{
	static const char *const names[] = { "fifo", "null", "f" };
	char buf[4096], path[16];
	int in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		int fd = inroot_resolve(root, names[i]);

		snprintf(path, sizeof path, "root/%s", names[i]);
		inotify_add_watch(in, in_top(top, path), IN_OPEN);
		inroot_fchmod(fd, 0600);
		inroot_fsetxattr(fd, "user.k", "v", 1, 0);
		inroot_fgetxattr(fd, "user.k", buf, 8);
		inroot_chmod(root, names[i], 0600, 0);
		inroot_setxattr(root, names[i], "user.k", "v", 1, 0, 0);
		inroot_listxattr(root, names[i], buf, 8, 0);
		close(fd);
	}
	check_true("no FIFO, device or file opened",
		   read(in, buf, sizeof buf) < 0 && errno == EAGAIN,
		   "inotify saw an open");
	close(in);
}

/* A child holding a write lease on path until asked whether it still
 * does (F_GETLEASE: a break in progress names the type it goes to). */
struct lease_holder {
	pid_t pid;
	int ask, answer;
};

static bool lease_hold(const char *path, struct lease_holder *h)
{
	int ask[2], answer[2], lease = -1;
	char byte;

	if (pipe2(ask, O_CLOEXEC) != 0 || pipe2(answer, O_CLOEXEC) != 0 ||
	    (h->pid = fork()) < 0)
		return false;
	if (h->pid == 0) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);

		/* The break's signal would end the holder: the lease tells. */
		signal(SIGIO, SIG_IGN);
		lease = fd >= 0 && fcntl(fd, F_SETLEASE, F_WRLCK) == 0 ?
			F_WRLCK : -1;
		if (write(answer[1], &lease, sizeof lease) != sizeof lease ||
		    read(ask[0], &byte, 1) != 1)
			_exit(1);
		lease = fcntl(fd, F_GETLEASE);
		_exit(write(answer[1], &lease, sizeof lease) == sizeof lease ?
		      0 : 1);
	}
	close(ask[0]);
	close(answer[1]);
	h->ask = ask[1];
	h->answer = answer[0];
	return read(h->answer, &lease, sizeof lease) == sizeof lease &&
	       lease == F_WRLCK;
}

static bool lease_kept(struct lease_holder *h)
{
	int lease = -1, status;

	if (write(h->ask, "?", 1) != 1 ||
	    read(h->answer, &lease, sizeof lease) != sizeof lease)
		lease = -1;
	close(h->ask);
	close(h->answer);
	waitpid(h->pid, &status, 0);
	return lease == F_WRLCK;
}

/* Another process's write lease on a file whose mode and attributes are
 * changed, by path and through an O_PATH fd: kept whole, whichever way
 * each call took or whatever it answered. */
static void lease_unbroken(int root, const char *top)
{
	struct lease_holder h;
	int fd;

	if (!lease_hold(in_top(top, "root/leased"), &h)) {
		check_true("a write lease could be taken", false,
			   "F_SETLEASE refused");
		return;
	}
	fd = inroot_resolve(root, "leased");
	inroot_chmod(root, "leased", 0600, 0);
	inroot_fchmod(fd, 0640);
	inroot_setxattr(root, "leased", "user.k", "v", 1, 0, 0);
	inroot_fsetxattr(fd, "user.k", "w", 1, 0);
	inroot_fremovexattr(fd, "user.k");
	close(fd);
	check_true("another's write lease kept", lease_kept(&h),
		   "the lease was broken");
}

/* The way each call takes for a regular file here, as the calls this
 * world has decide it (the checks above prove the answers): one line
 * for the report's table. */
static void print_ways(enum world w)
{
	bool proc = world_proc(w);

	printf("ways (%s): chmod %s; xattr by path %s, by O_PATH fd %s; "
	       "futimens %s; chown, statx: AT_EMPTY_PATH\n", world,
	       world_has(FCHMODAT2) ? "fchmodat2" :
	       proc ? "/proc entry" : "EOPNOTSUPP",
	       world_has(XATTRAT) ? "*xattrat" : "EOPNOTSUPP",
	       world_has(XATTRAT) && world_has(XATTRAT_OPATH) ? "*xattrat" :
	       world_has(XATTRAT) && proc ? "/proc entry + *xattrat" :
	       "EOPNOTSUPP",
	       world_has(UTIMENSAT_EMPTY) ? "AT_EMPTY_PATH" :
	       proc ? "/proc entry" : "EOPNOTSUPP");
}

static int body(enum world w, const char *top)
{
	int root;

	world = world_names[w];
	print_ways(w);
	if (build(top) != 0) {
		perror("the tree");
		return 2;
	}
	root = open(in_top(top, "root"), O_PATH | O_DIRECTORY | O_CLOEXEC);
	by_path(w, root, top);
	by_fd(w, root, top);
	never_opened(root, top);
	lease_unbroken(root, top);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

int main(void)
{
	return world_run_each(body, NULL, 0, "mount namespaces, chown and mknod");
}
