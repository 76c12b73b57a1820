/*
 * A 5.1 kernel's calls, as far as 2.1's operations beneath a root can
 * tell: every call they use that came later refused with ENOSYS (the
 * new mount API, openat2, mount_setattr, fchmodat2, the *xattrat calls)
 * and utimensat's AT_EMPTY_PATH with EINVAL, as before Linux 5.8. For
 * the worlds that prove the ways taken where those calls are missing.
 */
#ifndef TESTS_OLD_CALLS_H
#define TESTS_OLD_CALLS_H

/* Loads the filter for this process and its later children: 0, or an
 * errno. */
int refuse_calls_after_5_1(void);

#endif /* TESTS_OLD_CALLS_H */
