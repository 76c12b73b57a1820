/*
 * glibc's own fexecve, even in a process where libexecveat defines
 * fexecve too (linked or preloaded).
 */
#ifndef BENCH_GLIBC_FEXECVE_H
#define BENCH_GLIBC_FEXECVE_H

typedef int fexecve_fn(int fd, char *const argv[], char *const envp[]);

/* NULL (with the reason printed) when this C library has no versioned
 * fexecve to find, as with musl. */
fexecve_fn *glibc_fexecve(void);

#endif /* BENCH_GLIBC_FEXECVE_H */
