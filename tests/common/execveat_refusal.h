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

/* Makes every execveat of this process (and its later children) fail
 * with err, unless execveat is refused with err here already (qemu-user
 * 7.2: ENOSYS). 0, or an errno. */
int block_execveat(int err);

/* The hostile world most tests need, made in a forked child: /proc
 * hidden (proc_mounts.h) and execveat refused with ENOSYS. 0, or the
 * errno that says this machine cannot make it (not root, no namespaces,
 * no seccomp). */
int hide_proc_and_block_execveat(void);

/*
 * What execveat of an fd of program answers with /proc hidden (an empty
 * tmpfs over it, in a child of its own): 0 where it runs the program;
 * ENOENT on Debian 11's kernel 5.10, which looks the name /dev/fd/N up to
 * exec an fd (fexecve(3), NOTES); -1 where no mount namespace can be
 * made. A world without /proc has that answer from the kernel itself.
 */
int execveat_errno_without_proc(const char *program);

#endif /* TESTS_EXECVEAT_REFUSAL_H */
