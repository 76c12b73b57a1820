/*
 * A container runtime's preparation of a root file system it does not
 * trust (an unpacked image, which may hold links that lead out of it),
 * with the functions of <inroot.h> alone: the mount targets made inside
 * the root whatever links it holds, /dev with its nodes (each checked)
 * and links, /proc with its masks and read-only paths, and the
 * runtime's binds. No step names a file of the root by a path the
 * kernel would look up again from outside it.
 */
#ifndef PREPARE_ROOT_H
#define PREPARE_ROOT_H

#include <stdbool.h>
#include <stdio.h>

#define PREPARE_MAX 32

struct root_bind {
	const char *source; /* the machine's path */
	const char *target; /* beneath the root */
	bool rdonly;
};

struct root_config {
	const char *root;     /* the unpacked image */
	const char *staging;  /* a directory of the runtime's own, outside
			       * the root, for /dev's tmpfs and a procfs */
	struct root_bind binds[PREPARE_MAX];
	unsigned bind_count;
};

/*
 * Prepares config->root in this process's mount namespace (a private
 * one: its mounts are the container's): prints one line per step to
 * log. 0 when every step was made, else the number of steps that
 * failed (each said so).
 */
int prepare_root(const struct root_config *config, FILE *log);

/* Which of the system calls the library's 2.1 ways depend on this
 * sandbox refuses, a line each: "open_tree: ENOSYS", "openat2: ok". */
void print_refused_calls(FILE *out);

#endif /* PREPARE_ROOT_H */
