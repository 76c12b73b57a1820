/*
 * examples/prepare-root's test: hostile images prepared as a runtime
 * prepares them (prepare_root.h), then looked at from inside, in each
 * world given (all of them by default):
 *
 *   as-is            this process as it is (in an engine: the engine's)
 *   openat2-enosys   openat2 refused with ENOSYS (the library's own walk)
 *   openat2-eperm    refused with EPERM
 *   old-calls        every call after Linux 5.1 that 2.1 uses refused
 *                    (old_calls.h): mount(2) from the held directory
 *   rootless         an unprivileged user's namespaces (uid 65534 mapped
 *                    to 0, as `unshare -Ur` makes them, and a pid
 *                    namespace of its own): mknod refused, the machine's
 *                    nodes bound instead
 *
 * Each world is a child with a mount namespace of its own, chrooted into
 * a scratch "machine" (a tmpfs: /etc/passwd and /etc/shadow markers, the
 * real /dev nodes bound in, /tmp, a /proc) so that an escape lands where
 * it is seen and harms nothing. There, two images:
 *
 *   A: dev -> /dev, var/log -> /, tmp/x -> ../../../../etc
 *   B: dev/null -> /etc/passwd, dev/pts -> /tmp, proc -> /proc,
 *      etc/hostname -> /etc/shadow, var/lib -> ../../../../srv (B's own
 *      srv inside it, the machine's /srv outside)
 *
 * each prepared with a volume bound read-only (A: onto var/log/app, B:
 * onto var/lib/data) and a file bound (A: onto tmp/x/hostname, B: onto
 * etc/hostname). Then, in a child chrooted into the prepared root: /dev
 * a tmpfs with the nodes, checked by type and number, and the links;
 * /proc a procfs with the masks (a file: the null device; a directory:
 * an empty read-only tmpfs) and read-only paths; the volume where the
 * links lead inside the root, read-only; the file bound. And outside,
 * after: nothing mounted, no marker changed.
 *
 *   check-prepared [WORLD...]
 *
 * Prints "ok"/"not ok" lines; exits 0, 1 (a check failed), or 77 where
 * no world could be made here (not root).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "old_calls.h"
#include "openat2_nr.h"
#include "prepare_root.h"
#include "refuse_call.h"

#define TMPFS_MAGIC 0x01021994
#define PROC_SUPER_MAGIC 0x9fa0
#define NOBODY 65534

static const char *world;
static int failed_checks;

static void check(bool ok, const char *what, const char *detail)
{
	printf("%s %s (%s)%s%s\n", ok ? "ok" : "not ok", what, world,
	       ok ? "" : ": ", ok ? "" : detail);
	if (!ok)
		failed_checks++;
}

/* ---- the scratch machine ---- */

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0644);
	ssize_t n = fd < 0 ? -1 : write(fd, text, strlen(text));

	if (fd >= 0)
		close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

static int make_dirs(const char *const *dirs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (mkdir(dirs[i], 0755) != 0)
			return -1;
	return 0;
}

/* The real /dev's nodes, bound onto files of the same names. */
static int bind_dev_nodes(const char *top)
{
	static const char *const names[] = { "null", "zero", "full", "random",
					     "urandom", "tty" };
	char at[PATH_MAX], real[32];

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		snprintf(at, sizeof at, "%s/dev/%s", top, names[i]);
		snprintf(real, sizeof real, "/dev/%s", names[i]);
		if (write_file(at, "") != 0 ||
		    mount(real, at, NULL, MS_BIND, NULL) != 0)
			return -1;
	}
	return 0;
}

/* The machine, made in top (a tmpfs of this namespace's), then entered. */
static int enter_machine(const char *top)
{
	static const char *const dirs[] = { "dev", "etc", "tmp", "proc", "srv",
		"srv/volume", "srv/volume/data", "srv/A", "srv/A/var",
		"srv/A/tmp", "srv/A/etc", "srv/B", "srv/B/dev", "srv/B/etc",
		"srv/B/var", "srv/B/srv" };
	static const struct { const char *link, *text; } links[] = {
		{ "srv/A/dev", "/dev" }, { "srv/A/var/log", "/" },
		{ "srv/A/tmp/x", "../../../../etc" },
		{ "srv/B/dev/null", "/etc/passwd" }, { "srv/B/dev/pts", "/tmp" },
		{ "srv/B/proc", "/proc" }, { "srv/B/etc/hostname", "/etc/shadow" },
		{ "srv/B/var/lib", "../../../../srv" },
	};
	if (mount("none", top, "tmpfs", 0, "mode=0755") != 0 ||
	    chdir(top) != 0 || make_dirs(dirs, sizeof dirs / sizeof *dirs) ||
	    write_file("etc/passwd", "root:x:0:0::/root:/bin/sh\n") ||
	    write_file("etc/shadow", "root:*:1::::::\n") ||
	    write_file("srv/volume/data/file", "volume\n") ||
	    write_file("srv/volume/hostname", "container\n") ||
	    bind_dev_nodes(top) != 0)
		return -1;
	for (size_t i = 0; i < sizeof links / sizeof *links; i++)
		if (symlink(links[i].text, links[i].link) != 0)
			return -1;
	/* A procfs of its own, else (a sandbox's masked /proc refuses a
	 * new one) the machine's. */
	if (mount("proc", "proc", "proc", 0, NULL) != 0 &&
	    mount("/proc", "proc", NULL, MS_BIND | MS_REC, NULL) != 0)
		return -1;
	return chroot(".") == 0 && chdir("/") == 0 ? 0 : -1;
}

/* ---- what is outside the images ---- */

/* The mount points outside /srv/A and /srv/B, and every file outside
 * them with what a change would move: type, mode, owner, size, ctime. */
static char *snapshot(void)
{
	char *text = NULL, line[PATH_MAX + 128];
	size_t size = 0;
	FILE *out = open_memstream(&text, &size), *in;

	in = fopen("/proc/self/mountinfo", "re");
	while (in != NULL && fgets(line, sizeof line, in) != NULL) {
		char point[PATH_MAX];

		if (sscanf(line, "%*s %*s %*s %*s %4095s", point) == 1 &&
		    strncmp(point, "/srv/A", 6) != 0 &&
		    strncmp(point, "/srv/B", 6) != 0)
			fprintf(out, "mount %s\n", point);
	}
	if (in != NULL)
		fclose(in);
	/* Not /tmp: the runtime's staging directories come and go there. */
	static const char *const watched[] = { "/", "/etc", "/etc/passwd",
		"/etc/shadow", "/dev", "/dev/null", "/srv",
		"/srv/volume", "/srv/volume/data", "/srv/volume/data/file",
		"/srv/volume/hostname" };
	for (size_t i = 0; i < sizeof watched / sizeof *watched; i++) {
		struct stat st;

		if (lstat(watched[i], &st) != 0)
			fprintf(out, "%s missing\n", watched[i]);
		else
			fprintf(out, "%s %o %u:%u %lld %lld.%ld %lu\n",
				watched[i], st.st_mode, st.st_uid, st.st_gid,
				(long long)st.st_size,
				(long long)st.st_ctim.tv_sec,
				st.st_ctim.tv_nsec, (unsigned long)st.st_nlink);
	}
	fclose(out);
	return text;
}

/* ---- looked at from inside ---- */

static bool is_fs(const char *path, long magic)
{
	struct statfs sfs;

	return statfs(path, &sfs) == 0 && sfs.f_type == magic;
}

static bool read_only(const char *path)
{
	struct statvfs sv;

	return statvfs(path, &sv) == 0 && (sv.f_flag & ST_RDONLY);
}

static bool node_is(const char *path, unsigned major_, unsigned minor_)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISCHR(st.st_mode) &&
	       st.st_rdev == makedev(major_, minor_);
}

static bool link_is(const char *path, const char *text)
{
	char got[PATH_MAX];
	ssize_t n = readlink(path, got, sizeof got - 1);

	return n >= 0 && (got[n] = '\0', strcmp(got, text) == 0);
}

static bool content_is(const char *path, const char *text)
{
	char got[64] = "";
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, got, sizeof got - 1);

	if (fd >= 0)
		close(fd);
	return n >= 0 && strcmp(got, text) == 0;
}

/* Whether path is a mount point: its mount is not its directory's. */
static bool mounted(const char *path)
{
	char parent[PATH_MAX];
	struct statx a, b;

	snprintf(parent, sizeof parent, "%s", path);
	*strrchr(parent, '/') = '\0';
	if (parent[0] == '\0')
		strcpy(parent, "/");
	return statx(AT_FDCWD, path, 0, STATX_MNT_ID, &a) == 0 &&
	       statx(AT_FDCWD, parent, 0, STATX_MNT_ID, &b) == 0 &&
	       a.stx_mnt_id != b.stx_mnt_id;
}

/* An empty directory, or (not there in this kernel) nothing. */
static bool masked_directory(const char *path)
{
	struct stat st;

	if (lstat(path, &st) != 0)
		return errno == ENOENT;
	return S_ISDIR(st.st_mode) && st.st_nlink == 2 &&
	       is_fs(path, TMPFS_MAGIC) && read_only(path);
}

/* Read-only, or (not there in this kernel) nothing. */
static bool read_only_or_none(const char *path)
{
	return read_only(path) || (access(path, F_OK) != 0 && errno == ENOENT);
}

static bool masked_file(const char *path)
{
	struct stat st;

	return (lstat(path, &st) != 0 && errno == ENOENT) ||
	       node_is(path, 1, 3);
}

/* In a child chrooted into the prepared root: each mount where it should
 * be. volume and file: where the binds lead inside the root. */
static void look_inside(const char *image, const char *volume,
			const char *file)
{
	char what[128];

	snprintf(what, sizeof what, "%s: /dev a tmpfs of its own", image);
	check(mounted("/dev") && is_fs("/dev", TMPFS_MAGIC), what,
	      "not a tmpfs mount");
	snprintf(what, sizeof what, "%s: /dev's nodes", image);
	check(node_is("/dev/null", 1, 3) && node_is("/dev/zero", 1, 5) &&
	      node_is("/dev/full", 1, 7) && node_is("/dev/urandom", 1, 9),
	      what, "a node missing or of another number");
	snprintf(what, sizeof what, "%s: /dev's links", image);
	check(link_is("/dev/fd", "/proc/self/fd") &&
	      link_is("/dev/ptmx", "pts/ptmx"), what, "a link missing");
	snprintf(what, sizeof what, "%s: /proc a procfs", image);
	check(mounted("/proc") && is_fs("/proc", PROC_SUPER_MAGIC) &&
	      access("/proc/self/mountinfo", R_OK) == 0, what,
	      "no procfs at /proc");
	snprintf(what, sizeof what, "%s: /proc's masks", image);
	check(masked_file("/proc/kcore") && masked_file("/proc/keys") &&
	      masked_file("/proc/timer_list") &&
	      masked_directory("/proc/acpi") && masked_directory("/proc/scsi"),
	      what, "a masked path still shows");
	snprintf(what, sizeof what, "%s: /proc's read-only paths", image);
	check(read_only("/proc/sys") && read_only_or_none("/proc/sysrq-trigger") &&
	      read_only_or_none("/proc/irq") && !read_only("/proc"), what,
	      "a path writable, or /proc itself read-only");
	snprintf(what, sizeof what, "%s: the volume at %s, read-only", image,
		 volume);
	char in_volume[PATH_MAX];

	snprintf(in_volume, sizeof in_volume, "%s/file", volume);
	check(mounted(volume) && content_is(in_volume, "volume\n") &&
	      read_only(volume), what, "missing, or writable");
	snprintf(what, sizeof what, "%s: the file bound at %s", image, file);
	check(mounted(file) && content_is(file, "container\n"), what,
	      "missing, or another file");
}

static void looked_at_inside(const char *root, const char *image,
			     const char *volume, const char *file)
{
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (chroot(root) != 0 || chdir("/") != 0)
			_exit(2);
		look_inside(image, volume, file);
		fflush(stdout);
		_exit(failed_checks ? 1 : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid ||
	    !WIFEXITED(status) || WEXITSTATUS(status) > 1)
		check(false, "the look from inside", "its child failed");
	else if (WEXITSTATUS(status) != 0)
		failed_checks++; /* said by the child */
}

/* ---- a world ---- */

static void prepared(const char *image, const char *root,
		     const struct root_bind *binds, const char *volume,
		     const char *file)
{
	struct root_config c = { .root = root, .staging = "/tmp",
				 .bind_count = 2 };
	char what[64];
	int failures;

	memcpy(c.binds, binds, 2 * sizeof *binds);
	printf("--- %s (%s)\n", image, world);
	fflush(stdout);
	failures = prepare_root(&c, stdout);
	snprintf(what, sizeof what, "%s: every step made", image);
	check(failures == 0, what, "a step failed (FAILED above)");
	looked_at_inside(root, image, volume, file);
}

static int in_world(const char *top)
{
	static const struct root_bind a[] = {
		{ "/srv/volume/data", "var/log/app", true },
		{ "/srv/volume/hostname", "tmp/x/hostname", false },
	}, b[] = {
		{ "/srv/volume/data", "var/lib/data", true },
		{ "/srv/volume/hostname", "etc/hostname", false },
	};
	char *before, *after;

	if (enter_machine(top) != 0) {
		printf("not here: %s: the scratch machine: %s\n", world,
		       strerror(errno));
		return 77;
	}
	before = snapshot();
	/* var/log -> / is A's root; tmp/x is A's etc. */
	prepared("A", "/srv/A", a, "/app", "/etc/hostname");
	/* var/lib -> ../../../../srv is B's srv. */
	prepared("B", "/srv/B", b, "/srv/data", "/etc/hostname");
	after = snapshot();
	check(strcmp(before, after) == 0, "nothing outside the images changed",
	      after);
	return failed_checks ? 1 : 0;
}

/* ---- the worlds' making ---- */

static int write_text(const char *path, const char *text)
{
	return write_file(path, text) == 0 ? 0 : errno;
}

/* An unprivileged user's namespaces, as `unshare -Ur` makes them, and a
 * pid namespace (a procfs needs its own): 0 in the child that is pid 1
 * there, a wait and its status in the others, or an errno. */
static int become_rootless(void)
{
	char map[32];
	int err;

	if (setresgid(NOBODY, NOBODY, NOBODY) != 0 ||
	    setresuid(NOBODY, NOBODY, NOBODY) != 0 ||
	    prctl(PR_SET_DUMPABLE, 1) != 0 ||
	    unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID) != 0)
		return errno;
	snprintf(map, sizeof map, "0 %d 1\n", NOBODY);
	err = write_text("/proc/self/setgroups", "deny");
	if (err == 0)
		err = write_text("/proc/self/uid_map", map);
	if (err == 0)
		err = write_text("/proc/self/gid_map", map);
	return err;
}

static int make_world(const char *name)
{
	if (strcmp(name, "as-is") == 0 || strcmp(name, "rootless") == 0)
		return 0;
	if (strcmp(name, "openat2-enosys") == 0)
		return refuse_call(OPENAT2_NR, ENOSYS);
	if (strcmp(name, "openat2-eperm") == 0)
		return refuse_call(OPENAT2_NR, EPERM);
	if (strcmp(name, "old-calls") == 0)
		return refuse_calls_after_5_1();
	return EINVAL;
}

static int run_world(const char *name)
{
	char top[] = "/tmp/check-prepared.XXXXXX";
	bool rootless = strcmp(name, "rootless") == 0;
	int status = 2 << 8, err;
	pid_t pid;

	if (mkdtemp(top) == NULL || chmod(top, 0755) != 0) {
		perror("check-prepared: a scratch directory in /tmp");
		return 2;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		world = name;
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		err = rootless ? become_rootless() :
			unshare(CLONE_NEWNS) == 0 ? 0 : errno;
		/* Nothing mounted here propagates back. In a chroot (an
		 * engine's: runsc do, a rootless unshare) "/" is no mount
		 * point (EINVAL): the chroot's maker chose the namespace. */
		if (err == 0 &&
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
			err = errno == EINVAL ? 0 : errno;
		if (err == 0)
			err = make_world(name);
		if (err != 0) {
			printf("not here: %s: %s\n", name, strerror(err));
			_exit(77);
		}
		/* The pid namespace's first process is the next child. */
		if (rootless && (pid = fork()) != 0) {
			if (pid < 0 || waitpid(pid, &status, 0) != pid)
				_exit(2);
			_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 2);
		}
		_exit(in_world(top));
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		status = 2 << 8;
	rmdir(top);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}

int main(int argc, char **argv)
{
	static const char *const all[] = { "as-is", "openat2-enosys",
		"openat2-eperm", "old-calls", "rootless" };
	const char *const *worlds = argc > 1 ? (const char *const *)argv + 1 :
					       all;
	size_t n = argc > 1 ? (size_t)argc - 1 : sizeof all / sizeof *all;
	int worst = 0, ran = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (geteuid() != 0) {
		printf("SKIP: needs root (mount namespaces, a scratch machine "
		       "to chroot into)\n");
		return 77;
	}
	for (size_t i = 0; i < n; i++) {
		int status = run_world(worlds[i]);

		if (status == 77)
			continue;
		ran++;
		if (status != 0)
			printf("FAIL: world %s\n", worlds[i]);
		worst |= status != 0;
	}
	return ran == 0 ? 77 : worst;
}
