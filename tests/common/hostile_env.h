/*
 * The environments the library exists for, made inside a forked child:
 * /proc missing or fake (proc_mounts.h), execveat refused by seccomp.
 * Each returns 0, or an errno when this machine cannot make it (not root,
 * no namespaces).
 */
#ifndef TESTS_HOSTILE_ENV_H
#define TESTS_HOSTILE_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "execveat_refusal.h"
#include "proc_mounts.h"
#include "refuse_call.h"

/* Makes every execveat of this process fail with execveat_err, and every
 * faccessat2 with faccessat2_err: a policy (or a kernel before 5.8, for
 * faccessat2) under which fexecve's fallback cannot ask the kernel who
 * may execute a script. */
int block_execveat_and_faccessat2(int execveat_err, int faccessat2_err);

/* Whether this process could load a seccomp filter (qemu-user lets no
 * program load one); if not, why. Only where execveat is refused already
 * can require_hostile_env() pass without filters. */
bool seccomp_filters_available(char *why, size_t why_size);

/* Whether the calls above work here; if not, why (for a skip message). */
bool hostile_env_available(char *why, size_t why_size);

/* In main(): exit 77 (meson's "skipped") with the reason, unless the
 * calls above work here. */
void require_hostile_env(void);

#endif /* TESTS_HOSTILE_ENV_H */
