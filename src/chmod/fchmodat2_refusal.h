/*
 * fchmodat2's refusal (fchmodat.c): one memory for fchmodat(3),
 * lchmod(3), inroot_chmod(3) and inroot_fchmod(3), each of which falls
 * back only where it is proven (call_refused.h).
 */
#ifndef EXECVEAT_FCHMODAT2_REFUSAL_H
#define EXECVEAT_FCHMODAT2_REFUSAL_H

#include <stdbool.h>

/* Whether fchmodat2's refusal is remembered. */
bool libexecveat_fchmodat2_refusal_remembered(void);

/* Whether fchmodat2's answer r (-errno where it failed) is a refusal of
 * the call itself: ENOSYS, or an EPERM proven to be a policy's (an EPERM
 * may be the file's own: the caller does not own it). A refusal proven
 * here is remembered. */
bool libexecveat_fchmodat2_refused(int r);

/* Whether a fallback's answer r may differ from fchmodat2's, so that
 * fchmodat2 is asked before it is given where the refusal is only
 * remembered: -EOPNOTSUPP where the fallback finds no way, -EMFILE and
 * -ENFILE for its own fds, -EAGAIN where a name or an fd came to hold
 * another file, CHMOD_WOULD_OPEN (chmod_fallback.h) where it may not
 * open a directory. */
bool libexecveat_chmod_fallback_may_differ(int r);

#endif /* EXECVEAT_FCHMODAT2_REFUSAL_H */
