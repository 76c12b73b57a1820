#define _GNU_SOURCE
#include "pin_cpu.h"

#include <sched.h>

int pin_to_current_cpu(void)
{
	int cpu = sched_getcpu();
	cpu_set_t one;

	if (cpu < 0)
		return -1;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return sched_setaffinity(0, sizeof(one), &one) == 0 ? cpu : -1;
}
