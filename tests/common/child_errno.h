/* Trying something in a throwaway child: does this machine allow it? */
#ifndef TESTS_CHILD_ERRNO_H
#define TESTS_CHILD_ERRNO_H

/* Forks, runs try() in the child, and returns the errno it returned (0 for
 * success), the errno of fork or waitpid, or EINTR if a signal ended it. */
int errno_of_child(int (*try)(void));

#endif /* TESTS_CHILD_ERRNO_H */
