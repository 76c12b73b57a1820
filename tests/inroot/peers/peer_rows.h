/*
 * Shorthand for the rows of the case tables (cases_*.c): what a peer
 * expects, and the operation with its arguments.
 */
#ifndef TESTS_INROOT_PEER_ROWS_H
#define TESTS_INROOT_PEER_ROWS_H

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/stat.h>

#include "peer_cases.h"

/* The peer expects success naming file (NULL: it names none), or err. */
#define NAMES(file_) { .err = 0, .file = (file_) }
#define SUCCEEDS { .err = 0, .file = NULL }
#define FAILS(err_) { .err = (err_), .file = NULL }

#define ROW(peer_, tree_, name_, op_, path_, expects_, ...)                  \
	{ .peer = (peer_), .tree = (tree_), .name = (name_), .op = (op_),    \
	  .path = (path_), .expects = expects_, __VA_ARGS__ }

#endif /* TESTS_INROOT_PEER_ROWS_H */
