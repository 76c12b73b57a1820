/*
 * The ways of starting a program that the benchmark compares, and one
 * timed vfork + exec + waitpid (or posix_spawn + waitpid) through any of
 * them.
 */
#ifndef BENCH_EXEC_WAYS_H
#define BENCH_EXEC_WAYS_H

enum exec_way {
	WAY_RAW,   /* syscall(SYS_execveat, fd, "", ..., AT_EMPTY_PATH) */
	WAY_LIB,   /* libexecveat's fexecve, linked */
	WAY_GLIBC, /* glibc's fexecve, found by its version node */
	WAY_PATH,  /* execve by path */
	WAY_SPAWN, /* posix_spawn by path */
	WAY_COUNT
};

struct exec_target {
	int fd;           /* the program, open for the fd ways */
	const char *path; /* the same program, for the path ways */
	char **argv;
	char **envp;
};

/* Short name of a way, for reports ("raw", "lib", ...). */
const char *exec_way_name(enum exec_way way);

/* Whether this build can take the way (glibc's fexecve needs glibc). */
int exec_way_available(enum exec_way way);

/* Runs the code of the fd ways once, with fd -1 (EINVAL or EBADF before
 * anything else happens), so that a freshly forked process has it mapped
 * as a process that already called them has. */
void fault_in_exec_code(const struct exec_target *target);

/* Microseconds from before the vfork (or spawn) to after waitpid. Exits
 * the process with a message if the program did not run and exit 0. */
double time_exec(enum exec_way way, const struct exec_target *target);

#endif /* BENCH_EXEC_WAYS_H */
