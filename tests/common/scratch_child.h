/*
 * A test's world: a forked child, which dies with the test, given a
 * scratch directory of its own (scratch_dir.h) that is removed once the
 * child is gone.
 */
#ifndef TESTS_SCRATCH_CHILD_H
#define TESTS_SCRATCH_CHILD_H

/* What the child runs, with top the scratch directory; it ends with
 * _exit(status). */
typedef void scratch_child(const char *top, void *arg);

/* child run with a directory made from template (a mkdtemp template,
 * changed in place): its exit status, or 2 where it could not be run or
 * died of a signal (said on stderr, with what). */
int scratch_child_run(char *template, const char *what, scratch_child *child,
		      void *arg);

#endif /* TESTS_SCRATCH_CHILD_H */
