/*
 * The tests that compare with the kernel's openat2, run again and again
 * while directories are renamed: none may fail.
 *
 *   rename-storm [--protected-sysctls] SECONDS COMMAND [ARGS...]
 *                [-- COMMAND [ARGS...]]...
 *
 * --protected-sysctls: the commands set the fs.protected_* sysctls
 * (the differential), under a lock of every such run on the machine
 * (protected_sysctls.h). The storm waits for that lock before it starts,
 * not with its renamers already spinning, holds it for its commands, and
 * then starts its own timeout (PROTECTED_SYSCTLS_TIMEOUT), which meson's
 * is not: that would count the wait.
 *
 * Every rename on the machine makes a scoped ".." (RESOLVE_BENEATH,
 * RESOLVE_IN_ROOT) that it races answer EAGAIN (rename_lock is global),
 * so a package manager, a build or another test suite renaming at the
 * same time makes the kernel's answers EAGAIN for as long as it renames.
 * A test that asks again a fixed number of times fails then; one that
 * asks again for seconds (tests/common/openat2_again.h) does not.
 *
 * A child process per CPU renames a directory of its own back and forth
 * as fast as it can, in bursts (BURST_MS on, REST_MS off), so that on a
 * busy machine too one is renaming whenever a test looks something up;
 * the rests are the moments a test that asks again for long enough gets
 * its answer in. Before the commands run, a probe proves that the storm
 * reaches this kernel's scoped lookups (some must answer EAGAIN), or the
 * run would prove nothing. Then the
 * commands run in turn, each at least once, until SECONDS have passed; a
 * command's leading NAME=VALUE words go to its environment, and its
 * output is shown when it fails. The report counts the questions a
 * command did not judge ("not judged:" lines, openat2_again.h): the
 * storm's rests let the kernel answer, so these come from renames
 * elsewhere that left it none. Exits 1 if a run failed, 77 if a command
 * skipped (77) or openat2 is refused here.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "openat2_again.h"
#include "protected_sysctls.h"

#define BURST_MS 50
#define REST_MS 10
#define PROBE_DEPTH 64 /* the probe's walk: down this deep, then back up */
#define PROBE_SECONDS 1.0
/* On a machine whose cores are all busy (run-all boots kernels under
 * qemu beside its stages), the renamers may get no turn for seconds: a
 * bound on the wait for the first EAGAIN, which the probe still needs. */
#define PROBE_MAX_SECONDS 60.0
#define MAX_COMMANDS 16
#define MAX_RENAMERS 8
#define RESOLVE_BENEATH_BIT 0x08 /* <linux/openat2.h> */

static char work[] = "/tmp/rename-storm-XXXXXX";
static volatile sig_atomic_t stop_signal;

struct storm_counts {
	uint64_t renames, bursts;
	unsigned int renamers;
};

struct command {
	char **argv; /* NAME=VALUE words first, then the program */
	unsigned int runs, failed, not_judged;
	double seconds;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

_Noreturn static void die(const char *what)
{
	fprintf(stderr, "rename-storm: %s: %s\n", what, strerror(errno));
	exit(2);
}

/* ---- the storm ---- */

/* One renamer: renames work/storm/N/a to b and back, in bursts, until
 * killed; dies with its parent (a test killed at its timeout leaves no
 * storm behind). */
static pid_t start_renamer(unsigned int n, struct storm_counts *counts)
{
	char a[64], b[64];
	pid_t pid;

	snprintf(a, sizeof a, "%s/storm/%u", work, n);
	if (mkdir(a, 0755) != 0)
		die("mkdir storm");
	snprintf(a, sizeof a, "%s/storm/%u/a", work, n);
	snprintf(b, sizeof b, "%s/storm/%u/b", work, n);
	if (mkdir(a, 0755) != 0)
		die("mkdir storm/a");
	pid = fork();
	if (pid != 0)
		return pid;
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() == 1)
		_exit(1);
	for (;;) {
		double end = now() + BURST_MS / 1e3;
		struct timespec rest = { 0, REST_MS * 1000000L };
		uint64_t renames = 0;

		while (now() < end) {
			renames += rename(a, b) == 0;
			renames += rename(b, a) == 0;
		}
		__atomic_fetch_add(&counts->renames, renames, __ATOMIC_RELAXED);
		__atomic_fetch_add(&counts->bursts, 1, __ATOMIC_RELAXED);
		nanosleep(&rest, NULL);
	}
}

/* A renamer per CPU, so that one is renaming whenever the tests run. */
static unsigned int start_storm(pid_t *renamers, struct storm_counts *counts)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned int n = cpus < 1 ? 1 : cpus > MAX_RENAMERS ? MAX_RENAMERS
							  : (unsigned int)cpus;
	char dir[64];

	snprintf(dir, sizeof dir, "%s/storm", work);
	if (mkdir(dir, 0755) != 0)
		die("mkdir storm");
	for (unsigned int i = 0; i < n; i++)
		if ((renamers[i] = start_renamer(i, counts)) < 0)
			die("fork");
	counts->renamers = n;
	return n;
}

static void stop_storm(const pid_t *renamers, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		kill(renamers[i], SIGKILL);
	for (unsigned int i = 0; i < n; i++)
		waitpid(renamers[i], NULL, 0);
}

/* ---- the probe: does the storm reach this kernel's scoped lookups? ---- */

/* work/probe/d/d/.../d/f, and a path down the chain and back up to f. */
static int make_probe(char *path, size_t size)
{
	char dir[64];
	int top, d;
	size_t len = 0;

	snprintf(dir, sizeof dir, "%s/probe", work);
	if (mkdir(dir, 0755) != 0 ||
	    (top = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		die("mkdir probe");
	d = dup(top);
	for (int i = 0; i < PROBE_DEPTH; i++) {
		int next;

		if (mkdirat(d, "d", 0755) != 0 ||
		    (next = openat(d, "d", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
			die("mkdir probe chain");
		close(d);
		d = next;
		len += (size_t)snprintf(path + len, size - len, "d/");
	}
	close(d);
	for (int i = 0; i < PROBE_DEPTH; i++)
		len += (size_t)snprintf(path + len, size - len, "../");
	snprintf(path + len, size - len, "f");
	if ((d = openat(top, "f", O_CREAT | O_WRONLY | O_CLOEXEC, 0644)) < 0)
		die("probe file");
	close(d);
	return top;
}

struct probe_counts {
	unsigned long lookups, eagains;
	double seconds;
	int refusal; /* openat2's errno where the call itself is refused */
};

/* Scoped lookups through the chain, asked once each, for PROBE_SECONDS
 * and on until one answered EAGAIN, for at most PROBE_MAX_SECONDS. */
static struct probe_counts probe(void)
{
	static char path[PROBE_DEPTH * 5 + 8];
	uint64_t how[3] = { O_RDONLY | O_CLOEXEC, 0, RESOLVE_BENEATH_BIT };
	struct probe_counts p = { 0, 0, 0, 0 };
	int top = make_probe(path, sizeof path);
	double start = now(), elapsed = 0;

	while (!stop_signal && elapsed < PROBE_MAX_SECONDS &&
	       (elapsed < PROBE_SECONDS || p.eagains == 0)) {
		long fd = kernel_openat2_once(top, path, how, sizeof how);

		p.lookups++;
		if (fd >= 0) {
			close((int)fd);
		} else if (errno == EAGAIN) {
			p.eagains++;
		} else {
			p.refusal = errno;
			break;
		}
		elapsed = now() - start;
	}
	p.seconds = elapsed;
	close(top);
	return p;
}

/* ---- the commands ---- */

static void on_stop(int sig)
{
	stop_signal = sig;
}

/* Each command's output goes to a file of its own, shown if it fails. */
static void output_path(char *buf, size_t size, unsigned int index)
{
	snprintf(buf, size, "%s/output-%u", work, index);
}

static void exec_command(char **argv, const char *output)
{
	int fd = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0 ||
	    dup2(fd, STDERR_FILENO) < 0)
		_exit(127);
	for (; strchr(*argv, '=') != NULL && **argv != '/'; argv++)
		putenv(*argv);
	execvp(argv[0], argv);
	perror(argv[0]);
	_exit(127);
}

/* The command as the report names it: NAME=VALUE words, the program's
 * file name, its arguments. */
static const char *describe(char **argv)
{
	static char buf[256];
	size_t len = 0;

	buf[0] = '\0';
	for (bool program = true; *argv != NULL && len < sizeof buf; argv++) {
		const char *word = *argv;

		if (program && (strchr(word, '=') == NULL || *word == '/')) {
			program = false;
			if (strrchr(word, '/') != NULL)
				word = strrchr(word, '/') + 1;
		}
		len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s",
					len ? " " : "", word);
	}
	return buf;
}

static void show_output(const char *output)
{
	char buf[4096];
	size_t n;
	FILE *f = fopen(output, "r");

	while (f != NULL && (n = fread(buf, 1, sizeof buf, f)) > 0)
		fwrite(buf, 1, n, stdout);
	if (f != NULL)
		fclose(f);
}

/* The "not judged:" lines of an output. */
static unsigned int count_not_judged(const char *output)
{
	static const char mark[] = "not judged:";
	char line[512];
	unsigned int n = 0;
	FILE *f = fopen(output, "r");

	while (f != NULL && fgets(line, sizeof line, f) != NULL)
		n += strncmp(line, mark, sizeof mark - 1) == 0;
	if (f != NULL)
		fclose(f);
	return n;
}

/* One run: its exit status (128 + signal if killed), -1 if interrupted. */
static int run_once(struct command *c, unsigned int index)
{
	char output[64];
	int status;
	pid_t pid;

	output_path(output, sizeof output, index);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0)
		exec_command(c->argv, output);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			die("waitpid");
		if (stop_signal) {
			/* Not SIGKILL: a command that set the
			 * fs.protected_* sysctls gives them back on
			 * SIGTERM. */
			kill(pid, SIGTERM);
			waitpid(pid, NULL, 0);
			return -1;
		}
	}
	return WIFEXITED(status) ? WEXITSTATUS(status)
				 : 128 + WTERMSIG(status);
}

/* Splits argv at "--" into commands; returns how many. */
static unsigned int parse_commands(int argc, char **argv,
				   struct command *commands)
{
	unsigned int n = 0;

	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			argv[i] = NULL;
			continue;
		}
		if (i == 0 || argv[i - 1] == NULL) {
			if (n == MAX_COMMANDS)
				break;
			commands[n++] = (struct command){ &argv[i], 0, 0, 0,
							  0 };
		}
	}
	return n;
}

/* Runs the commands in turn until seconds have passed and each ran once.
 * 0, 1 (a run failed), 77 (a command skipped, none failed), -1 (stopped). */
static int run_commands(struct command *commands, unsigned int n,
			double seconds)
{
	double end = now() + seconds;
	int result = 0;

	for (unsigned int i = 0; i < n || now() < end; i++) {
		struct command *c = &commands[i % n];
		char output[64];
		double started = now();
		int status = run_once(c, i % n);

		if (status < 0)
			return -1;
		c->runs++;
		c->seconds += now() - started;
		output_path(output, sizeof output, i % n);
		c->not_judged += count_not_judged(output);
		if (status == 0)
			continue;
		show_output(output);
		if (status == 77) {
			printf("SKIP: %s skipped: the storm cannot run it\n",
			       describe(c->argv));
			return result ? result : 77;
		}
		c->failed++;
		result = 1;
		printf("FAIL: %s, run %u: exit status %d\n",
		       describe(c->argv), c->runs, status);
	}
	return result;
}

static void report(const struct command *commands, unsigned int n,
		   const struct storm_counts *storm, double seconds)
{
	unsigned int runs = 0, failed = 0;

	for (unsigned int i = 0; i < n; i++) {
		printf("%s: %u runs, %u failed, %.1f s each, %u questions not "
		       "judged\n", describe(commands[i].argv), commands[i].runs,
		       commands[i].failed, commands[i].runs == 0 ? 0 :
				commands[i].seconds / commands[i].runs,
		       commands[i].not_judged);
		runs += commands[i].runs;
		failed += commands[i].failed;
	}
	printf("rename storm: %u runs in %.0f s, %u failed; %u renamers made "
	       "%llu renames in %llu bursts\n", runs, seconds, failed,
	       storm->renamers, (unsigned long long)storm->renames,
	       (unsigned long long)storm->bursts);
}

static void remove_work(void)
{
	char cmd[64];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", work);
	if (system(cmd) != 0)
		fprintf(stderr, "rename-storm: could not remove %s\n", work);
}

int main(int argc, char **argv)
{
	struct command commands[MAX_COMMANDS];
	struct sigaction stop = { .sa_handler = on_stop };
	struct storm_counts *storm;
	struct probe_counts p;
	double started, seconds;
	unsigned int n;
	int result;
	bool sysctls = argc > 1 && strcmp(argv[1], "--protected-sysctls") == 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	argc -= sysctls;
	argv += sysctls;
	if (argc < 3 || (seconds = strtod(argv[1], NULL)) <= 0) {
		fprintf(stderr, "usage: rename-storm [--protected-sysctls] "
				"SECONDS COMMAND [ARGS...] "
				"[-- COMMAND [ARGS...]]...\n");
		return 2;
	}
	n = parse_commands(argc - 2, argv + 2, commands);
	storm = mmap(NULL, sizeof *storm, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (storm == MAP_FAILED || mkdtemp(work) == NULL)
		die("setup");
	sigaction(SIGTERM, &stop, NULL);
	sigaction(SIGINT, &stop, NULL);
	sigaction(SIGALRM, &stop, NULL); /* its own timeout */
	if (sysctls) {
		int err = protected_sysctls_hold_for_children();

		if (err != 0) {
			printf("SKIP: the fs.protected_* sysctls' lock: %s\n",
			       err == ETIMEDOUT ? "it stayed taken (above)" :
						  strerror(err));
			remove_work();
			return 77;
		}
		protected_sysctls_start_timeout();
	}

	pid_t renamers[MAX_RENAMERS];
	unsigned int n_renamers = start_storm(renamers, storm);

	p = probe();
	if (stop_signal) {
		result = -1;
	} else if (p.refusal != 0) {
		printf("SKIP: openat2 fails with %s here: nothing compares "
		       "with the kernel\n", strerror(p.refusal));
		result = 77;
	} else if (p.eagains == 0) {
		printf("FAIL: in %.0f s of storm, none of %lu scoped \"..\" "
		       "lookups answered EAGAIN: the storm proves nothing here\n",
		       p.seconds, p.lookups);
		result = 1;
	} else {
		printf("the storm made %lu of %lu scoped \"..\" lookups answer "
		       "EAGAIN\n", p.eagains, p.lookups);
		started = now();
		result = run_commands(commands, n, seconds);
		report(commands, n, storm, now() - started);
	}
	stop_storm(renamers, n_renamers);
	remove_work();
	if (result < 0) {
		printf("rename-storm: stopped by signal %d%s\n",
		       (int)stop_signal, stop_signal == SIGALRM ?
			       " (TIMEOUT: its own, the wait for the lock not "
			       "counted)" : "");
		signal((int)stop_signal, SIG_DFL);
		raise((int)stop_signal);
	}
	return result;
}
