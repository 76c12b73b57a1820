/*
 * What preloading the library costs a program that never calls it: the
 * startup of /bin/true (posix_spawn + waitpid) with LD_PRELOAD set to the
 * library and without, interleaved in many short rounds; the report is
 * the median of the per-round ratios.
 *
 *   preload-startup LIBRARY [ROUNDS]
 *
 * Both environments have one variable of the same length, so the only
 * difference the loader sees is the preload itself.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec_ways.h"
#include "pin_cpu.h"
#include "stats.h"

#define PROGRAM "/bin/true"
#define RUNS_PER_ROUND 5
#define DEFAULT_ROUNDS 1000
#define PRELOAD_TARGET 1.05

/* Under LD_TRACE_LOADED_OBJECTS the loader lists what it would load and
 * stops: proof that the preload is taken, not ignored with a warning. */
static int preload_is_loaded(const char *preload_var, const char *library)
{
	char out[4096] = "";
	char *argv[] = { PROGRAM, NULL };
	char *envp[] = { (char *)preload_var, "LD_TRACE_LOADED_OBJECTS=1",
			 NULL };
	const char *base = strrchr(library, '/');
	int pipefd[2], status;
	ssize_t n;
	pid_t pid;

	if (pipe(pipefd) != 0)
		return 0;
	pid = fork();
	if (pid == 0) {
		dup2(pipefd[1], STDOUT_FILENO);
		execve(PROGRAM, argv, envp);
		_exit(127);
	}
	close(pipefd[1]);
	/* The loader writes its list a line at a time: read it all. */
	for (size_t got = 0; got < sizeof(out) - 1; got += (size_t)n) {
		n = read(pipefd[0], out + got, sizeof(out) - 1 - got);
		if (n <= 0)
			break;
	}
	close(pipefd[0]);
	waitpid(pid, &status, 0);
	return strstr(out, base ? base + 1 : library) != NULL;
}

/* NAME=VALUE, with a relative path made absolute: the loader would take
 * a name without a slash for a library to search for. */
static char *path_variable(const char *name, const char *path)
{
	char cwd[4096] = "";
	size_t size;
	char *v;

	if (path[0] != '/' && getcwd(cwd, sizeof(cwd) - 1) != NULL)
		strcat(cwd, "/");
	size = strlen(name) + strlen(cwd) + strlen(path) + 2;
	v = malloc(size);
	snprintf(v, size, "%s=%s%s", name, cwd, path);
	return v;
}

int main(int argc, char **argv)
{
	unsigned rounds = argc > 2 ? (unsigned)atoi(argv[2]) : DEFAULT_ROUNDS;
	char *child_argv[] = { "true", NULL };
	char *plain_env[2] = { NULL, NULL }, *preload_env[2] = { NULL, NULL };
	struct exec_target plain = { -1, PROGRAM, child_argv, plain_env };
	struct exec_target preload = { -1, PROGRAM, child_argv, preload_env };
	double *ratios, *plain_us, *preload_us, ratio;

	if (argc < 2 || rounds == 0) {
		fprintf(stderr, "usage: %s LIBRARY [ROUNDS]\n", argv[0]);
		return 2;
	}
	preload_env[0] = path_variable("LD_PRELOAD", argv[1]);
	plain_env[0] = path_variable("XX_PRELOAD", argv[1]);
	if (!preload_is_loaded(preload_env[0], argv[1])) {
		fprintf(stderr, "%s: the loader does not take %s\n", PROGRAM,
			preload_env[0]);
		return 1;
	}
	ratios = calloc(rounds, sizeof(*ratios));
	plain_us = calloc((size_t)rounds * RUNS_PER_ROUND, sizeof(double));
	preload_us = calloc((size_t)rounds * RUNS_PER_ROUND, sizeof(double));
	printf("preload-startup: posix_spawn + waitpid of %s, %u rounds of %d "
	       "runs each way, interleaved, on CPU %d\n", PROGRAM, rounds,
	       RUNS_PER_ROUND, pin_to_current_cpu());
	for (unsigned i = 0; i < rounds; i++) {
		double *a = &plain_us[i * RUNS_PER_ROUND];
		double *b = &preload_us[i * RUNS_PER_ROUND];
		double a_copy[RUNS_PER_ROUND], b_copy[RUNS_PER_ROUND];

		for (unsigned run = 0; run < RUNS_PER_ROUND; run++) {
			/* Alternate which goes first. */
			int preload_first = (i + run) % 2;

			if (preload_first)
				b[run] = time_exec(WAY_SPAWN, &preload);
			a[run] = time_exec(WAY_SPAWN, &plain);
			if (!preload_first)
				b[run] = time_exec(WAY_SPAWN, &preload);
		}
		memcpy(a_copy, a, sizeof(a_copy));
		memcpy(b_copy, b, sizeof(b_copy));
		ratios[i] = median(b_copy, RUNS_PER_ROUND) /
			    median(a_copy, RUNS_PER_ROUND);
	}
	ratio = median(ratios, rounds);
	printf("preload startup, median us: plain=%.1f preload=%.1f\n",
	       median(plain_us, (size_t)rounds * RUNS_PER_ROUND),
	       median(preload_us, (size_t)rounds * RUNS_PER_ROUND));
	printf("preload startup: ratio preload/plain=%.3f (target <= %.2f: %s)\n",
	       ratio, PRELOAD_TARGET, ratio <= PRELOAD_TARGET ? "met" : "MISSED");
	return 0;
}
