/*
 * fchmodat's fallback without /proc (src/chmod/chmod_fallback.c), where
 * the name changes under it, and what it leaves to others.
 *
 * The step that opens a directory again by its name in its held parent,
 * where the name changes between the lookup and the reopen: the
 * directory first looked up is the one whose (st_dev, st_ino) the step
 * is given; the name is then made to name another directory, a file, a
 * symlink, or a FIFO, as a rename racing with the call would. The step
 * must refuse (EAGAIN) and change nothing, and must not block on the
 * FIFO. The race is made deterministic by calling the step itself, from
 * the static library, with the name already swapped. Every FIFO or
 * device swapped in is watched with inotify: the step must never open
 * it (IN_OPEN). The parent directory is held as an fd, so a parent
 * swapped for a symlink after that changes nothing either.
 *
 * Then the whole call without /proc (a mount namespace of its own, as
 * root; skipped otherwise):
 * - a file on which the process holds POSIX record locks (F_SETLK), and
 *   so an fd, is changed through that fd, and keeps its locks (checked
 *   with F_OFD_GETLK from another fd); a file the process does not hold
 *   open is EOPNOTSUPP, never opened;
 * - the leases (F_SETLEASE) of another process: the kernel's chmod
 *   breaks none, nor does the fallback through a proven /proc, nor
 *   fchmodat or lchmod without /proc (EOPNOTSUPP, mode unchanged). The
 *   holder reads its lease back with F_GETLEASE, which names the type a
 *   break in progress goes to;
 * - a FIFO swapped in at the very moment the fallback would open the
 *   name (its opens held by a seccomp user notification) is never
 *   opened: a writer blocked in its open stays blocked.
 *
 * Libc-neutral, so that musl and the qemu-user builds run it. Prints one
 * line per case and "N passed, N failed".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "chmod/chmod_fallback.h"
#include "held_open.h"
#include "kernel_env.h"
#include "proc_mounts.h"
#include "record_lock.h"

static int dir = -1;
static int passed, failed, skipped;

static mode_t mode_of(const char *name)
{
	struct stat st;

	return fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0 ?
	       st.st_mode & 07777 : (mode_t)-1;
}

static void check(bool ok, const char *name, const char *detail)
{
	printf("%s %s%s%s\n", ok ? "ok" : "not ok", name, ok ? "" : ": ",
	       ok ? "" : detail);
	if (ok)
		passed++;
	else
		failed++;
}

static void make_file(const char *name)
{
	int fd = openat(dir, name, O_CREAT | O_WRONLY | O_TRUNC, 0644);

	if (fd < 0 || fchmod(fd, 0644) != 0) {
		perror(name);
		exit(2);
	}
	close(fd);
}

static char top[] = "/tmp/test-chmod-reopen.XXXXXX";

/* An inotify fd watching dir's entry name for opens, or -1. */
static int watch_opens(const char *name)
{
	char path[sizeof(top) + 32];
	int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);

	snprintf(path, sizeof(path), "%s/%s", top, name);
	if (fd >= 0 && inotify_add_watch(fd, path, IN_OPEN) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The opens a watch has seen (and forgets it); 0 with no watch. */
static int opens_seen(int watch)
{
	char buf[4096] __attribute__((aligned(8)));
	int opens = 0;
	ssize_t n;

	if (watch < 0)
		return 0;
	while ((n = read(watch, buf, sizeof(buf))) > 0)
		for (ssize_t at = 0; at < n;) {
			const struct inotify_event *ev =
				(const struct inotify_event *)(buf + at);

			opens += (ev->mask & IN_OPEN) != 0;
			at += (ssize_t)(sizeof(*ev) + ev->len);
		}
	close(watch);
	return opens;
}

/* A directory of mode mode, whatever the umask. */
static void make_dir(const char *name, mode_t mode)
{
	if (mkdirat(dir, name, mode) != 0 || fchmodat(dir, name, mode, 0) != 0) {
		perror(name);
		exit(2);
	}
}

/* Whatever name is now, removed. */
static void remove_name(const char *name)
{
	if (unlinkat(dir, name, 0) != 0)
		unlinkat(dir, name, AT_REMOVEDIR);
}

/* The directory "target" looked up, then "target" made to name what
 * swap() makes; the first directory stays reachable as "first". */
static void swapped_case(const char *name, void (*swap)(void),
			 const char *swapped_in)
{
	struct stat first;
	char detail[200];
	int rc, err, watch, opens;

	make_dir("target", 0755);
	if (fstatat(dir, "target", &first, 0) != 0 ||
	    renameat(dir, "target", dir, "first") != 0) {
		perror("setup");
		exit(2);
	}
	swap();
	watch = watch_opens("target");
	rc = libexecveat_chmod_by_reopening(dir, "target", &first, 0600);
	err = -rc;
	opens = opens_seen(watch);
	snprintf(detail, sizeof(detail), "returned %d (%s); first %04o, %s "
		 "%04o; %d opens of target", rc, rc ? strerror(err) : "-",
		 (unsigned)mode_of("first"), swapped_in,
		 (unsigned)mode_of(swapped_in), opens);
	check(rc == -EAGAIN && mode_of("first") == 0755 &&
	      mode_of(swapped_in) == 0644 && opens == 0, name, detail);
	remove_name("first");
	remove_name("target");
	remove_name("other");
}

/* A swap that could not be made proves nothing: the run stops. */
static void swapped(int rc, const char *what)
{
	if (rc != 0) {
		perror(what);
		exit(2);
	}
}

static void swap_in_another_file(void)
{
	make_file("other");
	swapped(renameat(dir, "other", dir, "target"), "rename");
}

static void swap_in_another_directory(void)
{
	make_dir("other", 0644);
	swapped(renameat(dir, "other", dir, "target"), "rename");
}

static void swap_in_a_symlink(void)
{
	make_file("other");
	swapped(symlinkat("other", dir, "target"), "symlink");
}

static void swap_in_a_fifo(void)
{
	swapped(mkfifoat(dir, "target", 0644), "mkfifo");
	swapped(fchmodat(dir, "target", 0644, 0), "chmod");
}

/* A character device of the kernel's that does nothing when opened
 * (/dev/null's numbers); root only: then a FIFO stands in. */
static void swap_in_a_device(void)
{
	if (mknodat(dir, "target", S_IFCHR | 0644, makedev(1, 3)) != 0)
		swap_in_a_fifo();
}

/*
 * The parent held as an fd, then swapped by name for a symlink to a
 * directory whose "target" is a FIFO: the step, relative to the fd it
 * holds, changes the file first found and opens no FIFO.
 */
static void swapped_parent_is_not_looked_up_again(void)
{
	struct stat first;
	char detail[200];
	int parent, rc, watch, opens;

	if (mkdirat(dir, "parent", 0755) != 0 || mkdirat(dir, "decoy", 0755) != 0 ||
	    mkfifoat(dir, "decoy/target", 0644) != 0) {
		perror("parent setup");
		exit(2);
	}
	make_dir("parent/target", 0755);
	parent = openat(dir, "parent", O_PATH | O_DIRECTORY);
	if (parent < 0 || fstatat(parent, "target", &first, 0) != 0) {
		perror("parent");
		exit(2);
	}
	swapped(renameat(dir, "parent", dir, "moved"), "rename parent");
	swapped(symlinkat("decoy", dir, "parent"), "symlink parent");
	watch = watch_opens("decoy/target");
	rc = libexecveat_chmod_by_reopening(parent, "target", &first, 0600);
	opens = opens_seen(watch);
	snprintf(detail, sizeof(detail), "returned %d (%s); moved/target %04o, "
		 "%d opens of the FIFO", rc, rc ? strerror(-rc) : "-",
		 (unsigned)mode_of("moved/target"), opens);
	check(rc == 0 && mode_of("moved/target") == 0600 &&
	      mode_of("decoy/target") == 0644 && opens == 0,
	      "parent_swapped_for_a_symlink_opens_nothing_there", detail);
	close(parent);
	unlinkat(dir, "moved/target", AT_REMOVEDIR);
	unlinkat(dir, "decoy/target", 0);
	unlinkat(dir, "parent", 0);
	unlinkat(dir, "moved", AT_REMOVEDIR);
	unlinkat(dir, "decoy", AT_REMOVEDIR);
}

enum lock_call { CALL_FCHMODAT, CALL_ABSOLUTE };

/*
 * In a child without /proc: "locked" held open with a POSIX lock, then
 * changed through the fallback. The answer (0 or an errno) and whether
 * the lock is still there and the mode changed go back through a pipe.
 */
static void locked_case(const char *name, short lock_type, bool lock,
			enum lock_call how)
{
	int report[2], status, got[3] = { -1, -1, -1 };
	char detail[200];
	pid_t pid;

	make_file("locked");
	if (pipe(report) != 0 || (pid = fork()) < 0) {
		perror("fork");
		exit(2);
	}
	if (pid == 0) {
		struct flock fl = { .l_type = lock_type, .l_whence = SEEK_SET,
				    .l_start = 0, .l_len = 10 };
		char path[sizeof(top) + 16];
		int held, other, rc, answer[3];

		close(report[0]);
		held = openat(dir, "locked", lock_type == F_RDLCK ? O_RDONLY : O_RDWR);
		if (hide_proc() != 0 || held < 0 ||
		    (lock && fcntl(held, F_SETLK, &fl) != 0))
			_exit(3);
		if (!lock)
			close(held); /* no fd held: nothing to keep */
		snprintf(path, sizeof(path), "%s/locked", top);
		rc = how == CALL_ABSOLUTE ?
		     libexecveat_chmod_without_fchmodat2(AT_FDCWD, path, 0600,
							  AT_SYMLINK_NOFOLLOW,
							  true) :
		     libexecveat_chmod_without_fchmodat2(dir, "locked", 0600,
							  AT_SYMLINK_NOFOLLOW,
							  true);
		answer[0] = -rc;
		other = openat(dir, "locked", O_RDONLY);
		answer[1] = record_lock_seen(other);
		answer[2] = (int)mode_of("locked");
		if (write(report[1], answer, sizeof(answer)) != sizeof(answer))
			_exit(4);
		_exit(0);
	}
	close(report[1]);
	if (read(report[0], got, sizeof(got)) != sizeof(got) ||
	    waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		printf("SKIP %s: no mount namespace or lock here\n", name);
		skipped++;
		close(report[0]);
		unlinkat(dir, "locked", 0);
		return;
	}
	close(report[0]);
	snprintf(detail, sizeof(detail), "answered %s, lock %s, mode %04o",
		 got[0] ? strerror(got[0]) : "0", got[1] ? "held" : "gone",
		 (unsigned)got[2]);
	if (lock)
		check(got[0] == 0 && got[1] && got[2] == 0600, name, detail);
	else
		check(got[0] == EOPNOTSUPP && got[2] == 0644, name, detail);
	unlinkat(dir, "locked", 0);
}

static void unchanged_name_changes_mode(void)
{
	struct stat st;
	char detail[64];
	int rc;

	make_dir("target", 0755);
	fstatat(dir, "target", &st, 0);
	rc = libexecveat_chmod_by_reopening(dir, "target", &st, 0600);
	snprintf(detail, sizeof(detail), "returned %d, mode %04o", rc,
		 (unsigned)mode_of("target"));
	check(rc == 0 && mode_of("target") == 0600,
	      "same_directory_reopened_changes_mode", detail);
	unlinkat(dir, "target", AT_REMOVEDIR);
}

enum lease_call { LEASE_KERNEL, LEASE_PROC, LEASE_FCHMODAT_NO_PROC,
		  LEASE_LCHMOD_NO_PROC };

/* The public functions (fchmodat.c), as a program calls them. */
int libexecveat_fchmodat(int dirfd, const char *path, mode_t mode, int flags);
int libexecveat_lchmod(const char *path, mode_t mode);

/* The public function's answer in a child without /proc and with
 * fchmodat2 refused (ENOSYS): 0 or -errno, -EOWNERDEAD where the world
 * could not be made. */
static int public_chmod_without_proc(enum lease_call how)
{
	char path[sizeof(top) + 16];
	int rc;

	if (hide_proc() != 0 || block_fchmodat2(ENOSYS) != 0)
		return -EOWNERDEAD;
	snprintf(path, sizeof(path), "%s/leased", top);
	rc = how == LEASE_LCHMOD_NO_PROC ?
	     libexecveat_lchmod(path, 0600) :
	     libexecveat_fchmodat(dir, "leased", 0600, AT_SYMLINK_NOFOLLOW);
	return rc == 0 ? 0 : -errno;
}

/* In a child: the chmod of "leased" to 0600, by the kernel's fchmodat or
 * the fallback with /proc, or fchmodat or lchmod without it; 0 or its
 * errno, or -1 where the world could not be made. */
static int chmod_leased(enum lease_call how)
{
	int report[2], answer = -1, status;
	pid_t pid;

	if (pipe(report) != 0 || (pid = fork()) < 0) {
		perror("fork");
		exit(2);
	}
	if (pid == 0) {
		close(report[0]);
		/* The fallback answers -errno, as inside the library. */
		if (how == LEASE_KERNEL)
			answer = fchmodat(dir, "leased", 0600, 0) == 0 ? 0 : -errno;
		else if (how == LEASE_PROC)
			answer = libexecveat_chmod_without_fchmodat2(
				dir, "leased", 0600, AT_SYMLINK_NOFOLLOW, true);
		else
			answer = public_chmod_without_proc(how);
		if (answer == -EOWNERDEAD)
			_exit(3);
		answer = -answer;
		_exit(write(report[1], &answer, sizeof(answer)) ==
		      sizeof(answer) ? 0 : 4);
	}
	close(report[1]);
	if (read(report[0], &answer, sizeof(answer)) != sizeof(answer))
		answer = -1;
	close(report[0]);
	waitpid(pid, &status, 0);
	return answer;
}

/*
 * Another process holds a write lease on "leased" (mode 0644) while the
 * file's mode is changed: the answer, the mode after, and whether the
 * lease is still whole, against what the case expects.
 */
static void leased_case(const char *name, enum lease_call how,
			int expected, bool lease_kept)
{
	int go[2], ready[2], status, answer, lease = -1;
	char byte = 0, detail[160];
	mode_t mode;
	pid_t holder;

	make_file("leased");
	if (pipe(go) != 0 || pipe(ready) != 0 || (holder = fork()) < 0) {
		perror("fork");
		exit(2);
	}
	if (holder == 0) {
		int fd = openat(dir, "leased", O_RDONLY);

		/* The break's signal would end the holder: ignored, the
		 * lease itself tells. */
		signal(SIGIO, SIG_IGN);
		lease = fd >= 0 && fcntl(fd, F_SETLEASE, F_WRLCK) == 0 ?
			F_WRLCK : -1;
		if (write(ready[1], &lease, sizeof(lease)) != sizeof(lease) ||
		    read(go[0], &byte, 1) != 1)
			_exit(4);
		lease = fcntl(fd, F_GETLEASE);
		_exit(write(ready[1], &lease, sizeof(lease)) == sizeof(lease) ?
		      0 : 4);
	}
	close(go[0]);
	close(ready[1]);
	if (read(ready[0], &lease, sizeof(lease)) != sizeof(lease) ||
	    lease != F_WRLCK) {
		printf("SKIP %s: no write lease here\n", name);
		skipped++;
		answer = -2;
	} else {
		answer = chmod_leased(how);
	}
	mode = mode_of("leased");
	if (write(go[1], &byte, 1) != 1 ||
	    read(ready[0], &lease, sizeof(lease)) != sizeof(lease))
		lease = -1;
	close(go[1]);
	close(ready[0]);
	waitpid(holder, &status, 0);
	unlinkat(dir, "leased", 0);
	if (answer == -2)
		return;
	if (answer == -1) {
		printf("SKIP %s: no mount namespace here\n", name);
		skipped++;
		return;
	}
	snprintf(detail, sizeof(detail), "answered %s, mode %04o, lease %s",
		 answer ? strerror(answer) : "0", (unsigned)mode,
		 lease == F_WRLCK ? "kept" : "broken");
	check(answer == expected && mode == (expected ? 0644 : 0600) &&
	      (lease == F_WRLCK) == lease_kept, name, detail);
}

/*
 * A FIFO swapped in at the moment of the fallback's open of the name:
 * every open without O_PATH of the calling child is held
 * (held_open.h), and where one is of "target", the parent first
 * exchanges "target" with a FIFO (RENAME_EXCHANGE) on which a writer is
 * blocked in its open, then lets the open go on. Without /proc and with
 * fchmodat2 refused, the FIFO must never be opened (inotify sees no
 * open, the writer stays blocked) and no mode may change: a regular
 * file is EOPNOTSUPP and opened by no name at all; a directory that its
 * owner may not search is opened by name only with O_DIRECTORY, which
 * the kernel refuses for a FIFO before any open (fs/namei.c: do_open),
 * and the name that changed is EAGAIN (Linux 7.2 opens the directory by
 * O_EMPTYPATH instead, with no name to swap: it changes).
 */
enum swap_call { SWAP_FCHMODAT_FILE, SWAP_LCHMOD_FILE, SWAP_FCHMODAT_DIR };

#define NOBODY 65534
#define RENAME_EXCHANGE_FLAG 2 /* <linux/fs.h> RENAME_EXCHANGE */

static int swap_dir = -1;
static int exchanges;

static void exchange_fifo_and_target(void *unused)
{
	(void)unused;
	if (syscall(SYS_renameat2, swap_dir, "fifo", swap_dir, "target",
		    RENAME_EXCHANGE_FLAG) == 0)
		exchanges++;
}

/* Whether pid sleeps in openat: /proc/PID/syscall names the call while
 * the task sleeps in it, "running" once it is woken. */
static bool sleeps_in_openat(pid_t pid)
{
	char path[64], buf[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/syscall", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return strtol(buf, NULL, 10) == SYS_openat;
}

/* A writer blocked in its open of path (a FIFO without a reader):
 * its pid once it sleeps there, or -1. */
static pid_t blocked_writer(const char *path)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(openat(AT_FDCWD, path, O_WRONLY | O_CLOEXEC) >= 0 ? 0 : 1);
	for (int tries = 0; pid > 0 && tries < 10000; tries++) {
		if (sleeps_in_openat(pid))
			return pid;
		usleep(1000);
	}
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	return -1;
}

/* The mode of whichever name of swap_dir now holds inode ino. */
static mode_t mode_of_inode(ino_t ino)
{
	static const char *const names[] = { "target", "fifo" };
	struct stat st;

	for (size_t i = 0; i < 2; i++)
		if (fstatat(swap_dir, names[i], &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    st.st_ino == ino)
			return st.st_mode & 07777;
	return (mode_t)-1;
}

/* In the child: the call, its opens held; its errno (0) to report. */
static void call_with_opens_held(enum swap_call how, int sock, int report,
				 int done)
{
	char path[sizeof(top) + 16];
	int at, rc, answer;

	snprintf(path, sizeof(path), "%s/swap", top);
	if (hide_proc() != 0 || block_fchmodat2(ENOSYS) != 0 ||
	    (at = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		_exit(3);
	if (how == SWAP_FCHMODAT_DIR &&
	    (setgid(NOBODY) != 0 || setuid(NOBODY) != 0))
		_exit(3);
	if (hold_opens(sock) != 0)
		_exit(4);
	snprintf(path, sizeof(path), "%s/swap/target", top);
	rc = how == SWAP_LCHMOD_FILE ?
	     libexecveat_lchmod(path, 0600) :
	     libexecveat_fchmodat(at, "target", 0700, AT_SYMLINK_NOFOLLOW);
	answer = rc == 0 ? 0 : errno;
	if (write(report, &answer, sizeof(answer)) != sizeof(answer) ||
	    write(done, "", 1) != 1)
		_exit(5);
	_exit(0);
}

static void make_swap_world(enum swap_call how, struct stat *first,
			    struct stat *fifo)
{
	int fd;

	if (mkdirat(dir, "swap", 0755) != 0 ||
	    (swap_dir = openat(dir, "swap", O_PATH | O_DIRECTORY)) < 0 ||
	    mkfifoat(swap_dir, "fifo", 0644) != 0 ||
	    fchmodat(swap_dir, "fifo", 0644, 0) != 0) {
		perror("swap world");
		exit(2);
	}
	if (how == SWAP_FCHMODAT_DIR) {
		/* Its owner may change it, but not search it. */
		if (mkdirat(swap_dir, "target", 0600) != 0 ||
		    fchownat(swap_dir, "target", NOBODY, NOBODY, 0) != 0 ||
		    fchmodat(swap_dir, "target", 0600, 0) != 0) {
			perror("target");
			exit(2);
		}
	} else if ((fd = openat(swap_dir, "target", O_CREAT | O_WRONLY |
				O_CLOEXEC, 0644)) < 0 || fchmod(fd, 0644) != 0 ||
		   close(fd) != 0) {
		perror("target");
		exit(2);
	}
	if (fstatat(swap_dir, "target", first, AT_SYMLINK_NOFOLLOW) != 0 ||
	    fstatat(swap_dir, "fifo", fifo, AT_SYMLINK_NOFOLLOW) != 0) {
		perror("swap world");
		exit(2);
	}
}

static void remove_swap_world(void)
{
	unlinkat(swap_dir, "target", 0);
	unlinkat(swap_dir, "target", AT_REMOVEDIR);
	unlinkat(swap_dir, "fifo", 0);
	unlinkat(swap_dir, "fifo", AT_REMOVEDIR);
	close(swap_dir);
	unlinkat(dir, "swap", AT_REMOVEDIR);
}

static void fifo_swapped_at_the_open_case(const char *name,
					  enum swap_call how)
{
	char fifo_path[sizeof(top) + 16], detail[256];
	/* Linux 7.2 reopens the directory by O_EMPTYPATH, no name: it
	 * changes, and nothing is swapped. */
	bool by_itself = how == SWAP_FCHMODAT_DIR &&
			 kernel_reopens_empty_path();
	int sv[2], report[2], done[2], answer = -1, status, held, opens,
	    listener, watch, expected = how != SWAP_FCHMODAT_DIR ? EOPNOTSUPP :
					by_itself ? 0 : EAGAIN;
	struct stat first, fifo;
	bool released;
	pid_t writer, pid;

	make_swap_world(how, &first, &fifo);
	snprintf(fifo_path, sizeof(fifo_path), "%s/swap/fifo", top);
	writer = blocked_writer(fifo_path);
	watch = watch_opens("swap/fifo");
	if (writer < 0 || watch < 0 ||
	    socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0 ||
	    pipe(report) != 0 || pipe(done) != 0 || (pid = fork()) < 0) {
		perror("swap setup");
		exit(2);
	}
	if (pid == 0) {
		close(sv[0]);
		call_with_opens_held(how, sv[1], report[1], done[1]);
	}
	close(sv[1]);
	close(report[1]);
	close(done[1]);
	exchanges = 0;
	listener = receive_listener(sv[0]);
	held = listener < 0 ? -1 :
	       serve_held_opens(listener, pid, "target",
				exchange_fifo_and_target, NULL, done[0]);
	if (read(report[0], &answer, sizeof(answer)) != sizeof(answer))
		answer = -1;
	/* inotify's event of an open is queued before the open returns. */
	opens = opens_seen(watch);
	released = !sleeps_in_openat(writer);
	waitpid(pid, &status, 0);
	snprintf(detail, sizeof(detail), "answered %s; %d held opens of "
		 "target, %d exchanges; the FIFO opened %d times, its writer "
		 "%s; modes: first %04o, FIFO %04o", answer > 0 ?
		 strerror(answer) : answer == 0 ? "0" : "nothing", held,
		 exchanges, opens, released ? "released" : "still blocked",
		 (unsigned)mode_of_inode(first.st_ino),
		 (unsigned)mode_of_inode(fifo.st_ino));
	if (listener < 0 && WIFEXITED(status) && WEXITSTATUS(status) == 4) {
		printf("SKIP %s: no seccomp user notification here\n", name);
		skipped++;
	} else {
		check(answer == expected && held >= 0 && opens == 0 &&
		      !released &&
		      mode_of_inode(first.st_ino) ==
			      (by_itself ? 0700 : (first.st_mode & 07777)) &&
		      mode_of_inode(fifo.st_ino) == 0644, name, detail);
	}
	/* A writer still blocked in its open is ended there (the sleep is
	 * interruptible). */
	kill(writer, SIGKILL);
	waitpid(writer, NULL, 0);
	if (listener >= 0)
		close(listener);
	close(sv[0]);
	close(report[0]);
	close(done[0]);
	remove_swap_world();
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (mkdtemp(top) == NULL || (dir = open(top, O_RDONLY | O_DIRECTORY)) < 0) {
		perror("fixture");
		return 2;
	}
	unchanged_name_changes_mode();
	swapped_case("renamed_over_by_another_directory_is_eagain",
		     swap_in_another_directory, "target");
	swapped_case("renamed_over_by_a_file_is_eagain",
		     swap_in_another_file, "target");
	/* The symlink's target keeps its mode: nothing was followed. */
	swapped_case("replaced_by_a_symlink_is_eagain", swap_in_a_symlink,
		     "other");
	/* A blocking open of a FIFO without a writer would never return. */
	swapped_case("replaced_by_a_fifo_is_eagain_without_blocking",
		     swap_in_a_fifo, "target");
	swapped_case("replaced_by_a_device_is_eagain_unopened",
		     swap_in_a_device, "target");
	swapped_parent_is_not_looked_up_again();
	if (getuid() == 0) {
		locked_case("write_locked_file_changes_through_its_fd_lock_kept",
			    F_WRLCK, true, CALL_FCHMODAT);
		locked_case("read_locked_file_changes_through_its_fd_lock_kept",
			    F_RDLCK, true, CALL_FCHMODAT);
		locked_case("lchmod_path_write_locked_changes_lock_kept",
			    F_WRLCK, true, CALL_ABSOLUTE);
		locked_case("file_not_held_is_eopnotsupp_unopened", F_WRLCK,
			    false, CALL_FCHMODAT);
		leased_case("kernel_chmod_keeps_a_write_lease", LEASE_KERNEL,
			    0, true);
		leased_case("chmod_through_proc_keeps_a_write_lease",
			    LEASE_PROC, 0, true);
		leased_case("fchmodat_without_proc_keeps_a_write_lease_"
			    "eopnotsupp", LEASE_FCHMODAT_NO_PROC, EOPNOTSUPP,
			    true);
		leased_case("lchmod_without_proc_keeps_a_write_lease_"
			    "eopnotsupp", LEASE_LCHMOD_NO_PROC, EOPNOTSUPP, true);
		fifo_swapped_at_the_open_case(
			"fchmodat_file_fifo_swapped_at_the_open_never_opened",
			SWAP_FCHMODAT_FILE);
		fifo_swapped_at_the_open_case(
			"lchmod_file_fifo_swapped_at_the_open_never_opened",
			SWAP_LCHMOD_FILE);
		fifo_swapped_at_the_open_case(
			"fchmodat_unsearchable_dir_fifo_swapped_at_the_open_"
			"never_opened_eagain", SWAP_FCHMODAT_DIR);
	} else {
		printf("SKIP the lock and lease cases: a mount namespace "
		       "needs root\n");
		skipped++;
	}
	rmdir(top);
	printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
	if (failed != 0 || passed == 0)
		return 1;
	return skipped != 0 ? 77 : 0;
}
