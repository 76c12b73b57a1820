/* What the suites share: the programs they exec, and how they call them. */
#ifndef TESTS_FIXTURE_H
#define TESTS_FIXTURE_H

#include <stddef.h>

#define CHILD_STATUS 42
#define CHILD_STATUS_STR "42"

/* argv and envp that tests/programs/report_args.c turns into CHILD_STATUS. */
extern char *child_argv[];
extern char *child_envp[];

/* Paths of report_args and impostor: argv[1] and argv[2] of the test. */
extern const char *report_args_path;
extern const char *impostor_path;

/* Reads the paths above from the test's command line (exits 2 if absent). */
void fixture_init(int argc, char **argv);

/* Reads fd to its end (or until buf is full) as a string. */
void read_to_end(int fd, char *buf, size_t size);

/* open(path, flags), failing the test if it fails. */
int open_or_fail(const char *path, int flags);

#endif /* TESTS_FIXTURE_H */
