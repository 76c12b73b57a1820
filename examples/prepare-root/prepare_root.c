/*
 * The steps of prepare_root.h, in the order a runtime takes them (runc's
 * and crun's, without /proc):
 *
 * 1. each mount target made inside the root (inroot_mkdir_all, and for a
 *    file inroot_mknod_checked), whatever links the image holds on the
 *    way; a target that the image made a link leading nowhere in the
 *    root (dev -> /dev, proc -> /proc: inside the root each names itself)
 *    or another file is removed first: the runtime's mounts go where it
 *    says;
 * 2. /dev: a tmpfs of the runtime's own, mounted on its staging
 *    directory and bound onto dev (inroot_bind), which hides what the
 *    image had there (dev/null -> /etc/passwd); then its nodes, each
 *    made and checked (inroot_mknod_checked), or where mknod is refused
 *    (a user namespace has no CAP_MKNOD) an empty file with the
 *    machine's node bound over it; its links and directories;
 * 3. /proc: a new procfs on the staging directory, bound onto proc; where
 *    a new procfs is refused (a sandbox that masked files of its own
 *    /proc, or a pid namespace that is not the runtime's), the machine's
 *    /proc bound, every mount beneath with it; then runc's masks
 *    (inroot_mask: the machine's /dev/null over a file, an empty
 *    read-only tmpfs over a directory) and read-only paths (each bound
 *    onto itself, read-only);
 * 4. the runtime's binds, read-only where asked.
 *
 * After each mount the target's mount id is read back beneath the root
 * (inroot_statx, STATX_MNT_ID) and printed: what a later lookup of the
 * path inside the root meets.
 */
#define _GNU_SOURCE
#include "prepare_root.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <inroot.h>

struct run {
	int root; /* O_PATH of the root: every step's starting point */
	const struct root_config *config;
	FILE *log;
	int failures;
};

static const char *const masked[] = {
	"proc/acpi", "proc/asound", "proc/kcore", "proc/keys",
	"proc/latency_stats", "proc/timer_list", "proc/timer_stats",
	"proc/sched_debug", "proc/scsi",
};
static const char *const read_only[] = {
	"proc/bus", "proc/fs", "proc/irq", "proc/sys", "proc/sysrq-trigger",
};
static const struct {
	const char *path;
	unsigned major, minor;
} nodes[] = {
	{ "dev/null", 1, 3 }, { "dev/zero", 1, 5 }, { "dev/full", 1, 7 },
	{ "dev/random", 1, 8 }, { "dev/urandom", 1, 9 }, { "dev/tty", 5, 0 },
};
static const struct {
	const char *path, *text;
} dev_links[] = {
	{ "dev/fd", "/proc/self/fd" }, { "dev/stdin", "/proc/self/fd/0" },
	{ "dev/stdout", "/proc/self/fd/1" }, { "dev/stderr", "/proc/self/fd/2" },
	{ "dev/ptmx", "pts/ptmx" }, { "dev/core", "/proc/kcore" },
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void say(struct run *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(r->log, fmt, ap);
	va_end(ap);
	fputc('\n', r->log);
}

/* A step that failed: said, counted; -1. */
static int failed(struct run *r, const char *what, const char *path, int err)
{
	say(r, "FAILED %s %s: %s", what, path, strerror(err));
	r->failures++;
	return -1;
}

/* "bind SOURCE onto TARGET: mount N": the mount the target shows now,
 * looked up inside the root. */
static void said_mounted(struct run *r, const char *what, const char *target)
{
	struct statx stx;

	if (inroot_statx(r->root, target, 0, STATX_MNT_ID, &stx) == 0 &&
	    (stx.stx_mask & STATX_MNT_ID))
		say(r, "%s: mount %llu", what,
		    (unsigned long long)stx.stx_mnt_id);
	else
		say(r, "%s: done", what);
}

/* ---- 1. the mount targets ---- */

/* Whether path names something in the root that a directory's mount
 * cannot go on: the image's file, or a link that leads nowhere inside
 * it. Removed, said so. 0, or -1. */
static int clear_for(struct run *r, const char *path, bool directory)
{
	struct statx stx;

	if (inroot_statx(r->root, path, 0, STATX_TYPE, &stx) == 0 &&
	    S_ISDIR(stx.stx_mode) == directory)
		return 0; /* followed inside the root: the target is there */
	if (inroot_statx(r->root, path, AT_SYMLINK_NOFOLLOW, STATX_TYPE,
			 &stx) != 0)
		return 0; /* nothing there: made next */
	if (inroot_remove_all(r->root, path) != 0)
		return failed(r, "remove the image's", path, errno);
	say(r, "removed the image's %s (a %s)", path,
	    S_ISLNK(stx.stx_mode) ? "link leading nowhere in the root" :
	    "file of another kind");
	return 0;
}

static int directory_target(struct run *r, const char *path)
{
	int fd;

	if (clear_for(r, path, true) != 0)
		return -1;
	fd = inroot_mkdir_all(r->root, path, 0755);
	if (fd < 0)
		return failed(r, "mkdir -p", path, errno);
	close(fd);
	return 0;
}

/* A file to mount over: its parents made, then the file itself where it
 * is missing, checked to be the regular file made. */
static int file_target(struct run *r, const char *path)
{
	char parent[PATH_MAX];
	char *slash;
	int fd;

	if (clear_for(r, path, false) != 0)
		return -1;
	snprintf(parent, sizeof parent, "%s", path);
	slash = strrchr(parent, '/');
	if (slash != NULL) {
		*slash = '\0';
		if (directory_target(r, parent) != 0)
			return -1;
	}
	fd = inroot_mknod_checked(r->root, path, S_IFREG | 0644, 0);
	if (fd >= 0)
		close(fd);
	else if (errno != EEXIST)
		return failed(r, "make the file", path, errno);
	return 0;
}

/* ---- 2. /dev ---- */

/* A tmpfs mounted on staging/NAME (a directory of the runtime's own,
 * which nothing in the root can reach): its path in buf, or NULL. */
static const char *staged_mount(struct run *r, const char *name,
				const char *type, unsigned long flags,
				const char *data, char buf[PATH_MAX])
{
	snprintf(buf, PATH_MAX, "%s/%s", r->config->staging, name);
	if (mkdir(buf, 0755) != 0 && errno != EEXIST)
		return NULL;
	if (mount(type, buf, type, flags, data) != 0) {
		int err = errno;

		rmdir(buf);
		errno = err;
		return NULL;
	}
	return buf;
}

static void unstage(const char *path)
{
	umount2(path, MNT_DETACH);
	rmdir(path);
}

/* A node, made and checked; where mknod is refused, the machine's node
 * bound over an empty file, as a rootless runtime does. */
static void make_node(struct run *r, const char *path, dev_t dev)
{
	char host[64];
	int fd = inroot_mknod_checked(r->root, path, S_IFCHR | 0666, dev);

	if (fd >= 0) {
		say(r, "mknod %s c %u %u: checked", path, major(dev),
		    minor(dev));
		close(fd);
		return;
	}
	if (errno != EPERM) {
		failed(r, "mknod", path, errno);
		return;
	}
	snprintf(host, sizeof host, "/%s", path);
	if (file_target(r, path) != 0)
		return;
	if (inroot_bind(AT_FDCWD, host, r->root, path, 0) != 0) {
		failed(r, "bind the machine's node onto", path, errno);
		return;
	}
	snprintf(host, sizeof host, "bind /%s onto %s (mknod refused)",
		 path, path);
	said_mounted(r, host, path);
}

static void prepare_dev(struct run *r)
{
	char staged[PATH_MAX];

	if (directory_target(r, "dev") != 0)
		return;
	if (staged_mount(r, "dev", "tmpfs", MS_NOSUID, "mode=0755,size=65536k",
			 staged) == NULL) {
		failed(r, "mount a tmpfs for", "dev", errno);
		return;
	}
	if (inroot_bind(AT_FDCWD, staged, r->root, "dev", 0) != 0)
		failed(r, "bind a tmpfs onto", "dev", errno);
	else
		said_mounted(r, "bind a tmpfs onto dev", "dev");
	unstage(staged);
	for (size_t i = 0; i < COUNT(nodes); i++)
		make_node(r, nodes[i].path,
			  makedev(nodes[i].major, nodes[i].minor));
	for (size_t i = 0; i < COUNT(dev_links); i++)
		if (inroot_symlink(r->root, dev_links[i].path,
				   dev_links[i].text) != 0)
			failed(r, "symlink", dev_links[i].path, errno);
	say(r, "links dev/fd, dev/stdin, dev/stdout, dev/stderr, dev/ptmx, "
	    "dev/core");
	directory_target(r, "dev/pts");
	directory_target(r, "dev/shm");
}

/* ---- 3. /proc ---- */

static void prepare_proc(struct run *r)
{
	char staged[PATH_MAX];
	const char *source;
	unsigned flags = 0;

	if (directory_target(r, "proc") != 0)
		return;
	source = staged_mount(r, "proc", "proc",
			      MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL, staged);
	if (source == NULL) {
		say(r, "a new procfs refused (%s): the machine's /proc bound, "
		    "with its own masks", strerror(errno));
		source = "/proc";
		flags = INROOT_MOUNT_RECURSIVE;
	}
	if (inroot_bind(AT_FDCWD, source, r->root, "proc", flags) != 0)
		failed(r, "bind a procfs onto", "proc", errno);
	else
		said_mounted(r, "bind a procfs onto proc", "proc");
	if (source == staged)
		unstage(staged);
	for (size_t i = 0; i < COUNT(masked); i++) {
		char what[64];

		snprintf(what, sizeof what, "mask %s", masked[i]);
		if (inroot_mask(r->root, masked[i]) == 0)
			said_mounted(r, what, masked[i]);
		else if (errno == ENOENT)
			say(r, "%s: not there", what);
		else
			failed(r, "mask", masked[i], errno);
	}
	for (size_t i = 0; i < COUNT(read_only); i++) {
		char what[64];
		int fd = inroot_resolve(r->root, read_only[i]);

		snprintf(what, sizeof what, "read-only %s", read_only[i]);
		if (fd < 0 && errno == ENOENT) {
			say(r, "%s: not there", what);
			continue;
		}
		/* A procfs of the runtime's own has nothing mounted
		 * beneath these; the machine's may (binfmt_misc beneath
		 * sys/fs), which must be read-only too. */
		if (fd < 0 || inroot_bind(fd, "", r->root, read_only[i],
					  INROOT_MOUNT_RDONLY | flags) != 0)
			failed(r, "read-only", read_only[i], errno);
		else
			said_mounted(r, what, read_only[i]);
		if (fd >= 0)
			close(fd);
	}
}

/* ---- 4. the runtime's binds ---- */

static void prepare_binds(struct run *r)
{
	for (unsigned i = 0; i < r->config->bind_count; i++) {
		const struct root_bind *b = &r->config->binds[i];
		char what[2 * PATH_MAX];
		struct stat st;

		if (stat(b->source, &st) != 0) {
			failed(r, "bind", b->source, errno);
			continue;
		}
		if ((S_ISDIR(st.st_mode) ? directory_target(r, b->target) :
		     file_target(r, b->target)) != 0)
			continue;
		if (inroot_bind(AT_FDCWD, b->source, r->root, b->target,
				b->rdonly ? INROOT_MOUNT_RDONLY : 0) != 0) {
			failed(r, "bind onto", b->target, errno);
			continue;
		}
		snprintf(what, sizeof what, "bind %s onto %s%s", b->source,
			 b->target, b->rdonly ? ", read-only" : "");
		said_mounted(r, what, b->target);
	}
}

int prepare_root(const struct root_config *config, FILE *log)
{
	struct run r = { .config = config, .log = log };
	mode_t mask = umask(0); /* the modes given, as made */

	r.root = open(config->root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (r.root < 0) {
		failed(&r, "open the root", config->root, errno);
		umask(mask);
		return r.failures;
	}
	prepare_dev(&r);
	prepare_proc(&r);
	prepare_binds(&r);
	close(r.root);
	umask(mask);
	return r.failures;
}
