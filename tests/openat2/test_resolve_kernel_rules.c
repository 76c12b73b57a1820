/*
 * openat2's fallback keeps the kernel's rules that a walk of its own must
 * copy on purpose: the lowest free descriptor, fs.protected_symlinks,
 * protected_regular and protected_fifos, the order in which a link is
 * judged, RESOLVE_CACHED's answers that depend on no cache, a name longer
 * than NAME_MAX, a nosymfollow mount where statx is refused. Each case is
 * asked of the kernel's openat2 and of the resolver, in the same world.
 *
 * Needs root: other users' files, uids, mount namespaces, and the
 * fs.protected_* sysctls, which main sets for the cases and restores
 * afterwards, whatever the cases did (they run in a child).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <signal.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "openat2_again.h"
#include "openat2_oracle.h"
#include "proc_mounts.h"
#include "protected_sysctls.h"
#include "scratch_dir.h"
#include "refuse_call.h"

#define NOBODY 65534
#define OTHER 1000 /* a user who owns files in the sticky directories */
#define B RESOLVE_BENEATH

static char top[] = "/tmp/resolve-kernel-rules-XXXXXX";
static int top_fd = -1;

/* The question, asked of the resolver as openat2's fallback asks it (with
 * the flags the system call adds) and of the kernel's openat2
 * (openat2_oracle.h). */
static struct openat2_answers both_answers(int dirfd, const char *path,
					   int flags, unsigned int resolve)
{
	struct open_how how = { .flags = (uint64_t)flags,
				.mode = (flags & O_CREAT) ? 0600 : 0,
				.resolve = resolve };

	return openat2_oracle(openat2_resolver_side, dirfd, path, &how);
}

/* The kernel and the fallback give the same answer, and it is want
 * (an errno, or 0 for a file). */
static void both_answer(int dirfd, const char *path, int flags,
			unsigned int resolve, int want)
{
	struct openat2_answers a = both_answers(dirfd, path, flags, resolve);
	bool judged = openat2_kernel_judges(&a, path);
	char said[256];

	if (a.fallback.err != want ||
	    (judged && (a.kernel.err != want ||
			!openat2_agree(&a, (uint64_t)flags))))
		fail_msg("%s: %s, expected %s", path,
			 openat2_answers_describe(said, sizeof said, &a),
			 want ? openat2_errno_name(want) : "a file");
}

static int in_top(const char *script)
{
	char cmd[1024];

	snprintf(cmd, sizeof cmd, "cd %s && rm -rf ./* && %s", top, script);
	return system(cmd) == 0 ? 0 : -1;
}

/* ---- the lowest free descriptor ---- */

static int make_chain(void **state)
{
	(void)state;
	/* a/b/c/f, and d/d/.../d/f deeper than the walk holds. */
	return in_top("mkdir -p a/b/c && touch a/b/c/f f && "
		      "mkdir -p $(printf 'd/%.0s' $(seq 80)) && "
		      "touch $(printf 'd/%.0s' $(seq 80))f");
}

static char *deep_f(void)
{
	static char path[2 * 80 + 2];

	for (int i = 0; i < 80; i++)
		memcpy(path + 2 * i, "d/", 2);
	strcpy(path + 160, "f");
	return path;
}

/* The number open() would give now. */
static int lowest_free(void)
{
	int fd = open("/", O_PATH | O_CLOEXEC);

	close(fd);
	return fd;
}

/* path holds no "..": no rename elsewhere makes the kernel's walk EAGAIN
 * (openat2_again.h). */
static int returned_fd(const char *path, bool by_kernel)
{
	struct open_how how = { .flags = O_RDONLY | O_CLOEXEC, .resolve = B };

	return by_kernel ? (int)kernel_openat2(top_fd, path, &how, sizeof how,
					       NULL) :
			   openat2_resolver_side(top_fd, path, &how);
}

/* A hole below an open fd: the number of the fd closed; the other
 * stays open in *above until the case is done. */
static int hole_below_another(int *above)
{
	int below = open("/", O_PATH | O_CLOEXEC);

	*above = open("/", O_PATH | O_CLOEXEC);
	close(below);
	return below;
}

/*
 * The kernel gives the lowest free number; so does the fallback, however
 * many it held on the way, also with a hole below other fds: close(1)
 * before an open meant to become stdout, or any other.
 */
static void the_answer_takes_the_lowest_free_descriptor(void **state)
{
	const char *paths[] = { "f", "a/b/c/f", deep_f() };

	(void)state;
	for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
		for (int hole = 0; hole < 3; hole++) {
			int saved_stdout = dup(1), above = -1;
			int want, kfd, got;

			if (hole == 1)
				close(1);
			if (hole == 2)
				hole_below_another(&above);
			want = lowest_free();
			kfd = returned_fd(paths[i], true);
			close(kfd);
			got = returned_fd(paths[i], false);
			close(got);
			dup2(saved_stdout, 1);
			close(saved_stdout);
			close(above);
			if (kfd != want || got != want)
				fail_msg("%.20s, hole %d: kernel %d, fallback %d, "
					 "lowest free %d",
					 paths[i], hole, kfd, got, want);
		}
	}
}

/* ---- fs.protected_symlinks, protected_regular, protected_fifos ---- */

/* The three values for the next case (the lock and the machine's own
 * values are main's, in protected_sysctls.h). */
static void set_sysctls(int symlinks, int regular, int fifos)
{
	struct protected_sysctls values = { symlinks, regular, fifos };
	int err = protected_sysctls_set(&values);

	if (err != 0)
		fail_msg("fs.protected_*: %s", strerror(err));
}

/*
 *   sticky/          1777, root's
 *   sticky/other     -> ../target, OTHER's link
 *   sticky/mine      -> ../target, root's link (the directory's owner's)
 *   sticky/sub/      a directory of OTHER's, beside a link to it:
 *   sticky/to_sub    -> sub, OTHER's link (in the middle of a path)
 *   group/           1770, root's, group-writable
 *   {sticky,group}/file, fifo   OTHER's
 */
static int make_sticky(void **state)
{
	char script[768];

	(void)state;
	snprintf(script, sizeof script,
		 "touch target && mkdir -m 1777 sticky && mkdir -m 1770 group && "
		 "ln -s ../target sticky/other && ln -s ../target sticky/mine && "
		 "mkdir sticky/sub && touch sticky/sub/f && "
		 "ln -s sub sticky/to_sub && "
		 "chown -h %d sticky/other sticky/to_sub sticky/sub && "
		 "for d in sticky group; do touch $d/file && mkfifo $d/fifo && "
		 "chmod 0666 $d/file $d/fifo && chown %d $d/file $d/fifo; done",
		 OTHER, OTHER);
	return in_top(script);
}

/*
 * Set to 1 (what systemd's distributions set): another user's link as the
 * last component of a sticky world-writable directory is refused to whoever
 * owns neither it nor the directory, root too; a link in the middle of a
 * path is not judged.
 */
static void protected_symlinks_refuses_another_users_trailing_link(
	void **state)
{
	(void)state;
	set_sysctls(1, 0, 0);
	both_answer(top_fd, "sticky/other", O_RDONLY, B, EACCES);
	both_answer(top_fd, "sticky/other", O_PATH, B, EACCES);
	both_answer(top_fd, "sticky/mine", O_RDONLY, B, 0);
	both_answer(top_fd, "sticky/to_sub/f", O_RDONLY, B, 0);
	/* Not followed: the link itself. */
	both_answer(top_fd, "sticky/other", O_PATH | O_NOFOLLOW, B, 0);
}

/*
 * Set to 0, the kernel follows the link; the fallback cannot read the
 * setting without /proc and refuses it as if it were 1 (openat2(3)).
 */
static void protected_symlinks_at_0_the_fallback_still_refuses(void **state)
{
	struct openat2_answers a;
	char said[256];

	(void)state;
	set_sysctls(0, 0, 0);
	a = both_answers(top_fd, "sticky/other", O_RDONLY, B);
	if ((openat2_kernel_judges(&a, "sticky/other") && a.kernel.err != 0) ||
	    a.fallback.err != EACCES)
		fail_msg("%s: expected a file and EACCES",
			 openat2_answers_describe(said, sizeof said, &a));
}

/* O_CREAT of another user's existing file or FIFO: the kernel's own open
 * makes the last step, so its rule holds, at 1 (world-writable sticky
 * directories) and 2 (group-writable ones too). */
static void protected_regular_and_fifos_are_the_kernels_own(void **state)
{
	static const char *const dirs[] = { "sticky", "group" };

	(void)state;
	for (int level = 0; level <= 2; level++) {
		set_sysctls(0, level, level);
		for (int d = 0; d < 2; d++) {
			char path[32];
			/* Refused at 1 in sticky world-writable directories,
			 * at 2 in group-writable ones as well. */
			int want = level == 0 || (level == 1 && d == 1) ? 0 :
									EACCES;

			snprintf(path, sizeof path, "%s/file", dirs[d]);
			both_answer(top_fd, path, O_CREAT | O_WRONLY, B, want);
			snprintf(path, sizeof path, "%s/fifo", dirs[d]);
			both_answer(top_fd, path,
				    O_CREAT | O_RDWR | O_NONBLOCK, B, want);
		}
	}
}

/* ---- the order of the checks on a link ---- */

static pid_t others_process; /* a process of OTHER's, asleep */

/*
 * A procfs of this child's own, in a private mount namespace: the
 * machine's may be mounted hidepid=invisible (systemd's
 * ProtectProc=invisible, hardened servers), where another user's process
 * is missing for the kernel and the fallback alike (ENOENT), and a new
 * mount of procfs (Linux 5.8: an instance of its own) has its own,
 * default, options. Where none can be mounted, the machine's.
 */
static int own_proc(void)
{
	if (private_mount_namespace() == 0)
		mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		      NULL);
	return open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
}

static int as_nobody_in_proc(void)
{
	int proc = own_proc();
	char root[32];
	struct openat2_answers a;

	if (proc < 0 || setgroups(0, NULL) < 0 ||
	    setresgid(NOBODY, NOBODY, NOBODY) < 0 ||
	    setresuid(NOBODY, NOBODY, NOBODY) < 0)
		return 99;
	/* Another user's root link, a magic link nobody may not read:
	 * NO_SYMLINKS is judged before the link is read (ELOOP),
	 * NO_MAGICLINKS after (the kernel's refusal to show it, EACCES). */
	snprintf(root, sizeof root, "%d/root", (int)others_process);
	a = both_answers(proc, root, O_PATH, RESOLVE_NO_SYMLINKS);
	if (a.kernel.err != ELOOP || a.fallback.err != ELOOP)
		return 1;
	a = both_answers(proc, root, O_PATH, RESOLVE_NO_MAGICLINKS);
	if (a.kernel.err != EACCES || a.fallback.err != EACCES)
		return 2;
	return 0;
}

static void a_link_is_judged_before_it_is_read(void **state)
{
	pid_t pid;
	int status;

	(void)state;
	others_process = fork();
	assert_true(others_process >= 0);
	if (others_process == 0) {
		if (setresgid(OTHER, OTHER, OTHER) == 0 &&
		    setresuid(OTHER, OTHER, OTHER) == 0)
			pause();
		_exit(1);
	}
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(as_nobody_in_proc());
	assert_int_equal(waitpid(pid, &status, 0), pid);
	kill(others_process, SIGKILL);
	waitpid(others_process, NULL, 0);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* ---- RESOLVE_CACHED ---- */

static int make_cached(void **state)
{
	(void)state;
	return in_top("touch file && ln -s file link && mkdir d");
}

/* RESOLVE_CACHED: the fallback answers want; the kernel too, or EAGAIN,
 * which it may always answer (where want is EAGAIN, the fallback would
 * open: the kernel may open). */
static void cached_answer(const char *path, unsigned int resolve, int want)
{
	struct openat2_answers a = both_answers(top_fd, path, O_RDONLY,
						resolve | RESOLVE_CACHED);
	bool kernel_may = a.kernel.err == want || a.kernel.err == EAGAIN ||
			  (want == EAGAIN && a.kernel.err == 0);
	char said[256];

	if (a.fallback.err != want || !kernel_may)
		fail_msg("%s: %s, expected %s", path,
			 openat2_answers_describe(said, sizeof said, &a),
			 openat2_errno_name(want));
}

/*
 * What depends on no cache, the fallback answers as the kernel does: an
 * empty path, an escape, a link under NO_SYMLINKS (looked up once first,
 * so that the kernel finds it in its cache). Where it would open, EAGAIN.
 * (The kernel's walk in RCU mode leaves it for a scoped "..", and says
 * EAGAIN there.)
 */
static void cached_lookups_answer_what_depends_on_no_cache(void **state)
{
	(void)state;
	close(openat(top_fd, "link", O_PATH | O_NOFOLLOW | O_CLOEXEC));
	both_answer(top_fd, "", O_RDONLY, B | RESOLVE_CACHED, ENOENT);
	both_answer(top_fd, "/x", O_RDONLY, B | RESOLVE_CACHED, EXDEV);
	both_answer(top_fd, "d/../link", O_RDONLY,
		    RESOLVE_NO_SYMLINKS | RESOLVE_CACHED, ELOOP);
	cached_answer("../x", B, EXDEV);
	cached_answer("file", B, EAGAIN);
}

/* ---- names longer than NAME_MAX ---- */

/* The file system answers: procfs has no such name (ENOENT), a tmpfs
 * refuses the length (ENAMETOOLONG). */
static void a_long_name_is_the_file_systems_to_answer(void **state)
{
	char name[NAME_MAX + 2];
	int proc = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);

	(void)state;
	memset(name, 'x', NAME_MAX + 1);
	name[NAME_MAX + 1] = '\0';
	if (proc >= 0)
		both_answer(proc, name, O_RDONLY, B, ENOENT);
	both_answer(top_fd, name, O_RDONLY, B, ENAMETOOLONG);
	close(proc);
}

/* ---- mounts the walk must tell apart where statx is refused ---- */

/* In the child's own mount namespace, a tmpfs at top: its fd, or -1. */
static int tmpfs_in_own_namespace(void)
{
	if (unshare(CLONE_NEWNS) < 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("none", top, "tmpfs", 0, "size=1m") < 0)
		return -1;
	return open(top, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

/* top/from bound at top/to, with flags (MS_BIND and any remount's). */
static int bind(const char *from, const char *to, unsigned long remount)
{
	char source[sizeof top + 16], target[sizeof top + 16];

	snprintf(source, sizeof source, "%s/%s", top, from);
	snprintf(target, sizeof target, "%s/%s", top, to);
	if (mount(source, target, NULL, MS_BIND, NULL) < 0)
		return -1;
	return remount == 0 ? 0 :
			      mount(NULL, target, NULL,
				    MS_BIND | MS_REMOUNT | remount, NULL);
}

/* With statx refused from here on, path in t: err from the kernel and
 * from the walk. 0 if so, 1 (and what each said) if not, 93 where statx
 * could not be refused. */
static int both_refuse_without_statx(int t, const char *path,
				     uint64_t resolve, int err)
{
	char said[256];

	if (refuse_call(SYS_statx, ENOSYS) != 0)
		return 93;
	struct openat2_answers a = both_answers(t, path, O_RDONLY, resolve);

	if (a.kernel.err != err || a.fallback.err != err) {
		fprintf(stderr, "%s, expected %s\n",
			openat2_answers_describe(said, sizeof said, &a),
			strerrorname_np(err));
		return 1;
	}
	return 0;
}

/* world() in a child, which must exit 0. */
static void in_child(int (*world)(void))
{
	pid_t pid = fork();
	int status;

	assert_true(pid >= 0);
	if (pid == 0)
		_exit(world());
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/*
 * The tmpfs:
 *   plain/here -> .    a link on the tmpfs's own mount
 *   src/lf -> f, src/f
 *   plain/nsf/         src bound there, nosymfollow: the same device,
 *                      another mount
 * With statx refused, the walk tells mounts apart by nothing but fstatfs:
 * the verdict on a link met in plain/ must not vouch for one met in
 * plain/nsf/ (a link followed in plain/, then one met in plain/nsf/).
 */
static int nosymfollow_without_statx(void)
{
	int t = tmpfs_in_own_namespace();

	if (t < 0)
		return 90;
	if (mkdirat(t, "plain", 0755) < 0 ||
	    mkdirat(t, "plain/nsf", 0755) < 0 || mkdirat(t, "src", 0755) < 0 ||
	    symlinkat(".", t, "plain/here") < 0 ||
	    close(openat(t, "src/f", O_CREAT | O_WRONLY, 0644)) < 0 ||
	    symlinkat("f", t, "src/lf") < 0)
		return 91;
	if (bind("src", "plain/nsf", 256 /* MS_NOSYMFOLLOW */) < 0)
		return 92;
	return both_refuse_without_statx(t, "plain/here/nsf/lf", B, ELOOP);
}

static void without_statx_a_nosymfollow_mount_is_still_seen(void **state)
{
	(void)state;
	in_child(nosymfollow_without_statx);
}

/*
 * The tmpfs:
 *   src/f
 *   bound/    src bound there: the same device, another mount
 * With statx refused, the walk has no mount id from it: only
 * name_to_handle_at's tells that stepping into bound/ crosses a mount,
 * which the device cannot (EXDEV, the kernel's answer).
 */
static int bind_mount_without_statx(void)
{
	int t = tmpfs_in_own_namespace();

	if (t < 0)
		return 90;
	if (mkdirat(t, "src", 0755) < 0 || mkdirat(t, "bound", 0755) < 0 ||
	    close(openat(t, "src/f", O_CREAT | O_WRONLY, 0644)) < 0)
		return 91;
	if (bind("src", "bound", 0) < 0)
		return 92;
	return both_refuse_without_statx(t, "bound/f", RESOLVE_NO_XDEV, EXDEV);
}

static void without_statx_a_bind_mount_is_still_a_mount(void **state)
{
	(void)state;
	in_child(bind_mount_without_statx);
}

static int open_top(void **state)
{
	(void)state;
	top_fd = scratch_dir_make(top);
	return top_fd < 0 ? -1 : 0;
}

static int remove_top(void **state)
{
	(void)state;
	return scratch_dir_remove(top, top_fd);
}

static int run_cases(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(
			the_answer_takes_the_lowest_free_descriptor, make_chain),
		cmocka_unit_test_setup(
			protected_symlinks_refuses_another_users_trailing_link,
			make_sticky),
		cmocka_unit_test_setup(
			protected_symlinks_at_0_the_fallback_still_refuses,
			make_sticky),
		cmocka_unit_test_setup(
			protected_regular_and_fifos_are_the_kernels_own,
			make_sticky),
		cmocka_unit_test(a_link_is_judged_before_it_is_read),
		cmocka_unit_test_setup(
			cached_lookups_answer_what_depends_on_no_cache,
			make_cached),
		cmocka_unit_test(a_long_name_is_the_file_systems_to_answer),
		cmocka_unit_test(without_statx_a_nosymfollow_mount_is_still_seen),
		cmocka_unit_test(without_statx_a_bind_mount_is_still_a_mount),
	};

	return cmocka_run_group_tests(tests, open_top, remove_top);
}

int main(void)
{
	int err, status, rc = 0;
	pid_t pid;

	if (geteuid() != 0) {
		printf("SKIP: needs root (other users' files, fs.protected_*)\n");
		return 77;
	}
	err = protected_sysctls_save();
	if (err != 0) {
		printf("SKIP: cannot save and set fs.protected_*: %s\n",
		       err == ETIMEDOUT ? "their lock stayed taken (above)" :
					  strerror(err));
		return 77;
	}
	/* Before the fork, whose child sets the values: a signal from
	 * here on gives them back, the timeout's too. */
	protected_sysctls_restore_on_signals(NULL);
	protected_sysctls_start_timeout();
	pid = fork();
	if (pid == 0)
		_exit(run_cases());
	protected_sysctls_child(pid);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		rc = 1;
	else
		rc = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
	/* The machine's settings, as they were. */
	err = protected_sysctls_restore();
	if (err != 0) {
		printf("could not restore fs.protected_*: %s\n", strerror(err));
		rc = 1;
	}
	return rc;
}
