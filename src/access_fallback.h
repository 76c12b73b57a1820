/*
 * faccessat's fallback, for where faccessat2 (Linux 5.8) is refused: the
 * old faccessat system call, which has no flags and checks the real IDs,
 * asked by this process where that is the question, or by a short-lived
 * child that holds the question's IDs where it is not.
 */
#ifndef EXECVEAT_ACCESS_FALLBACK_H
#define EXECVEAT_ACCESS_FALLBACK_H

/* faccessat2(dirfd, path, mode, flags) as the kernel would answer it: 0,
 * or -1 with errno. Where it cannot be asked (access_fallback.c says
 * when), -1 with errno refusal, the errno faccessat2 was refused with. */
int libexecveat_access_without_faccessat2(int dirfd, const char *path,
					  int mode, int flags, int refusal);

#endif /* EXECVEAT_ACCESS_FALLBACK_H */
