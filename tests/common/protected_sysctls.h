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

#include <sys/types.h>

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

/*
 * A run ended by a signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT: meson's
 * timeout, ^C) gives the values back all the same: from this call on,
 * such a signal to this process stops the child named by
 * protected_sysctls_child (SIGKILL, reaped), restores the values, calls
 * undo (async-signal-safe; NULL for nothing more), then takes the
 * signal's own action. A child forked after the call takes that action
 * alone. Call it before the fork where the child must not outlive the
 * parent unseen.
 */
void protected_sysctls_restore_on_signals(void (*undo)(void));

/* The run's child, which sets the values: the one such a signal stops
 * first. */
void protected_sysctls_child(pid_t child);

#endif /* TESTS_PROTECTED_SYSCTLS_H */
