/*
 * Whether this world has execveat at all, asked of the kernel (or of
 * whatever stands in for it, such as qemu-user) at run time, never
 * inferred from the architecture: a kernel before 3.19 and qemu-user
 * before 8.1 answer ENOSYS; a seccomp policy may answer ENOSYS or EPERM.
 * System calls alone, so every C library's suites can use it.
 */
#ifndef TESTS_EXECVEAT_REFUSAL_H
#define TESTS_EXECVEAT_REFUSAL_H

/* 0 where execveat is there; else the errno every execveat call gets
 * (ENOSYS, EPERM). */
int execveat_refusal(void);

/* The errno a case that execs a path or an fd by execveat must see:
 * expected where execveat is there, its refusal where it is not. */
int execveat_outcome_errno(int expected);

#endif /* TESTS_EXECVEAT_REFUSAL_H */
