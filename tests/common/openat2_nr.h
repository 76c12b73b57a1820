/*
 * openat2's system call number, for tests that make the call themselves:
 * 437 on every ABI (x32: with its bit) since Linux 5.6, which C libraries
 * older than the call do not name (glibc 2.31, Debian 11's, has no
 * SYS_openat2).
 */
#ifndef TESTS_OPENAT2_NR_H
#define TESTS_OPENAT2_NR_H

#include <sys/syscall.h>

#if defined(SYS_openat2)
#define OPENAT2_NR SYS_openat2
#elif defined(__x86_64__) && defined(__ILP32__)
#define OPENAT2_NR (0x40000000 + 437)
#else
#define OPENAT2_NR 437
#endif

#endif /* TESTS_OPENAT2_NR_H */
