/*
 * faccessat2's answer where faccessat2 (Linux 5.8) is refused, from the
 * old faccessat system call, which has no flags argument and checks the
 * real IDs (the kernel's access_override_creds): for real UID 0 with the
 * permitted capabilities, for any other with none; under
 * SECBIT_NO_SETUID_FIXUP with the effective capabilities, whatever the
 * UID. The old call looks its path up with those same credentials.
 *
 * Who asks:
 * - Where the old call asks the caller's question and the lookups the
 *   flags need (fstatat) look with the question's credentials too, this
 *   process asks it (access_lookup.c).
 * - AT_EACCESS with other real IDs: a child that shares this process's
 *   memory (and has copies of its descriptors and working directory)
 *   takes the question's IDs as its real ones, and the capabilities the
 *   question uses, with raw system calls, and asks there. Its effective
 *   and filesystem IDs stay the caller's, which under AT_EACCESS are the
 *   question's: so its lookups are the question's, and the kernel never
 *   changes the dumpability of the memory it shares (commit_creds does
 *   that for a new effective or filesystem ID, or a capability the
 *   permitted set lacked, and for nothing else). Its saved IDs are chosen
 *   so that it is traceable by exactly those who can trace the caller.
 * - The real IDs' question (no AT_EACCESS) under AT_SYMLINK_NOFOLLOW,
 *   where this process's lookups use other IDs: the old call is this
 *   process's own, and the lookup is made as widely as this process
 *   can (access_lookup.c), by a child that raises its effective
 *   capabilities to its permitted ones where they differ.
 * Neither child's credentials reach the caller's, which never change.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/wait.h>

#include "access_fallback.h"
#include "access_lookup.h"
#include "../null_check.h"
#include "../syscalls/files.h"
#include "../syscalls/process.h"

/*
 * The capabilities that change an access check (CAP_DAC_OVERRIDE,
 * CAP_DAC_READ_SEARCH, both in the first word); two sets that agree on
 * them get the same answer from the kernel's permission checks.
 */
#define DAC_CAPS ((1U << 1) | (1U << 2))

/* Who asks: the IDs a check uses and the capabilities it honours. */
struct asker {
	uid_t uid;
	gid_t gid;
	uint32_t caps[2];
};

static bool same_asker(const struct asker *a, const struct asker *b)
{
	return a->uid == b->uid && a->gid == b->gid &&
	       (a->caps[0] & DAC_CAPS) == (b->caps[0] & DAC_CAPS);
}

#define SECBIT_NO_SETUID_FIXUP_FLAG (1L << 2)

/* Whether a process of real UID uid can make the old faccessat check with
 * capabilities it chooses: root's permitted ones, or under
 * SECBIT_NO_SETUID_FIXUP anyone's effective ones; any other checks with
 * none. */
static bool old_call_keeps_caps(uid_t uid, long securebits)
{
	return uid == 0 || (securebits & SECBIT_NO_SETUID_FIXUP_FLAG);
}

/* This process's credentials, as the kernel holds them. */
struct creds {
	uid_t ruid, euid, suid;
	gid_t rgid, egid, sgid;
	struct sys_cap_data caps[2];
	long securebits;
	struct asker lookup;   /* a lookup's (fstatat's) */
	struct asker old_call; /* the old faccessat's */
};

/* 0, or -errno. */
static int read_creds(struct creds *c)
{
	int err = sys_getresuid(&c->ruid, &c->euid, &c->suid);

	if (err == 0)
		err = sys_getresgid(&c->rgid, &c->egid, &c->sgid);
	if (err == 0)
		err = sys_capget(c->caps);
	if (err < 0)
		return err;
	c->securebits = sys_securebits();
	if (c->securebits < 0)
		c->securebits = 0;
	c->lookup = (struct asker){ sys_fsuid(), sys_fsgid(),
				    { c->caps[0].effective,
				      c->caps[1].effective } };
	c->old_call = (struct asker){ c->ruid, c->rgid, { 0, 0 } };
	if (c->securebits & SECBIT_NO_SETUID_FIXUP_FLAG) {
		c->old_call.caps[0] = c->caps[0].effective;
		c->old_call.caps[1] = c->caps[1].effective;
	} else if (c->ruid == 0) {
		c->old_call.caps[0] = c->caps[0].permitted;
		c->old_call.caps[1] = c->caps[1].permitted;
	}
	return 0;
}

/*
 * The saved ID that keeps a child of real ID real and effective ID
 * effective as hard to trace as the caller (of IDs caller_real,
 * effective, caller_saved): ptrace, /proc/PID/mem and the like need a
 * tracer whose ID is all three of a process's (or CAP_SYS_PTRACE). Where
 * the child's real and effective IDs are the same, its saved one is one
 * of the caller's that differs from them, if the caller has such a one;
 * setresuid takes any of the caller's three.
 */
static long untraceable_saved(long real, long effective, long caller_real,
			      long caller_saved)
{
	if (real != effective || caller_saved != effective)
		return SYS_ID_UNCHANGED;
	return caller_real != effective ? caller_real : SYS_ID_UNCHANGED;
}

/*
 * A child's work, made with clone: CLONE_VM and CLONE_VFORK, so no memory
 * is copied and this thread waits until it has exited; its descriptors
 * and working directory are copies of this process's. No exit signal: no
 * SIGCHLD reaches the caller's handler, and a wait for any child
 * elsewhere without __WALL cannot reap it; one with __WALL can, and the
 * answer is in the shared memory all the same. Every signal is blocked
 * in between, so no handler runs in the child.
 */
struct child_work {
	int (*work)(void *);
	void *arg;
	int answer; /* the child's, where memory is shared; else NOT_SET */
};

#define NOT_SET (-1)

/* A child's answer where it could not do its work; every other is below
 * it, and fits an exit status. */
#define NOT_DONE 255

/* An answer (0, -errno, ACCESS_CANNOT_ASK) as a child's number: 0, the
 * errno (all below 255), or NOT_DONE. */
static int answer_code(int r)
{
	if (r == 0)
		return 0;
	if (r < 0 && -r < NOT_DONE)
		return -r;
	return NOT_DONE;
}

static int answer_of_code(int code)
{
	if (code == 0)
		return 0;
	if (code == NOT_DONE)
		return ACCESS_CANNOT_ASK;
	return -code;
}

/* What a lookup found, as a child's number: its errno, or past every
 * errno a symlink on a read-only mount, a symlink, or another file. */
enum { FOUND_OTHER = 250, FOUND_SYMLINK, FOUND_READONLY_SYMLINK };
_Static_assert(FOUND_READONLY_SYMLINK < NOT_DONE, "found codes fit");

static int found_code(const struct access_found *found)
{
	if (found->err != 0)
		return -found->err < FOUND_OTHER ? -found->err : EIO;
	if (!S_ISLNK(found->type))
		return FOUND_OTHER;
	return found->readonly ? FOUND_READONLY_SYMLINK : FOUND_SYMLINK;
}

/* A child's found: what it says replaces *found; NOT_DONE leaves it. The
 * type of another file is not carried: only a symlink's matters past an
 * empty path, which the child is never asked about. */
static void found_of_code(int code, struct access_found *found)
{
	if (code == NOT_DONE)
		return;
	*found = (struct access_found){ code < FOUND_OTHER ? -code : 0,
					code == FOUND_SYMLINK ||
							code == FOUND_READONLY_SYMLINK ?
						S_IFLNK : S_IFREG,
					code == FOUND_READONLY_SYMLINK };
}

/*
 * The work's answer (a number below NOT_DONE) is written to the shared
 * memory, where no wait of another thread's can take it, and is the exit
 * status too, for where the child's memory is a copy (valgrind runs a
 * vfork as a fork).
 */
static int child_main(void *arg)
{
	struct child_work *c = arg;
	int answer = c->work(c->arg);

	__atomic_store_n(&c->answer, answer, __ATOMIC_RELEASE);
	return answer;
}

/*
 * work(arg) in a child, on stack: its answer, or NOT_DONE where no child
 * could be made or it did not exit. The child's stack is the caller's,
 * which may be a small thread's or a signal stack: the child's deepest
 * calls take about 1 KiB (x86_64), a few system calls' frames.
 */
static int in_child(int (*work)(void *), void *arg, char *stack,
		    size_t size)
{
	struct child_work c = { work, arg, NOT_SET };
	uint64_t all = ~(uint64_t)0, old;
	int status = NOT_DONE << 8, answer, saved_errno = errno;
	long pid;

	if (sys_sigprocmask(SIG_SETMASK, &all, &old) < 0)
		return NOT_DONE;
	pid = clone(child_main, stack + size, CLONE_VM | CLONE_VFORK, &c);
	/* The C library's clone sets errno where it fails: NOT_DONE says so
	 * here, and the caller's errno stays as it was (syscalls/call.h). */
	errno = saved_errno;
	/* CLONE_VFORK: the child has exited; it is reaped here, unless
	 * another thread's wait with __WALL took it first. */
	if (pid > 0 && (sys_wait_clone(pid, &status) != pid ||
			!WIFEXITED(status)))
		status = NOT_DONE << 8;
	sys_sigprocmask(SIG_SETMASK, &old, NULL);
	answer = __atomic_load_n(&c.answer, __ATOMIC_ACQUIRE);
	if (answer == NOT_SET)
		answer = pid > 0 ? WEXITSTATUS(status) : NOT_DONE;
	return answer;
}

/* The question asked with other real IDs (AT_EACCESS). */
struct other_ids {
	int dirfd;
	const char *path;
	int mode;
	int flags;
	long uid, saved_uid, gid, saved_gid;
	uint32_t caps[2];
};

/*
 * The child: the question's IDs as its real ones, and capabilities that
 * make the old call's check the question's (where the old call keeps
 * none, the question has none that matter), then the question.
 */
static int ask_with_other_ids(void *arg)
{
	const struct other_ids *q = arg;
	struct sys_cap_data caps[2];

	if (sys_setresgid(q->gid, SYS_ID_UNCHANGED, q->saved_gid) < 0 ||
	    sys_setresuid(q->uid, SYS_ID_UNCHANGED, q->saved_uid) < 0 ||
	    sys_capget(caps) < 0)
		return NOT_DONE;
	for (int i = 0; i < 2; i++)
		caps[i].effective = caps[i].permitted = q->caps[i];
	if (sys_capset(caps) < 0)
		return NOT_DONE;
	return answer_code(libexecveat_access_ask(q->dirfd, q->path, q->mode,
						  q->flags, true));
}

/* The child's stack, and after it the caller's scratch: see in_child. */
#define CHILD_STACK_SIZE 4096
_Static_assert(CHILD_STACK_SIZE >= ACCESS_SCRATCH_SIZE,
	       "the child's stack is the scratch of ask_as_real");

/* AT_EACCESS where the old call would ask with other IDs. */
static int ask_as_effective(int dirfd, const char *path, int mode,
			    int flags, const struct creds *c)
{
	_Alignas(16) char stack[CHILD_STACK_SIZE];
	const struct asker *question = &c->lookup;
	bool kept = old_call_keeps_caps(question->uid, c->securebits);
	struct other_ids q = {
		dirfd, path, mode, flags,
		question->uid,
		untraceable_saved(question->uid, c->euid, c->ruid, c->suid),
		question->gid,
		untraceable_saved(question->gid, c->egid, c->rgid, c->sgid),
		{ kept ? question->caps[0] : 0, kept ? question->caps[1] : 0 },
	};

	/* The old call of a UID other than 0 drops every capability. */
	if (!kept && (question->caps[0] & DAC_CAPS))
		return ACCESS_CANNOT_ASK;
	return answer_of_code(in_child(ask_with_other_ids, &q, stack,
				       sizeof(stack)));
}

/* The lookup asked as widely as this process can. */
struct wide_lookup {
	int dirfd;
	const char *path;
	int mode;
	int flags;
};

/* The child: every permitted capability effective, then the lookup. */
static int look_up_widely(void *arg)
{
	const struct wide_lookup *l = arg;
	struct sys_cap_data caps[2];
	struct access_found found;

	if (sys_capget(caps) < 0)
		return NOT_DONE;
	caps[0].effective = caps[0].permitted;
	caps[1].effective = caps[1].permitted;
	if (sys_capset(caps) < 0)
		return NOT_DONE;
	libexecveat_access_look_up(l->dirfd, l->path, l->mode, l->flags,
				   &found);
	return found_code(&found);
}

/*
 * The real IDs' question, where a lookup here uses other IDs: what the
 * lookup finds, asked by this process, or where its capabilities could
 * see more, by a child that has them all effective; then the old call,
 * this process's own.
 */
static int ask_as_real(int dirfd, const char *path, int mode, int flags,
		       const struct creds *c, bool may_act)
{
	_Alignas(16) char scratch[CHILD_STACK_SIZE];
	struct wide_lookup l = { dirfd, path, mode, flags };
	struct access_found found;

	libexecveat_access_look_up(dirfd, path, mode, flags, &found);
	if (may_act && libexecveat_access_view_may_be_narrow(&found) &&
	    (c->caps[0].permitted & DAC_CAPS & ~c->caps[0].effective))
		found_of_code(in_child(look_up_widely, &l, scratch,
				       sizeof(scratch)), &found);
	return libexecveat_access_ask_found(dirfd, path, mode, flags, &found,
					    scratch);
}

int libexecveat_access_without_faccessat2(int dirfd, const char *path,
					  int mode, int flags, bool may_act)
{
	int lookup_flags = flags & ACCESS_LOOKUP_FLAGS;
	struct creds c;

	/* The kernel's checks, in its order: mode, flags, then the path. */
	if (mode & ~(R_OK | W_OK | X_OK) ||
	    flags & ~(AT_EACCESS | ACCESS_LOOKUP_FLAGS))
		return -EINVAL;
	if (pointer_is_null(path))
		return -EFAULT;
	if (!(flags & (AT_EACCESS | ACCESS_LOOKUP_FLAGS)))
		return sys_faccessat(dirfd, path, mode);
	if (read_creds(&c) < 0)
		return ACCESS_CANNOT_ASK;
	/* Under AT_EACCESS the question is the lookups' asker. */
	if (same_asker(&c.old_call, &c.lookup))
		return libexecveat_access_ask(dirfd, path, mode, lookup_flags,
					      may_act);
	if (!(flags & AT_EACCESS))
		return ask_as_real(dirfd, path, mode, lookup_flags, &c,
				   may_act);
	return may_act ? ask_as_effective(dirfd, path, mode, lookup_flags, &c) :
			 ACCESS_CANNOT_ASK;
}
