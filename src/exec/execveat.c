/*
 * execveat(): the system call, plus the 2014 draft's NULL path.
 *
 * _GNU_SOURCE stays undefined here so that glibc's __nonnull declaration
 * of execveat is not in scope; pointer_is_null() guards the check anyway.
 */
#ifdef _GNU_SOURCE
#error "build execveat.c without _GNU_SOURCE (see above)"
#endif

#include "../answer.h"
#include "execveat.h"
#include "../exports.h"
#include "../null_check.h"
#include "../syscalls/files.h"
#include "../syscalls/process.h"

EXECVEAT_EXPORT int execveat(int dirfd, const char *pathname,
			     char *const argv[], char *const envp[], int flags)
{
	if (pointer_is_null(pathname))
		return answer(sys_execveat(dirfd, "", argv, envp,
					   flags | AT_EMPTY_PATH));
	return answer(sys_execveat(dirfd, pathname, argv, envp, flags));
}
