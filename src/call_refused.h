/*
 * Whether an errno can mean that a system call itself was refused, rather
 * than anything about its file or its arguments. Shared by fexecve and
 * openat2, which fall back only then.
 *
 * ENOSYS: the kernel is older than the call, a qemu-user emulator lacks it
 * (Debian 12's 7.2 has neither execveat nor openat2), or a seccomp policy
 * signals an unknown system call that way (podman's default profile,
 * systemd since 2021). EPERM: a seccomp policy refusing it (an allow-list
 * whose default errno is EPERM and that omits the call, systemd-nspawn's
 * --system-call-filter=, or a unit's SystemCallFilter= with
 * SystemCallErrorNumber=EPERM; without that line a unit's filter kills).
 */
#ifndef EXECVEAT_CALL_REFUSED_H
#define EXECVEAT_CALL_REFUSED_H

#include <errno.h>
#include <stdbool.h>

static inline bool errno_may_be_refusal(int err)
{
	return err == ENOSYS || err == EPERM;
}

/* Whether fchmodat2 itself is refused here (src/fchmodat.c): an EPERM
 * from it may be the file's own. */
bool libexecveat_fchmodat2_refused(void);

#endif /* EXECVEAT_CALL_REFUSED_H */
