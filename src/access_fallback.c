/*
 * faccessat2's answer where faccessat2 (Linux 5.8) is refused, from the
 * old faccessat system call, which has no flags argument and checks the
 * real IDs (the kernel's access_override_creds): for real UID 0 with the
 * permitted capabilities, for any other with none; under
 * SECBIT_NO_SETUID_FIXUP with the effective capabilities, whatever the
 * UID.
 *
 * Where the old call asks the caller's question (no flags; AT_EACCESS
 * where the effective and real IDs are the same), it is asked as it is.
 * Otherwise a child that shares this process's memory (and has copies of
 * its descriptors and working directory) takes the question's IDs and
 * capabilities with raw system calls and asks it there: the caller's own
 * credentials never change. The child walks the path with those IDs too,
 * as the kernel does, so a directory only they can search answers as it
 * would.
 *
 * AT_SYMLINK_NOFOLLOW: the old call follows a last symlink, so the path
 * is looked at first (fstatat, without following); a symlink's own
 * answer is the kernel's for its mode 0777: 0 for every mode, but W_OK
 * on a read-only mount, EROFS. AT_EMPTY_PATH with "": the fd's file,
 * asked through a proven /proc/self/fd name; without one (and for the
 * working directory, AT_FDCWD) the question cannot be asked, and the
 * answer is faccessat2's refusal.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/statvfs.h>
#include <sys/wait.h>

#include "access_fallback.h"
#include "null_check.h"
#include "proc_fallback.h"
#include "sys.h"

#ifndef AT_SYMLINK_NOFOLLOW
#define AT_SYMLINK_NOFOLLOW 0x100
#endif

#define LOOKUP_FLAGS (AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH)

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

/*
 * This process's credentials, as three askers: the question's (the
 * filesystem IDs and effective capabilities under AT_EACCESS, else those
 * the old call uses), the old call's, and that of a lookup (fstatat)
 * made here. 0, or -1 with errno.
 */
static int read_askers(bool eaccess, struct asker *question,
		       struct asker *old_call, struct asker *lookup,
		       long *securebits)
{
	uid_t ruid, euid, suid;
	gid_t rgid, egid, sgid;
	struct sys_cap_data caps[2];

	if (sys_getresuid(&ruid, &euid, &suid) < 0 ||
	    sys_getresgid(&rgid, &egid, &sgid) < 0 || sys_capget(caps) < 0)
		return -1;
	*securebits = sys_securebits();
	if (*securebits < 0)
		*securebits = 0;
	*lookup = (struct asker){ sys_fsuid(), sys_fsgid(),
				  { caps[0].effective, caps[1].effective } };
	*old_call = (struct asker){ ruid, rgid, { 0, 0 } };
	if (*securebits & SECBIT_NO_SETUID_FIXUP_FLAG) {
		old_call->caps[0] = caps[0].effective;
		old_call->caps[1] = caps[1].effective;
	} else if (ruid == 0) {
		old_call->caps[0] = caps[0].permitted;
		old_call->caps[1] = caps[1].permitted;
	}
	*question = eaccess ? *lookup : *old_call;
	return 0;
}

/* A symlink's own answer: its mode is 0777, so only a read-only mount
 * refuses (W_OK, EROFS). */
static int symlink_answer(int dirfd, const char *path, int mode)
{
	struct statfs sfs;
	int fd = dirfd, rc, err;

	if (!(mode & W_OK))
		return 0;
	if (path[0] != '\0') {
		fd = sys_openat(dirfd, path, O_PATH | O_NOFOLLOW | O_CLOEXEC, 0);
		if (fd < 0)
			return -1;
	}
	rc = sys_fstatfs(fd, &sfs);
	err = errno;
	if (fd != dirfd)
		sys_close(fd);
	errno = err;
	if (rc < 0)
		return -1;
	if (sfs.f_flags & ST_RDONLY) {
		errno = EROFS;
		return -1;
	}
	return 0;
}

/*
 * The old call's answer to the question, asked by a process whose lookups
 * and old call both use the question's credentials; flags without
 * AT_EACCESS.
 */
static int ask_old_call(int dirfd, const char *path, int mode, int flags,
			int refusal)
{
	struct proc_fd_name name;
	struct stat st;

	if (!(flags & LOOKUP_FLAGS))
		return sys_faccessat(dirfd, path, mode);
	/* The kernel's lookup errors, from the same walk. */
	if (sys_fstatat(dirfd, path, &st, flags & LOOKUP_FLAGS) < 0)
		return -1;
	/* The kernel has read path: its first byte is readable. */
	if (S_ISLNK(st.st_mode))
		return symlink_answer(dirfd, path, mode);
	/* Not a symlink: following it changes nothing. A race that puts a
	 * symlink there can only move the answer to the link's target, on
	 * a mount the racer can write to, where the link's own is 0. */
	if (path[0] != '\0')
		return sys_faccessat(dirfd, path, mode);
	if (dirfd >= 0 &&
	    libexecveat_proc_fd_find(dirfd, &name) == PROC_FD_SAME_FILE)
		return sys_faccessat(AT_FDCWD, name.path, mode);
	errno = refusal;
	return -1;
}

struct child_question {
	int dirfd;
	const char *path;
	int mode;
	int flags;
	int refusal;
	struct asker asker;
	long securebits;
	int answer; /* the child's, where memory is shared; else NOT_SET */
};

#define NOT_SET (-1)

/* The child's exit status where it could not take the IDs; every other
 * is the answer: 0, or the errno (all below 255). */
#define NOT_ASKED 255

/*
 * The child: the question's IDs as real and effective (the saved ones
 * stay), and capabilities that make the old call's check and the
 * lookups' the question's, then the question. Its signals are all
 * blocked (it runs on memory the parent will use again). The answer is
 * written to the shared memory, where no wait of another thread's can
 * take it, and is the exit status too, for where the child's memory is a
 * copy (valgrind runs a vfork as a fork). The errno it sets is the
 * parent's thread's, which the parent sets again.
 */
static int ask_as_child(void *arg)
{
	struct child_question *q = arg;
	struct sys_cap_data caps[2];
	bool kept = old_call_keeps_caps(q->asker.uid, q->securebits);
	int answer;

	if (sys_setregid_keep_saved(q->asker.gid, q->asker.gid) < 0 ||
	    sys_setreuid_keep_saved(q->asker.uid, q->asker.uid) < 0 ||
	    sys_capget(caps) < 0)
		return NOT_ASKED;
	for (int i = 0; i < 2; i++)
		caps[i].effective = caps[i].permitted =
			kept ? q->asker.caps[i] : 0;
	if (sys_capset(caps) < 0)
		return NOT_ASKED;
	answer = ask_old_call(q->dirfd, q->path, q->mode, q->flags,
			      q->refusal) == 0 ? 0 :
		 errno > 0 && errno < NOT_ASKED ? errno : NOT_ASKED;
	__atomic_store_n(&q->answer, answer, __ATOMIC_RELEASE);
	return answer;
}

/*
 * Asks in a child made with clone: CLONE_VM and CLONE_VFORK, so no memory
 * is copied and this thread waits until it has exited; its descriptors
 * and working directory are copies of this process's. No exit signal: no
 * SIGCHLD reaches the caller's handler, and a wait for any child
 * elsewhere without __WALL cannot reap it; one with __WALL can, and the
 * answer is in the shared memory all the same. Every signal is blocked
 * in between, so no handler runs in the child.
 *
 * Dumpability belongs to the memory, which the child shares: its change
 * of IDs makes it fs.suid_dumpable's (the kernel's commit_creds; 0 by
 * default) for the caller too. That keeps the child untraceable by a
 * process of its new IDs; the caller's is set back once the child is
 * gone, and meanwhile the caller is not dumpable either.
 */
static int ask_in_child(struct child_question *q)
{
	/* The child's stack, on the caller's, which may be a small thread's
	 * or a signal stack: the child's deepest calls take about 1 KiB
	 * (x86_64), a few system calls' frames. */
	_Alignas(16) char stack[4096];
	uint64_t all = ~(uint64_t)0, old;
	long pid, dumpable = sys_dumpable();
	int status = NOT_ASKED << 8, answer;

	if (sys_sigprocmask(SIG_SETMASK, &all, &old) < 0)
		return -1;
	pid = clone(ask_as_child, stack + sizeof(stack),
		    CLONE_VM | CLONE_VFORK, q);
	/* CLONE_VFORK: the child has exited; it is reaped here, unless
	 * another thread's wait with __WALL took it first. */
	if (pid > 0 && (sys_wait_clone(pid, &status) != pid ||
			!WIFEXITED(status)))
		status = NOT_ASKED << 8;
	/* 2 (SUID_DUMP_ROOT) cannot be set by prctl; the child's change
	 * leaves it 2 while fs.suid_dumpable is 2, as it was when set. */
	if ((dumpable == 0 || dumpable == 1) && sys_dumpable() != dumpable)
		sys_set_dumpable(dumpable);
	sys_sigprocmask(SIG_SETMASK, &old, NULL);
	answer = __atomic_load_n(&q->answer, __ATOMIC_ACQUIRE);
	if (answer == NOT_SET)
		answer = pid > 0 ? WEXITSTATUS(status) : NOT_ASKED;
	if (answer == 0)
		return 0;
	errno = answer != NOT_ASKED ? answer : q->refusal;
	return -1;
}

int libexecveat_access_without_faccessat2(int dirfd, const char *path,
					  int mode, int flags, int refusal)
{
	struct asker question, old_call, lookup;
	struct child_question q;
	long securebits;

	/* The kernel's checks, in its order: mode, flags, then the path. */
	if (mode & ~(R_OK | W_OK | X_OK) ||
	    flags & ~(AT_EACCESS | AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH)) {
		errno = EINVAL;
		return -1;
	}
	if (pointer_is_null(path)) {
		errno = EFAULT;
		return -1;
	}
	if (!(flags & (AT_EACCESS | LOOKUP_FLAGS)))
		return sys_faccessat(dirfd, path, mode);
	if (read_askers(flags & AT_EACCESS, &question, &old_call, &lookup,
			&securebits) < 0) {
		errno = refusal;
		return -1;
	}
	if (same_asker(&question, &old_call) &&
	    (!(flags & LOOKUP_FLAGS) || same_asker(&question, &lookup)))
		return ask_old_call(dirfd, path, mode, flags & ~AT_EACCESS,
				    refusal);
	/* A child can ask only with capabilities the old call keeps: none
	 * but root's. */
	if (!old_call_keeps_caps(question.uid, securebits) &&
	    (question.caps[0] & DAC_CAPS)) {
		errno = refusal;
		return -1;
	}
	q = (struct child_question){ dirfd, path, mode, flags & ~AT_EACCESS,
				     refusal, question, securebits, NOT_SET };
	return ask_in_child(&q);
}
