/*
 * fexecve(): execveat first; the fd's /proc name only when execveat is
 * refused and /proc is proven to name the same file.
 */
#include <errno.h>
#include <stdbool.h>

#include "../answer.h"
#include "../call_refused.h"
#include "cloexec_script.h"
#include "execveat.h"
#include "../exports.h"
#include "../null_check.h"
#include "../proc/proc_fd_name.h"
#include "../syscalls/files.h"
#include "../syscalls/process.h"

/*
 * A refusal of execveat, once proven (call_refused.h): later calls try
 * the verified /proc first. A call that finds /proc refused still asks
 * execveat, whose answer is then the answer: the memory costs a thread
 * without the refusal a system call, never an exec.
 */
static atomic_int execveat_refused;

/*
 * Whether execveat itself is refused here (this thread, now), asked where
 * an EPERM may be the file's own (a security module's): an empty path
 * without AT_EMPTY_PATH, which a kernel that has the call answers ENOENT
 * before it looks at anything, and which can run nothing. A kernel's
 * ENOSYS needs no asking: no file answers execveat that way.
 */
static bool execveat_call_refused(void)
{
	static char *const none[] = { NULL };

	return may_be_refusal(sys_execveat(-1, "", none, none, 0));
}

/*
 * Only a refusal of execveat itself (call_refused.h) makes /proc worth
 * asking: every other error is about the file or the arguments, and /proc
 * would only repeat it. An EPERM that is the file's own gets the same
 * exec of the same verified file, which fails the same way.
 */
static bool fallback_allowed(int execveat_answer)
{
	return may_be_refusal(execveat_answer);
}

/* What exec_through_proc answers where /proc cannot be trusted here. */
#define PROC_REFUSED 0

/*
 * Execs fd's /proc name once it is proven to be fd's file. Returns only
 * where nothing runs: -errno when that exec fails, when fd is not open,
 * or where execveat would refuse the file; PROC_REFUSED when /proc
 * cannot be trusted here (missing, not procfs, another file).
 */
static int exec_through_proc(int fd, char *const argv[], char *const envp[])
{
	struct proc_fd_name name;
	int refusal;

	switch (libexecveat_proc_fd_find(fd, &name)) {
	case PROC_FD_SAME_FILE:
		break;
	case PROC_FD_NOT_OPEN:
		return -EBADF;
	default:
		return PROC_REFUSED;
	}
	refusal = libexecveat_cloexec_script_refusal(fd, &name);
	if (refusal < 0)
		return refusal;
	return sys_execve(name.path, argv, envp);
}

/* fexecve's answer where it returns: the -errno of a refusal or of a
 * failed exec. */
static int fexecve_policy(int fd, char *const argv[], char *const envp[])
{
	bool proc_refused = false;
	int r;

	if (fd < 0 || pointer_is_null(argv) || pointer_is_null(envp))
		return -EINVAL;

	if (refusal_remembered(&execveat_refused)) {
		r = exec_through_proc(fd, argv, envp);
		if (r != PROC_REFUSED)
			return r;
		proc_refused = true;
	}

	r = sys_execveat(fd, "", argv, envp, AT_EMPTY_PATH);
	if (!fallback_allowed(r))
		return r;
	if (!refusal_remembered(&execveat_refused) &&
	    (r == -ENOSYS || execveat_call_refused()))
		remember_refusal(&execveat_refused);
	if (!proc_refused) {
		int through_proc = exec_through_proc(fd, argv, envp);

		if (through_proc != PROC_REFUSED)
			return through_proc;
	}
	/* No /proc we can trust: execveat's refusal is the answer. */
	return r;
}

/*
 * fexecve is defined under an internal name and given its public name, in
 * each of its versions, by .symver at the end of this file.
 */
__typeof__(fexecve) libexecveat_fexecve;

EXECVEAT_EXPORT int libexecveat_fexecve(int fd, char *const argv[],
					char *const envp[])
{
	return answer(fexecve_policy(fd, argv, envp));
}

/* What -lexecveat binds to. */
__asm__(".symver libexecveat_fexecve, fexecve@@EXECVEAT_1.0");

#ifdef EXECVEAT_GLIBC_FEXECVE_NODE
/*
 * The same function under the version glibc gives fexecve on this ABI
 * (GLIBC_2.2.5 on x86_64, GLIBC_2.0 on i386, ...): programs built against
 * glibc ask for that version, and only a definition carrying it interposes
 * when the library is preloaded. execveat gets no such twin, so preloading
 * leaves glibc's execveat exactly as it is.
 */
__asm__(".symver libexecveat_fexecve, fexecve@" EXECVEAT_GLIBC_FEXECVE_NODE);
#endif
