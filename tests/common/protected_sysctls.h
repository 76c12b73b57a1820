/*
 * fs.protected_symlinks, fs.protected_regular and fs.protected_fifos: the
 * kernel's rules for links and O_CREAT in sticky directories, which the
 * differential's trees and test_resolve_kernel_rules exercise. They
 * belong to the whole machine, not to a namespace: a run saves them, sets
 * them for its cases, and gives the machine its own values back when it
 * ends (in a signal's handler too; a SIGKILL leaves them set: nothing runs
 * after it). One lock file serialises every such run, of any build and
 * any checkout: another run's values must not change under a case.
 *
 * The wait for that lock is another program's time, not the run's: it
 * may last minutes (a long differential of another checkout). So a run
 * waits with a bound of its own (PROTECTED_SYSCTLS_WAIT_SECONDS, saying
 * who holds the lock), and meson.build gives these tests no meson timeout
 * but their own, timed from when they hold the lock
 * (protected_sysctls_start_timeout).
 */
#ifndef TESTS_PROTECTED_SYSCTLS_H
#define TESTS_PROTECTED_SYSCTLS_H

#include <sys/types.h>

/* How long a run waits for the lock before it gives up. */
#define PROTECTED_SYSCTLS_WAIT_SECONDS (20 * 60)

struct protected_sysctls {
	int symlinks, regular, fifos;
};

/*
 * Takes the lock, waiting for at most PROTECTED_SYSCTLS_WAIT_SECONDS for
 * any other run that holds it (saying so, and who, once a minute), or the
 * lock a parent holds for its children (protected_sysctls_hold_for_
 * children); then saves the machine's values, and checks that they can
 * be written. Returns 0, ETIMEDOUT (the lock stayed taken; said on
 * stdout), or an errno (the values could not be read or written back).
 */
int protected_sysctls_save(void);

/*
 * The lock alone, for a program that sets no value itself but runs
 * programs that do, one after another (the rename storm): waited for as
 * above, held until this process ends, and handed to its children, whose
 * protected_sysctls_save takes it as theirs. 0, ETIMEDOUT or an errno.
 */
int protected_sysctls_hold_for_children(void);

/* The saved values back. Async-signal-safe; 0 or an errno. */
int protected_sysctls_restore(void);

/* Sets the three values through /proc/sys (the caller's own procfs).
 * 0 or an errno. */
int protected_sysctls_set(const struct protected_sysctls *values);

/*
 * The run's own timeout, started once the lock is held: where the
 * environment's PROTECTED_SYSCTLS_TIMEOUT names seconds (meson.build sets
 * it, in place of meson's timeout), a SIGALRM that many seconds from now,
 * times LIBEXECVEAT_TIMEOUT_MULTIPLIER where that is set (the valgrind
 * setup's). Elsewhere (a program run by hand, the kernel matrix) none.
 * protected_sysctls_restore_on_signals takes the SIGALRM as it takes the
 * others, and says TIMEOUT.
 */
void protected_sysctls_start_timeout(void);

/*
 * A run ended by a signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT: ^C, a
 * parent's stop; SIGALRM: its own timeout) gives the values back all the
 * same: from this call on, such a signal to this process stops the child
 * named by protected_sysctls_child (SIGKILL, reaped), restores the values,
 * calls undo (async-signal-safe; NULL for nothing more), then takes the
 * signal's own action. A child forked after the call takes that action
 * alone. Call it before the fork where the child must not outlive the
 * parent unseen.
 */
void protected_sysctls_restore_on_signals(void (*undo)(void));

/* The run's child, which sets the values: the one such a signal stops
 * first. */
void protected_sysctls_child(pid_t child);

#endif /* TESTS_PROTECTED_SYSCTLS_H */
