/*
 * fexecve() in the environments the library exists for: with and without
 * /proc, with execveat refused by seccomp (ENOSYS, EPERM), and with a fake
 * /proc that names an impostor or even the very same file. The first six
 * kinds of fd meet each environment; the close-on-exec scripts after them
 * meet execveat and the fallback, which must answer alike, and the
 * fallback where it cannot ask the kernel (faccessat2 refused too). Each
 * result is asserted exactly.
 *
 * Where execveat is refused already (qemu-user 7.2: ENOSYS), the
 * environments without a policy of their own are that refusal's world, and
 * expect what its cases expect; those that need another refusal load a
 * filter of their own, and run only where filters can be loaded.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
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
#include "hostile_env.h"
#include "own_filter_cases.h"

#ifndef MFD_EXEC
#define MFD_EXEC 0x10U /* Linux 6.3 */
#endif

/* The fds fexecve is given. */
enum subject {
	BINARY,         /* a program, O_RDONLY */
	SCRIPT,         /* a #!/bin/sh script, O_RDONLY */
	MEMFD,          /* a program copied into memfd_create() memory */
	O_PATH_BINARY,  /* a program, O_PATH */
	CLOEXEC_BINARY, /* a program, O_RDONLY | O_CLOEXEC */
	CLOEXEC_SCRIPT, /* a script, O_RDONLY | O_CLOEXEC */
	O_PATH_CLOEXEC_SCRIPT,  /* a script, O_PATH | O_CLOEXEC */
	NONEXEC_CLOEXEC_SCRIPT, /* a script of mode 0644, O_RDONLY | O_CLOEXEC */
	/* A script of mode 0755 on a tmpfs mounted noexec, O_RDONLY | O_CLOEXEC. */
	NOEXEC_MOUNT_CLOEXEC_SCRIPT,
	/* A script of root's, mode 0744, O_RDONLY | O_CLOEXEC, which the
	 * child calling fexecve runs as OTHER_UID: it may read it, not
	 * execute it. */
	OWNER_ONLY_CLOEXEC_SCRIPT,
};

#define OTHER_UID 65534 /* nobody */

enum proc_mount {
	REAL_PROC,
	NO_PROC,             /* an empty tmpfs over /proc */
	FAKE_PROC_IMPOSTOR,  /* tmpfs, [thread-]self/fd/N -> the impostor */
	FAKE_PROC_SAME_FILE, /* tmpfs, [thread-]self/fd/N -> the subject */
};

struct environment {
	enum proc_mount proc;
	/* What execveat fails with: seccomp makes it so, unless this world
	 * refuses so already; 0: as this world has it. */
	int execveat_errno;
	/* What faccessat2 fails with (always a filter, with execveat's
	 * refusal); 0: allowed. */
	int faccessat2_errno;
};

static const struct environment normal = { REAL_PROC, 0, 0 };
static const struct environment no_proc = { NO_PROC, 0, 0 };
static const struct environment enosys = { REAL_PROC, ENOSYS, 0 };
static const struct environment eperm = { REAL_PROC, EPERM, 0 };
static const struct environment enosys_no_proc = { NO_PROC, ENOSYS, 0 };
static const struct environment eperm_no_proc = { NO_PROC, EPERM, 0 };
static const struct environment enosys_impostor = {
	FAKE_PROC_IMPOSTOR, ENOSYS, 0
};
static const struct environment enosys_same_file = {
	FAKE_PROC_SAME_FILE, ENOSYS, 0
};
static const struct environment enosys_no_faccessat2 = {
	REAL_PROC, ENOSYS, ENOSYS
};
static const struct environment eperm_no_faccessat2 = {
	REAL_PROC, EPERM, EPERM
};
/* An implementation that has faccessat2 but not these flags. */
static const struct environment enosys_faccessat2_einval = {
	REAL_PROC, ENOSYS, EINVAL
};

struct expected {
	bool runs;
	int value; /* the exit status if it runs, else the errno */
};

#define RUNS(status) { true, status }
#define FAILS(err) { false, err }

struct env_case {
	const char *name;
	const struct environment *env;
	enum subject subject;
	struct expected expected;
};

static const struct env_case cases[] = {
	/* 1. A normal system: execveat does it all. */
	{ "binary_runs_on_normal_system", &normal, BINARY, RUNS(CHILD_STATUS) },
	{ "script_runs_on_normal_system", &normal, SCRIPT, RUNS(CHILD_STATUS) },
	{ "memfd_runs_on_normal_system", &normal, MEMFD, RUNS(CHILD_STATUS) },
	{ "o_path_binary_runs_on_normal_system", &normal, O_PATH_BINARY,
	  RUNS(CHILD_STATUS) },
	{ "cloexec_binary_runs_on_normal_system", &normal, CLOEXEC_BINARY,
	  RUNS(CHILD_STATUS) },
	/* The kernel refuses: the shell could not reopen a closed fd. */
	{ "cloexec_script_fails_enoent_on_normal_system", &normal,
	  CLOEXEC_SCRIPT, FAILS(ENOENT) },

	/* 2. No /proc: execveat needs none; only scripts miss it. */
	{ "binary_runs_without_proc", &no_proc, BINARY, RUNS(CHILD_STATUS) },
	/*
	 * The exec succeeds (the kernel reads the script through the fd), but
	 * the shell is told to read /dev/fd/N, a link into /proc that is not
	 * there: it starts and fails. Without /proc only binaries run by fd.
	 */
	{ "script_starts_without_proc_but_shell_cannot_open_it", &no_proc,
	  SCRIPT, RUNS(SHELL_CANNOT_OPEN_SCRIPT) },
	{ "memfd_runs_without_proc", &no_proc, MEMFD, RUNS(CHILD_STATUS) },
	{ "o_path_binary_runs_without_proc", &no_proc, O_PATH_BINARY,
	  RUNS(CHILD_STATUS) },
	{ "cloexec_binary_runs_without_proc", &no_proc, CLOEXEC_BINARY,
	  RUNS(CHILD_STATUS) },
	{ "cloexec_script_fails_enoent_without_proc", &no_proc,
	  CLOEXEC_SCRIPT, FAILS(ENOENT) },

	/* 3. execveat refused with ENOSYS, real /proc: the fallback runs. */
	{ "binary_runs_through_proc_when_execveat_enosys", &enosys, BINARY,
	  RUNS(CHILD_STATUS) },
	{ "script_runs_through_proc_when_execveat_enosys", &enosys, SCRIPT,
	  RUNS(CHILD_STATUS) },
	{ "memfd_runs_through_proc_when_execveat_enosys", &enosys, MEMFD,
	  RUNS(CHILD_STATUS) },
	{ "o_path_binary_runs_through_proc_when_execveat_enosys", &enosys,
	  O_PATH_BINARY, RUNS(CHILD_STATUS) },
	{ "cloexec_binary_runs_through_proc_when_execveat_enosys", &enosys,
	  CLOEXEC_BINARY, RUNS(CHILD_STATUS) },
	/* The fallback refuses as execveat would, without starting a shell
	 * that could not open its script. */
	{ "cloexec_script_fails_enoent_through_proc_when_execveat_enosys",
	  &enosys, CLOEXEC_SCRIPT, FAILS(ENOENT) },

	/* 4. execveat refused with EPERM (an allow-list policy), real /proc. */
	{ "binary_runs_through_proc_when_execveat_eperm", &eperm, BINARY,
	  RUNS(CHILD_STATUS) },
	{ "script_runs_through_proc_when_execveat_eperm", &eperm, SCRIPT,
	  RUNS(CHILD_STATUS) },
	{ "memfd_runs_through_proc_when_execveat_eperm", &eperm, MEMFD,
	  RUNS(CHILD_STATUS) },
	{ "o_path_binary_runs_through_proc_when_execveat_eperm", &eperm,
	  O_PATH_BINARY, RUNS(CHILD_STATUS) },
	{ "cloexec_binary_runs_through_proc_when_execveat_eperm", &eperm,
	  CLOEXEC_BINARY, RUNS(CHILD_STATUS) },
	{ "cloexec_script_fails_enoent_through_proc_when_execveat_eperm",
	  &eperm, CLOEXEC_SCRIPT, FAILS(ENOENT) },

	/* 5. execveat refused and no /proc: the refusal, and nothing runs. */
	{ "binary_fails_enosys_without_execveat_or_proc", &enosys_no_proc,
	  BINARY, FAILS(ENOSYS) },
	{ "script_fails_enosys_without_execveat_or_proc", &enosys_no_proc,
	  SCRIPT, FAILS(ENOSYS) },
	{ "memfd_fails_enosys_without_execveat_or_proc", &enosys_no_proc,
	  MEMFD, FAILS(ENOSYS) },
	{ "o_path_binary_fails_enosys_without_execveat_or_proc",
	  &enosys_no_proc, O_PATH_BINARY, FAILS(ENOSYS) },
	{ "cloexec_binary_fails_enosys_without_execveat_or_proc",
	  &enosys_no_proc, CLOEXEC_BINARY, FAILS(ENOSYS) },
	{ "cloexec_script_fails_enosys_without_execveat_or_proc",
	  &enosys_no_proc, CLOEXEC_SCRIPT, FAILS(ENOSYS) },
	{ "binary_fails_eperm_without_execveat_or_proc", &eperm_no_proc,
	  BINARY, FAILS(EPERM) },
	{ "script_fails_eperm_without_execveat_or_proc", &eperm_no_proc,
	  SCRIPT, FAILS(EPERM) },
	{ "memfd_fails_eperm_without_execveat_or_proc", &eperm_no_proc,
	  MEMFD, FAILS(EPERM) },
	{ "o_path_binary_fails_eperm_without_execveat_or_proc",
	  &eperm_no_proc, O_PATH_BINARY, FAILS(EPERM) },
	{ "cloexec_binary_fails_eperm_without_execveat_or_proc",
	  &eperm_no_proc, CLOEXEC_BINARY, FAILS(EPERM) },
	{ "cloexec_script_fails_eperm_without_execveat_or_proc",
	  &eperm_no_proc, CLOEXEC_SCRIPT, FAILS(EPERM) },

	/* 6. execveat refused, a fake /proc naming an impostor: the impostor
	 * (exit 66) never runs. */
	{ "binary_fails_enosys_not_impostor_under_fake_proc",
	  &enosys_impostor, BINARY, FAILS(ENOSYS) },
	{ "script_fails_enosys_not_impostor_under_fake_proc",
	  &enosys_impostor, SCRIPT, FAILS(ENOSYS) },
	{ "memfd_fails_enosys_not_impostor_under_fake_proc",
	  &enosys_impostor, MEMFD, FAILS(ENOSYS) },
	{ "o_path_binary_fails_enosys_not_impostor_under_fake_proc",
	  &enosys_impostor, O_PATH_BINARY, FAILS(ENOSYS) },
	{ "cloexec_binary_fails_enosys_not_impostor_under_fake_proc",
	  &enosys_impostor, CLOEXEC_BINARY, FAILS(ENOSYS) },
	{ "cloexec_script_fails_enosys_not_impostor_under_fake_proc",
	  &enosys_impostor, CLOEXEC_SCRIPT, FAILS(ENOSYS) },

	/* 7. A fake /proc naming the very same file: refused all the same,
	 * since the name does not come from procfs. (A memfd has no name of
	 * its own; its link names the program it is a copy of.) */
	{ "binary_fails_enosys_under_fake_proc_naming_same_file",
	  &enosys_same_file, BINARY, FAILS(ENOSYS) },
	{ "script_fails_enosys_under_fake_proc_naming_same_file",
	  &enosys_same_file, SCRIPT, FAILS(ENOSYS) },
	{ "memfd_fails_enosys_under_fake_proc_naming_its_program",
	  &enosys_same_file, MEMFD, FAILS(ENOSYS) },
	{ "o_path_binary_fails_enosys_under_fake_proc_naming_same_file",
	  &enosys_same_file, O_PATH_BINARY, FAILS(ENOSYS) },
	{ "cloexec_binary_fails_enosys_under_fake_proc_naming_same_file",
	  &enosys_same_file, CLOEXEC_BINARY, FAILS(ENOSYS) },
	{ "cloexec_script_fails_enosys_under_fake_proc_naming_same_file",
	  &enosys_same_file, CLOEXEC_SCRIPT, FAILS(ENOSYS) },

	/* 8. The close-on-exec script refusal, fallback against execveat: an
	 * O_PATH fd is read through its proven name, and a file nobody may
	 * execute is EACCES before it is a script. */
	{ "o_path_cloexec_script_fails_enoent_on_normal_system", &normal,
	  O_PATH_CLOEXEC_SCRIPT, FAILS(ENOENT) },
	{ "o_path_cloexec_script_fails_enoent_through_proc_enosys", &enosys,
	  O_PATH_CLOEXEC_SCRIPT, FAILS(ENOENT) },
	{ "o_path_cloexec_script_fails_enoent_through_proc_eperm", &eperm,
	  O_PATH_CLOEXEC_SCRIPT, FAILS(ENOENT) },
	{ "nonexec_cloexec_script_fails_eacces_on_normal_system", &normal,
	  NONEXEC_CLOEXEC_SCRIPT, FAILS(EACCES) },
	{ "nonexec_cloexec_script_fails_eacces_through_proc_enosys", &enosys,
	  NONEXEC_CLOEXEC_SCRIPT, FAILS(EACCES) },
	{ "nonexec_cloexec_script_fails_eacces_through_proc_eperm", &eperm,
	  NONEXEC_CLOEXEC_SCRIPT, FAILS(EACCES) },

	/* 9. Scripts someone may execute, but not the caller: execveat checks
	 * permission before it refuses a close-on-exec script, and the
	 * fallback asks faccessat2 for the same answer. */
	{ "noexec_mount_cloexec_script_fails_eacces_on_normal_system", &normal,
	  NOEXEC_MOUNT_CLOEXEC_SCRIPT, FAILS(EACCES) },
	{ "noexec_mount_cloexec_script_fails_eacces_through_proc_enosys",
	  &enosys, NOEXEC_MOUNT_CLOEXEC_SCRIPT, FAILS(EACCES) },
	{ "noexec_mount_cloexec_script_fails_eacces_through_proc_eperm",
	  &eperm, NOEXEC_MOUNT_CLOEXEC_SCRIPT, FAILS(EACCES) },
	{ "owner_only_cloexec_script_fails_eacces_for_other_user_on_normal_system",
	  &normal, OWNER_ONLY_CLOEXEC_SCRIPT, FAILS(EACCES) },
	{ "owner_only_cloexec_script_fails_eacces_for_other_user_through_proc_enosys",
	  &enosys, OWNER_ONLY_CLOEXEC_SCRIPT, FAILS(EACCES) },
	{ "owner_only_cloexec_script_fails_eacces_for_other_user_through_proc_eperm",
	  &eperm, OWNER_ONLY_CLOEXEC_SCRIPT, FAILS(EACCES) },

	/* 10. faccessat2 refused as well (before Linux 5.8, or a policy):
	 * the library's faccessat asks the old call of the proven /proc
	 * name, and the answer is execveat's, EACCES for the noexec and
	 * owner-only ones. (EINVAL, flags it does not take: the mode bits
	 * say someone may execute it, and the fallback answers ENOENT,
	 * fexecve(3).) A file nobody may execute is EACCES. */
	{ "cloexec_script_fails_enoent_through_proc_when_faccessat2_enosys",
	  &enosys_no_faccessat2, CLOEXEC_SCRIPT, FAILS(ENOENT) },
	{ "nonexec_cloexec_script_fails_eacces_through_proc_when_faccessat2_enosys",
	  &enosys_no_faccessat2, NONEXEC_CLOEXEC_SCRIPT, FAILS(EACCES) },
	{ "noexec_mount_cloexec_script_fails_eacces_through_proc_when_faccessat2_enosys",
	  &enosys_no_faccessat2, NOEXEC_MOUNT_CLOEXEC_SCRIPT, FAILS(EACCES) },
	{ "owner_only_cloexec_script_fails_eacces_for_other_user_when_faccessat2_enosys",
	  &enosys_no_faccessat2, OWNER_ONLY_CLOEXEC_SCRIPT, FAILS(EACCES) },
	{ "cloexec_script_fails_enoent_through_proc_when_faccessat2_eperm",
	  &eperm_no_faccessat2, CLOEXEC_SCRIPT, FAILS(ENOENT) },
	{ "nonexec_cloexec_script_fails_eacces_through_proc_when_faccessat2_eperm",
	  &eperm_no_faccessat2, NONEXEC_CLOEXEC_SCRIPT, FAILS(EACCES) },
	{ "noexec_mount_cloexec_script_fails_eacces_through_proc_when_faccessat2_eperm",
	  &eperm_no_faccessat2, NOEXEC_MOUNT_CLOEXEC_SCRIPT, FAILS(EACCES) },
	{ "owner_only_cloexec_script_fails_eacces_for_other_user_when_faccessat2_eperm",
	  &eperm_no_faccessat2, OWNER_ONLY_CLOEXEC_SCRIPT, FAILS(EACCES) },
	{ "noexec_mount_cloexec_script_fails_enoent_through_proc_when_faccessat2_einval",
	  &enosys_faccessat2_einval, NOEXEC_MOUNT_CLOEXEC_SCRIPT,
	  FAILS(ENOENT) },
};

#define CASE_COUNT (sizeof(cases) / sizeof(cases[0]))

static struct fixture_dir dir;

/* Below dir: the mount point of a tmpfs mounted noexec, and a script in
 * it. */
#define NOEXEC_MOUNT "noexec-mount"
#define NOEXEC_MOUNT_SCRIPT NOEXEC_MOUNT "/script"
#define OWNER_ONLY_SCRIPT "owner-only-script"

struct world {
	const struct environment *env;
	enum subject subject;
	int fd;
	const char *file; /* what the subject's fd was opened from */
};

/* Every ID OTHER_UID, no supplementary groups: another user entirely. */
static int become_other_user(void)
{
	if (setgroups(0, NULL) != 0 ||
	    setresgid(OTHER_UID, OTHER_UID, OTHER_UID) != 0 ||
	    setresuid(OTHER_UID, OTHER_UID, OTHER_UID) != 0)
		return errno;
	return 0;
}

static int refuse_environment_calls(const struct environment *env)
{
	if (env->faccessat2_errno != 0)
		return block_execveat_and_faccessat2(env->execveat_errno,
						     env->faccessat2_errno);
	if (env->execveat_errno != 0)
		return block_execveat(env->execveat_errno);
	return 0;
}

static int make_world(void *ctx)
{
	const struct world *w = ctx;
	int err = 0;

	switch (w->env->proc) {
	case REAL_PROC:
		break;
	case NO_PROC:
		err = hide_proc();
		break;
	case FAKE_PROC_IMPOSTOR:
		err = fake_proc(w->fd, impostor_path);
		break;
	case FAKE_PROC_SAME_FILE:
		err = fake_proc(w->fd, w->file);
		break;
	}
	if (err == 0)
		err = refuse_environment_calls(w->env);
	/* Last: the mounts and (without no_new_privs) filters need root. */
	if (err == 0 && w->subject == OWNER_ONLY_CLOEXEC_SCRIPT)
		err = become_other_user();
	return err;
}

static void call_fexecve(void *ctx)
{
	const struct world *w = ctx;

	fexecve(w->fd, child_argv, child_envp);
}

static int open_memfd_program(void)
{
	int fd = memfd_create("report_args", MFD_EXEC);

	/* Before 6.3, MFD_EXEC is unknown and every memfd is executable. */
	if (fd < 0 && errno == EINVAL)
		fd = memfd_create("report_args", 0);
	if (fd < 0)
		fail_msg("memfd_create: %m");
	fixture_copy_program_to(fd);
	return fd;
}

static int open_subject(enum subject subject, char file[PATH_MAX])
{
	const char *name = FIXTURE_PROGRAM;
	int flags = O_RDONLY;

	switch (subject) {
	case MEMFD:
		strcpy(file, report_args_path);
		return open_memfd_program();
	case BINARY:
		break;
	case SCRIPT:
		name = FIXTURE_SCRIPT;
		break;
	case O_PATH_BINARY:
		flags = O_PATH;
		break;
	case CLOEXEC_BINARY:
		flags |= O_CLOEXEC;
		break;
	case CLOEXEC_SCRIPT:
		name = FIXTURE_SCRIPT;
		flags |= O_CLOEXEC;
		break;
	case O_PATH_CLOEXEC_SCRIPT:
		name = FIXTURE_SCRIPT;
		flags = O_PATH | O_CLOEXEC;
		break;
	case NONEXEC_CLOEXEC_SCRIPT:
		name = FIXTURE_NONEXEC_SCRIPT;
		flags |= O_CLOEXEC;
		break;
	case NOEXEC_MOUNT_CLOEXEC_SCRIPT:
		name = NOEXEC_MOUNT_SCRIPT;
		flags |= O_CLOEXEC;
		break;
	case OWNER_ONLY_CLOEXEC_SCRIPT:
		name = OWNER_ONLY_SCRIPT;
		flags |= O_CLOEXEC;
		break;
	}
	return open_or_fail(fixture_path(&dir, name, file), flags);
}

/* What execveat answers here, whatever the case asks: 0 where it is
 * there, else its refusal (execveat_refusal.h). */
static int refusal_here;

/* A case whose world refuses execveat otherwise than this one does
 * needs a filter of its own. */
static bool needs_own_filter(const struct env_case *c)
{
	return c->env->faccessat2_errno != 0 ||
	       (c->env->execveat_errno != 0 &&
		c->env->execveat_errno != refusal_here);
}

/*
 * Where execveat is refused already, a case that asks for no refusal gets
 * this one all the same: it expects what the case with the same /proc, the
 * same subject and this refusal expects.
 */
static struct expected expected_here(const struct env_case *c)
{
	int kernel_errno = kernel_errno_without_proc();

	/* A kernel that cannot exec an fd without /proc says so itself
	 * (exec_outcome.h): then nothing runs there. */
	if (c->env->proc == NO_PROC && c->env->execveat_errno == 0 &&
	    kernel_errno != 0 && c->expected.runs)
		return (struct expected)FAILS(kernel_errno);
	if (c->env->execveat_errno != 0 || refusal_here == 0)
		return c->expected;
	for (size_t i = 0; i < CASE_COUNT; i++)
		if (cases[i].env->proc == c->env->proc &&
		    cases[i].env->execveat_errno == refusal_here &&
		    cases[i].env->faccessat2_errno == 0 &&
		    cases[i].subject == c->subject)
			return cases[i].expected;
	fail_msg("no case says what %s expects where execveat fails with %s",
		 c->name, strerror(refusal_here));
	return c->expected;
}

static void run_case(void **state)
{
	const struct env_case *c = *state;
	struct expected expected = expected_here(c);
	char file[PATH_MAX];
	struct world w = { c->env, c->subject, open_subject(c->subject, file),
			   file };
	struct exec_outcome o = run_in_child(make_world, call_fexecve, &w);

	close(w.fd);
	if (o.exec_returned && o.exec_errno == SETUP_FAILED)
		fail_msg("the environment could not be made");
	if (expected.runs)
		assert_program_ran(o, expected.value);
	else
		assert_exec_failed(o, expected.value);
}

static struct CMUnitTest test_of(const struct env_case *c)
{
	return (struct CMUnitTest){
		.name = c->name,
		.test_func = run_case,
		.initial_state = (void *)c,
	};
}

/*
 * The noexec tmpfs, mounted in a mount namespace of this test's own (so
 * that it goes when the test does), and the script only root may execute.
 */
static void add_scripts_others_may_not_execute(void)
{
	char path[PATH_MAX];
	int err, mount_dfd;

	if (mkdirat(dir.dfd, NOEXEC_MOUNT, 0755) != 0)
		fail_msg("mkdir %s: %m", NOEXEC_MOUNT);
	err = private_mount_namespace();
	if (err == 0 && mount("none", fixture_path(&dir, NOEXEC_MOUNT, path),
			      "tmpfs", MS_NOEXEC, "mode=0755") != 0)
		err = errno;
	if (err != 0)
		fail_msg("a noexec tmpfs at %s: %s", path, strerror(err));
	/* By name: dir.dfd was opened in the namespace before this one, and
	 * sees no mount there. */
	mount_dfd = open_or_fail(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	fixture_add_script(mount_dfd, "script");
	close(mount_dfd);
	fixture_add_script(dir.dfd, OWNER_ONLY_SCRIPT);
	if (fchmodat(dir.dfd, OWNER_ONLY_SCRIPT, 0744, 0) != 0)
		fail_msg("chmod %s: %m", OWNER_ONLY_SCRIPT);
}

static int remove_fixtures(void)
{
	char path[PATH_MAX];

	if (umount2(fixture_path(&dir, NOEXEC_MOUNT, path), MNT_DETACH) != 0 &&
	    errno != EINVAL)
		fprintf(stderr, "umount %s: %s\n", path, strerror(errno));
	return fixture_dir_remove(&dir);
}

int main(int argc, char **argv)
{
	struct CMUnitTest in_this_world[CASE_COUNT];
	struct CMUnitTest with_own_filters[CASE_COUNT];
	size_t here = 0, filtered = 0;
	int failed;

	fixture_init(argc, argv);
	require_hostile_env();
	refusal_here = execveat_refusal();
	if (refusal_here != 0)
		printf("execveat fails with %s here: the cases without a "
		       "refusal of their own expect that refusal's answers\n",
		       strerror(refusal_here));
	for (size_t i = 0; i < CASE_COUNT; i++) {
		if (needs_own_filter(&cases[i]))
			with_own_filters[filtered++] = test_of(&cases[i]);
		else
			in_this_world[here++] = test_of(&cases[i]);
	}
	fixture_dir_create(&dir);
	add_scripts_others_may_not_execute();
	failed = _cmocka_run_group_tests("environment", in_this_world, here,
					 NULL, NULL);
	failed += run_cases_with_own_filters(with_own_filters, filtered);
	return remove_fixtures() == 0 && failed == 0 ? 0 : 1;
}
