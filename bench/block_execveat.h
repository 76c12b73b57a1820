/*
 * execveat taken away the way container runtimes do it: a seccomp filter
 * that fails every execveat with an errno (ENOSYS for "unknown system
 * call", EPERM for Docker's default profile).
 */
#ifndef BENCH_BLOCK_EXECVEAT_H
#define BENCH_BLOCK_EXECVEAT_H

/* For this thread and every child from now on; 0 or an errno. Allocates
 * (libseccomp): call it before anything that counts allocations. */
int block_execveat(int err);

#endif /* BENCH_BLOCK_EXECVEAT_H */
