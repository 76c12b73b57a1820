#define _GNU_SOURCE
#include "old_calls.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>

#include "openat2_nr.h"
#include "refuse_call.h"

#define NR(n) (OPENAT2_NR - 437 + (n)) /* the unified numbers, x32's bit */

int refuse_calls_after_5_1(void)
{
	static const long newer[] = {
		NR(428), NR(429), NR(430), NR(431), NR(432), /* open_tree... */
		NR(437), NR(442), NR(452),      /* openat2, setattr, fchmodat2 */
		NR(463), NR(464), NR(465), NR(466), /* the *xattrat calls */
	};
	struct refused_call calls[sizeof newer / sizeof newer[0] + 1];
	size_t n = 0;

	for (; n < sizeof newer / sizeof newer[0]; n++)
		calls[n] = (struct refused_call){ .nr = newer[n],
						  .err = ENOSYS };
	calls[n++] = (struct refused_call){ .nr = SYS_utimensat, .err = EINVAL,
		.arg = 3, .mask = AT_EMPTY_PATH, .value = AT_EMPTY_PATH };
	return refuse_calls(calls, n);
}
