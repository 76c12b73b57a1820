/*
 * Running an exec in a child and reporting what happened: either the exec
 * returned (and with which errno), or a program ran (and how it exited).
 */
#ifndef TESTS_EXEC_OUTCOME_H
#define TESTS_EXEC_OUTCOME_H

#include <stdbool.h>

#define IMPOSTOR_STATUS 66  /* tests/programs/impostor.c */
#define SETUP_FAILED (-1)   /* .exec_errno when the child's setup failed */

struct exec_outcome {
	bool exec_returned; /* the exec call came back: nothing ran */
	int exec_errno;     /* its errno, or SETUP_FAILED */
	int exit_status;    /* otherwise the program's exit status, */
	int term_signal;    /* or the signal that ended it */
};

/* Prepares the child's world (mounts, seccomp); returns 0 or an errno. */
typedef int (*child_setup_fn)(void *ctx);
/* Makes the exec call; returns only when it fails. */
typedef void (*child_exec_fn)(void *ctx);

/* Forks; the child runs setup (if any) and then exec_call. */
struct exec_outcome run_in_child(child_setup_fn setup, child_exec_fn exec_call,
				 void *ctx);

/* Fails the test unless a program ran and exited with status. */
void assert_program_ran(struct exec_outcome o, int status);

/* Fails the test unless the exec came back with expected_errno (so
 * nothing ran). */
void assert_exec_failed(struct exec_outcome o, int expected_errno);

/* The same for a call of execveat itself: where execveat is refused
 * (qemu-user 7.2, a kernel before 3.19), it must come back with that
 * refusal instead, whatever the call (execveat_refusal.h). */
void assert_execveat_ran(struct exec_outcome o, int status);
void assert_execveat_failed(struct exec_outcome o, int expected_errno);

/* Where execveat is there but this kernel cannot exec an fd without /proc
 * (Debian 11's 5.10: execveat_errno_without_proc), the errno a world
 * without /proc gets from the kernel itself; else 0. */
int kernel_errno_without_proc(void);

/* assert_execveat_ran for an exec of an fd in a world without /proc:
 * where the kernel cannot, its errno instead. */
void assert_fd_exec_ran_without_proc(struct exec_outcome o, int status);

#endif /* TESTS_EXEC_OUTCOME_H */
