/*
 * fchmodat's step without /proc (src/chmod/chmod_fallback.c) when the name
 * changes between the lookup and the reopen: the file first looked up is
 * the one whose (st_dev, st_ino) the step is given; the name is then made
 * to name another file, a symlink, or a FIFO, as a rename racing with the
 * call would. The step must refuse (EAGAIN) and change nothing, and must
 * not block on the FIFO. The race is made deterministic by calling the
 * step itself, from the static library, with the name already swapped.
 *
 * Every FIFO or device swapped in is watched with inotify: the step must
 * never open it (IN_OPEN). The parent directory is held as an fd, so a
 * parent swapped for a symlink after that changes nothing either.
 *
 * Then the whole fallback without /proc (a mount namespace of its own,
 * as root; skipped otherwise): a file on which the process holds POSIX
 * record locks (F_SETLK) keeps them (EBUSY, nothing closed), checked with
 * F_OFD_GETLK from another fd; an unlocked file changes.
 *
 * And the leases (F_SETLEASE) of another process: the kernel's chmod
 * breaks none, nor does the fallback through a proven /proc; without
 * /proc its reopen breaks a write lease and fails with EAGAIN, mode
 * unchanged, as fchmodat(3)'s BUGS say. The holder reads its lease back
 * with F_GETLEASE, which names the type a break in progress goes to.
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
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "chmod/chmod_fallback.h"
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

/* "target" looked up, then "target" made to name what swap() makes;
 * the first file stays reachable as "first". */
static void swapped_case(const char *name, void (*swap)(void),
			 const char *swapped_in)
{
	struct stat first;
	char detail[200];
	int rc, err, watch, opens;

	make_file("target");
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
	check(rc == -EAGAIN && mode_of("first") == 0644 &&
	      mode_of(swapped_in) == 0644 && opens == 0, name, detail);
	unlinkat(dir, "first", 0);
	unlinkat(dir, "target", 0);
	unlinkat(dir, "other", 0);
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
	make_file("parent/target");
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
	unlinkat(dir, "moved/target", 0);
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
		check(got[0] == EBUSY && got[1] && got[2] == 0644, name, detail);
	else
		check(got[0] == 0 && got[2] == 0600, name, detail);
	unlinkat(dir, "locked", 0);
}

static void unchanged_name_changes_mode(void)
{
	struct stat st;
	char detail[64];
	int rc;

	make_file("target");
	fstatat(dir, "target", &st, 0);
	rc = libexecveat_chmod_by_reopening(dir, "target", &st, 0600);
	snprintf(detail, sizeof(detail), "returned %d, mode %04o", rc,
		 (unsigned)mode_of("target"));
	check(rc == 0 && mode_of("target") == 0600,
	      "same_file_reopened_changes_mode", detail);
	unlinkat(dir, "target", 0);
}

enum lease_call { LEASE_KERNEL, LEASE_PROC, LEASE_NO_PROC };

/* In a child: the chmod of "leased" to 0600, by the kernel's fchmodat or
 * the fallback with /proc or without; 0 or its errno, or -1 where the
 * world could not be made. */
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
		if (how == LEASE_NO_PROC && hide_proc() != 0)
			_exit(3);
		/* The fallback answers -errno, as inside the library. */
		answer = how == LEASE_KERNEL ?
			 (fchmodat(dir, "leased", 0600, 0) == 0 ? 0 : -errno) :
			 libexecveat_chmod_without_fchmodat2(dir, "leased", 0600,
							      AT_SYMLINK_NOFOLLOW,
							      true);
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

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (mkdtemp(top) == NULL || (dir = open(top, O_RDONLY | O_DIRECTORY)) < 0) {
		perror("fixture");
		return 2;
	}
	unchanged_name_changes_mode();
	swapped_case("renamed_over_by_another_file_is_eagain",
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
		locked_case("write_lock_kept_is_ebusy", F_WRLCK, true,
			    CALL_FCHMODAT);
		locked_case("read_lock_kept_is_ebusy", F_RDLCK, true,
			    CALL_FCHMODAT);
		locked_case("lchmod_path_write_lock_kept_is_ebusy", F_WRLCK,
			    true, CALL_ABSOLUTE);
		locked_case("not_held_file_changes", F_WRLCK, false,
			    CALL_FCHMODAT);
		leased_case("kernel_chmod_keeps_a_write_lease", LEASE_KERNEL,
			    0, true);
		leased_case("chmod_through_proc_keeps_a_write_lease",
			    LEASE_PROC, 0, true);
		leased_case("reopen_without_proc_breaks_a_write_lease_eagain",
			    LEASE_NO_PROC, EAGAIN, false);
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
