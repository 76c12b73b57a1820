/* fexec --probe: which way fexecve(3) would run a program here. */
#ifndef FEXEC_PROBE_H
#define FEXEC_PROBE_H

/* Prints one line per mechanism and one naming fexecve's choice; returns
 * the exit status: 0 if some mechanism works, 1 if none does. */
int run_probe(void);

#endif /* FEXEC_PROBE_H */
