/*
 * prepare-root: a container runtime's preparation of an unpacked image,
 * with <inroot.h> alone (prepare_root.c says the steps).
 *
 *   prepare-root ROOT [--bind SOURCE:TARGET[:ro]]...
 *   prepare-root --calls
 *
 * Run it in a mount namespace of its own (unshare -m --propagation
 * private), as a runtime prepares a container's: the mounts are that
 * namespace's. --calls prints which of the calls the library's ways
 * depend on this sandbox refuses. Exits 0 when every step was made, 1
 * when one failed, 2 on a usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prepare_root.h"

static int usage(void)
{
	fprintf(stderr, "usage: prepare-root ROOT [--bind SOURCE:TARGET[:ro]]...\n"
		"       prepare-root --calls\n");
	return 2;
}

/* SOURCE:TARGET[:ro], split in place. */
static int parse_bind(char *text, struct root_bind *b)
{
	char *colon = strchr(text, ':'), *ro;

	if (colon == NULL || colon == text || colon[1] == '\0')
		return -1;
	*colon = '\0';
	ro = strchr(colon + 1, ':');
	b->rdonly = ro != NULL && strcmp(ro, ":ro") == 0;
	if (ro != NULL && !b->rdonly)
		return -1;
	if (ro != NULL)
		*ro = '\0';
	b->source = text;
	b->target = colon + 1;
	return 0;
}

int main(int argc, char **argv)
{
	struct root_config config = { 0 };
	char staging[] = "/tmp/prepare-root.XXXXXX";
	int failures;

	if (argc == 2 && strcmp(argv[1], "--calls") == 0) {
		print_refused_calls(stdout);
		return 0;
	}
	if (argc < 2 || argv[1][0] == '-')
		return usage();
	config.root = argv[1];
	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--bind") != 0 || i + 1 == argc ||
		    config.bind_count == PREPARE_MAX ||
		    parse_bind(argv[++i], &config.binds[config.bind_count++]))
			return usage();
	}
	if (mkdtemp(staging) == NULL) {
		perror("prepare-root: a staging directory");
		return 1;
	}
	config.staging = staging;
	failures = prepare_root(&config, stdout);
	rmdir(staging);
	return failures == 0 ? 0 : 1;
}
