/*
 * fexec: run a program through libexecveat from the shell.
 *
 *   fexec [--nofollow] [--at DIR] PATH -- ARGV0 [ARG...]
 *   fexec --fd N -- ARGV0 [ARG...]
 *   fexec --check [--nofollow] [--at DIR] PATH
 *   fexec --check --fd N
 *   fexec --probe
 *   fexec --help | --version
 *
 * A user of the public header only, like any other program.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "execveat.h"
#include "exit_status.h"
#include "probe.h"

enum mode { RUN_PATH, RUN_FD, PROBE, HELP, VERSION };

struct invocation {
	enum mode mode;
	bool nofollow;
	bool check;         /* --check: AT_EXECVE_CHECK, execute nothing */
	const char *at_dir; /* NULL: the current directory */
	const char *path;
	int fd;
	char **argv; /* the new program's, from ARGV0 on */
};

static const char help_text[] =
	"Usage:\n"
	"  fexec [--nofollow] [--at DIR] PATH -- ARGV0 [ARG...]\n"
	"  fexec --fd N -- ARGV0 [ARG...]\n"
	"  fexec --check [--nofollow] [--at DIR] PATH\n"
	"  fexec --check --fd N\n"
	"  fexec --probe\n"
	"  fexec --help | --version\n"
	"\n"
	"Run a program with execveat(2) or fexecve(3) from libexecveat.\n"
	"\n"
	"  PATH          run PATH with execveat(2), relative to DIR; PATH is\n"
	"                not looked up in $PATH\n"
	"  --at DIR      resolve PATH against DIR (default: the current"
	" directory)\n"
	"  --nofollow    refuse PATH if it is a symbolic link\n"
	"  --fd N        run the file open at file descriptor N with"
	" fexecve(3)\n"
	"  --check       ask the kernel whether PATH (or fd N) may be executed"
	" here\n"
	"                (execveat(2) with AT_EXECVE_CHECK, Linux 6.14);"
	" runs nothing\n"
	"  --probe       say which way fexecve(3) would run a program here"
	" and\n"
	"                why the others are refused; runs nothing\n"
	"  ARGV0 ARG...  the new program's argument vector, ARGV0 included,"
	" as given\n"
	"\n"
	"The environment is passed on unchanged.\n"
	"\n"
	"Exit status: the program's own once it runs; 127 if PATH does not"
	" exist;\n"
	"126 if the file cannot be executed; 125 for a usage error or a bad"
	" fd.\n"
	"--check exits 0 when the kernel allows executing the file, 127 or"
	" 126 when not,\n"
	"and 125 when it cannot be asked (before Linux 6.14, or execveat"
	" refused).\n"
	"--probe exits 0 when fexecve(3) has a way to run programs here, 1"
	" when not.\n";

/* "--fd N": a decimal number of an fd, nothing else. */
static bool parse_fd(const char *text, int *fd)
{
	char *end;
	long value;

	if (text[0] < '0' || text[0] > '9')
		return false;
	errno = 0;
	value = strtol(text, &end, 10);
	if (errno != 0 || *end != '\0' || value > INT_MAX)
		return false;
	*fd = (int)value;
	return true;
}

/* Before PATH, anything that begins with '-' is an option ("--" ends
 * them): a PATH whose name begins with '-' is written ./-x. */
static bool is_option(const char *arg)
{
	return arg[0] == '-' && arg[1] != '\0' && strcmp(arg, "--") != 0;
}

static bool is_known_option(const char *arg)
{
	static const char *const known[] = { "--nofollow", "--check", "--at",
					     "--fd", "--probe", "--help",
					     "--version" };

	for (size_t k = 0; k < sizeof(known) / sizeof(known[0]); k++) {
		if (strcmp(arg, known[k]) == 0)
			return true;
	}
	return false;
}

/* The options before PATH (or before "--" with --fd); returns the index of
 * the first argument after them, or -1 after reporting a usage error. */
static int parse_options(int argc, char **argv, struct invocation *inv)
{
	int i = 1;

	for (; i < argc && is_option(argv[i]); i++) {
		const char *opt = argv[i];
		const char *value = i + 1 < argc ? argv[i + 1] : NULL;
		bool takes_value = strcmp(opt, "--at") == 0 ||
				   strcmp(opt, "--fd") == 0;

		if (takes_value && value == NULL) {
			report_usage_error("missing value for", opt);
			return -1;
		}
		if (strcmp(opt, "--nofollow") == 0 && !inv->nofollow) {
			inv->nofollow = true;
		} else if (strcmp(opt, "--check") == 0 && !inv->check) {
			inv->check = true;
		} else if (strcmp(opt, "--at") == 0 && inv->at_dir == NULL) {
			inv->at_dir = value;
			i++;
		} else if (strcmp(opt, "--fd") == 0 && inv->mode != RUN_FD) {
			if (!parse_fd(value, &inv->fd)) {
				report_usage_error("bad fd number", value);
				return -1;
			}
			inv->mode = RUN_FD;
			i++;
		} else {
			/* A known one given twice, or where it does not
			 * belong (--probe, --help and --version stand
			 * alone). */
			report_usage_error(is_known_option(opt) ?
						   "unexpected option" :
						   "unknown option",
					   opt);
			return -1;
		}
	}
	return i;
}

static bool parse_alone(int argc, char **argv, struct invocation *inv)
{
	static const struct {
		const char *name;
		enum mode mode;
	} alone[] = { { "--probe", PROBE }, { "--help", HELP },
		      { "--version", VERSION } };

	for (size_t k = 0; k < sizeof(alone) / sizeof(alone[0]); k++) {
		if (argc == 2 && strcmp(argv[1], alone[k].name) == 0) {
			inv->mode = alone[k].mode;
			return true;
		}
	}
	return false;
}

/* Returns 0, or the exit status of a usage error already reported. */
static int parse_command_line(int argc, char **argv, struct invocation *inv)
{
	int i;

	if (parse_alone(argc, argv, inv))
		return 0;
	i = parse_options(argc, argv, inv);
	if (i < 0)
		return EXIT_USAGE;
	if (inv->mode == RUN_FD && (inv->nofollow || inv->at_dir != NULL))
		return report_usage_error("--fd takes no --at or --nofollow",
					  NULL);
	if (inv->mode == RUN_PATH) {
		if (i >= argc || strcmp(argv[i], "--") == 0)
			return report_usage_error("missing PATH", NULL);
		inv->path = argv[i++];
	}
	if (inv->check)
		return i < argc ? report_usage_error(
					  "--check takes no -- ARGV0", NULL)
				: 0;
	if (i >= argc || strcmp(argv[i], "--") != 0)
		return report_usage_error("expected -- before ARGV0", NULL);
	if (++i >= argc)
		return report_usage_error("missing ARGV0", NULL);
	inv->argv = &argv[i];
	return 0;
}

/* The new program's argv for --check, which executes nothing: the
 * kernel copies it all the same. */
static char *check_argv[] = { "fexec-check", NULL };

static int run_path(const struct invocation *inv)
{
	struct exec_target target = { .name = inv->path, .dirfd = AT_FDCWD,
				      .nofollow = inv->nofollow,
				      .check = inv->check };
	int flags = (inv->nofollow ? AT_SYMLINK_NOFOLLOW : 0) |
		    (inv->check ? AT_EXECVE_CHECK : 0);

	/* Close-on-exec: the program must not inherit a handle on DIR. */
	if (inv->at_dir != NULL) {
		target.dirfd = open(inv->at_dir,
				    O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (target.dirfd < 0) {
			struct exec_target dir = { .name = inv->at_dir,
						   .dirfd = AT_FDCWD };

			return report_exec_failure(&dir, errno);
		}
	}
	if (execveat(target.dirfd, inv->path,
		     inv->check ? check_argv : inv->argv, environ, flags) == 0)
		return 0; /* AT_EXECVE_CHECK: it may be executed */
	return report_exec_failure(&target, errno);
}

/*
 * --check --fd N asks execveat itself: fexecve never passes
 * AT_EXECVE_CHECK, and no /proc fallback can answer for the kernel.
 */
static int run_fd(const struct invocation *inv)
{
	char name[32];
	struct exec_target target = { .name = name, .by_fd = true,
				      .check = inv->check };

	snprintf(name, sizeof(name), "fd %d", inv->fd);
	if (inv->check) {
		if (execveat(inv->fd, "", check_argv, environ,
			     AT_EMPTY_PATH | AT_EXECVE_CHECK) == 0)
			return 0;
	} else {
		fexecve(inv->fd, inv->argv, environ);
	}
	return report_exec_failure(&target, errno);
}

int main(int argc, char **argv)
{
	struct invocation inv = { .mode = RUN_PATH };
	int status = parse_command_line(argc, argv, &inv);

	if (status != 0)
		return status;
	switch (inv.mode) {
	case HELP:
		fputs(help_text, stdout);
		return 0;
	case VERSION:
		printf("fexec (libexecveat) %s\n", FEXEC_VERSION);
		return 0;
	case PROBE:
		return run_probe();
	case RUN_FD:
		return run_fd(&inv);
	case RUN_PATH:
		break;
	}
	return run_path(&inv);
}
