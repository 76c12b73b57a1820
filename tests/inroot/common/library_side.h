/*
 * The library's side of a call: the operation of include/inroot.h that
 * the call names, beneath the directory fd root.
 */
#ifndef TESTS_INROOT_LIBRARY_SIDE_H
#define TESTS_INROOT_LIBRARY_SIDE_H

#include "inroot_call.h"

/* What the function returned: an fd, 0, or readlink's length; -1 with
 * errno. OP_REOPEN reopens what inroot_resolve finds (that fd closed). */
long library_side_call(int root, const struct inroot_call *c);

#endif /* TESTS_INROOT_LIBRARY_SIDE_H */
