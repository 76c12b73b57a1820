/*
 * fs.protected_symlinks, fs.protected_regular and fs.protected_fifos: the
 * kernel's rules for links and O_CREAT in sticky directories, which the
 * differential's trees and test_resolve_kernel_rules exercise. They
 * belong to the whole machine, not to a namespace: a run saves them, sets
 * them for its cases, and gives the machine its own values back when it
 * ends (the differential in a signal's handler too; a SIGKILL leaves them
 * set: nothing runs after it). One lock file serialises every such run,
 * of any build: another run's values must not change under a case.
 */
#ifndef TESTS_PROTECTED_SYSCTLS_H
#define TESTS_PROTECTED_SYSCTLS_H

struct protected_sysctls {
	int symlinks, regular, fifos;
};

/*
 * Waits for any other run that holds them (a lock file; it says so when
 * it has to wait), then saves the machine's values, and checks that they
 * can be written. Returns 0, or an errno (the values could not be read or
 * written back).
 */
int protected_sysctls_save(void);

/* The saved values back. Async-signal-safe; 0 or an errno. */
int protected_sysctls_restore(void);

/* Sets the three values through /proc/sys (the caller's own procfs).
 * 0 or an errno. */
int protected_sysctls_set(const struct protected_sysctls *values);

#endif /* TESTS_PROTECTED_SYSCTLS_H */
