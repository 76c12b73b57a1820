/*
 * Timing an exec means a parent waking when its child exits. Across CPUs
 * that wakeup is an interrupt between processors, which on a virtual
 * machine can cost more than the exec and varies from run to run; on one
 * CPU it is a plain switch. The benchmarks pin themselves, and their
 * children inherit it.
 */
#ifndef BENCH_PIN_CPU_H
#define BENCH_PIN_CPU_H

/* Pins the calling process to the CPU it runs on; returns that CPU, or -1
 * (and the process runs unpinned) if the kernel refuses. */
int pin_to_current_cpu(void);

#endif /* BENCH_PIN_CPU_H */
