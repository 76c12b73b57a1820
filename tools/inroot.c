/*
 * inroot: file operations beneath a root directory, from the shell.
 *
 *   inroot ROOT COMMAND [OPTION...] ARG...
 *
 * Every PATH is resolved inside ROOT as a chroot to ROOT would resolve
 * it: ".." stops at ROOT, an absolute symlink starts again at ROOT. For
 * tools that prepare a container's root file system, which its image
 * may have filled with links. A user of the public header only (inroot.h),
 * like any other program.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "inroot.h"

/* glibc 2.28 and later define these in <stdio.h>; the kernel's values. */
#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

#define EXIT_FAILED 1
#define EXIT_USAGE 2

static const char help_text[] =
	"Usage: inroot ROOT COMMAND [OPTION...] ARG...\n"
	"       inroot --help | --version\n"
	"\n"
	"Make, remove, read and mount files beneath the directory ROOT, every"
	" PATH\n"
	"resolved inside ROOT as in a chroot to it: '..' stops at ROOT and an\n"
	"absolute symbolic link starts again at ROOT.\n"
	"\n"
	"Commands:\n"
	"  mkdir [-p] [-m MODE] PATH...    make directories (-p: with their"
	" parents)\n"
	"  rm [-r | -d] PATH...            remove files (-r: and everything"
	" beneath;\n"
	"                                  -d: an empty directory)\n"
	"  ln [-s] TARGET PATH             make PATH a hard link of TARGET, or"
	" with -s\n"
	"                                  a symbolic link whose text is TARGET\n"
	"  mv [--noreplace | --exchange] SRC DST\n"
	"                                  rename SRC to DST\n"
	"  mknod [-m MODE] PATH p | c MAJOR MINOR | b MAJOR MINOR\n"
	"                                  make a FIFO or a device node\n"
	"  readlink PATH                   print a symbolic link's text\n"
	"  cat PATH...                     copy files to standard output\n"
	"  write [-m MODE] PATH            copy standard input to PATH, made or"
	" truncated\n"
	"  resolve [-n] PATH               print PATH's type, and the name the"
	" kernel\n"
	"                                  gives it where /proc says (-n: a last"
	" symlink\n"
	"                                  itself, not followed)\n"
	"  stat [-n] PATH...               print TYPE MODE UID:GID SIZE MTIME"
	" PATH\n"
	"  chmod [-n] MODE PATH...         change the mode\n"
	"  chown [-n] UID[:GID] PATH...    change the owner (numbers; an empty"
	" one is kept)\n"
	"  utimens [-n] [-t SECONDS] PATH...\n"
	"                                  set both times (default: now); makes"
	" no file\n"
	"  xattr get|set|list|rm [-n] [--create | --replace] PATH [NAME"
	" [VALUE]]\n"
	"                                  read or change extended attributes\n"
	"  mknod --checked ...             the node made, then checked to be"
	" it\n"
	"  bind [-r] [--ro] [-i] SOURCE PATH\n"
	"                                  bind-mount SOURCE (-i: a path inside"
	" ROOT)\n"
	"                                  onto PATH\n"
	"  remount-ro [-r] PATH            make the mount at PATH read-only\n"
	"  mask PATH...                    hide PATH: an empty read-only tmpfs"
	" over a\n"
	"                                  directory, /dev/null over anything"
	" else\n"
	"  (-n: a last symbolic link itself, not followed inside ROOT)\n"
	"\n"
	"Exit status: 0 on success, 1 when an operation fails (a line on"
	" standard\n"
	"error says which and why), 2 for a usage error.\n";

static const char *program = "inroot";

static int usage_error(const char *message, const char *detail)
{
	fprintf(stderr, "%s: %s%s%s (see inroot --help)\n", program, message,
		detail != NULL ? ": " : "", detail != NULL ? detail : "");
	return EXIT_USAGE;
}

/* "inroot: mkdir a/b: No such file or directory", with the errno of the
 * call that failed. */
static int failed(const char *command, const char *path, int err)
{
	fprintf(stderr, "%s: %s %s: %s\n", program, command, path,
		strerror(err));
	return EXIT_FAILED;
}

/*
 * The failure of a call on two names (ln, mv), naming the one that
 * failed: the call's errno does not say which of its two lookups failed
 * it. The existing name is looked up again as the call looks it up (its
 * last component not followed); where that fails too, it is the name
 * that failed, with that lookup's errno; otherwise the new name, with
 * the call's. The look only chooses the message.
 */
static int failed_two(int root, const char *command, const char *existing,
		      const char *new_name, int err)
{
	int fd = inroot_resolve_nofollow(root, existing);

	if (fd < 0)
		return failed(command, existing, errno);
	close(fd);
	return failed(command, new_name, err);
}

/* An octal mode of at most 07777, nothing else. */
static int parse_mode(const char *text, mode_t *mode)
{
	char *end;
	unsigned long value;

	errno = 0;
	value = strtoul(text, &end, 8);
	if (errno != 0 || end == text || *end != '\0' || value > 07777)
		return usage_error("bad mode", text);
	*mode = (mode_t)value;
	return 0;
}

static int parse_number(const char *text, unsigned int *number)
{
	char *end;
	unsigned long value;

	errno = 0;
	value = strtoul(text, &end, 10);
	if (errno != 0 || end == text || *end != '\0' || value > UINT_MAX)
		return usage_error("bad device number", text);
	*number = (unsigned int)value;
	return 0;
}

/* getopt_long over a command's own arguments (argv[0] is its name: main
 * sets optind to 0, which makes glibc and musl start afresh on the new
 * vector); long_options may be NULL. An unknown option or a missing
 * value is reported here, named as it was written, as '?'. */
static int next_long_option(int argc, char **argv, const char *options,
			    const struct option *long_options)
{
	int opt = long_options != NULL ?
			  getopt_long(argc, argv, options, long_options, NULL) :
			  getopt(argc, argv, options);

	if (opt == '?' || opt == ':') {
		char name[3] = { '-', (char)optopt, '\0' };
		const char *written = argv[optind - 1];
		bool is_long = strncmp(written, "--", 2) == 0;

		usage_error(!is_long && strchr(options, optopt) != NULL ?
				    "missing value for" :
				    "unknown option",
			    is_long || optopt == 0 ? written : name);
		return '?';
	}
	return opt;
}

static int next_option(int argc, char **argv, const char *options)
{
	return next_long_option(argc, argv, options, NULL);
}

static int arguments_left(int argc, int want_min, int want_max)
{
	int left = argc - optind;

	return left >= want_min && (want_max < 0 || left <= want_max);
}

static int cmd_mkdir(int root, int argc, char **argv)
{
	int parents = 0, opt, status = 0;
	mode_t mode = 0777;

	while ((opt = next_option(argc, argv, "+pm:")) != -1) {
		if (opt == 'p')
			parents = 1;
		else if (opt != 'm' || parse_mode(optarg, &mode) != 0)
			return EXIT_USAGE;
	}
	if (!arguments_left(argc, 1, -1))
		return usage_error("mkdir: missing PATH", NULL);
	for (int i = optind; i < argc; i++) {
		int fd = parents ? inroot_mkdir_all(root, argv[i], mode)
				 : inroot_mkdir(root, argv[i], mode);

		if (fd < 0)
			status = failed("mkdir", argv[i], errno);
		else if (parents)
			close(fd);
	}
	return status;
}

static int cmd_rm(int root, int argc, char **argv)
{
	int recursive = 0, dir = 0, opt, status = 0;

	while ((opt = next_option(argc, argv, "+rd")) != -1) {
		if (opt == 'r')
			recursive = 1;
		else if (opt == 'd')
			dir = 1;
		else
			return EXIT_USAGE;
	}
	if (!arguments_left(argc, 1, -1))
		return usage_error("rm: missing PATH", NULL);
	for (int i = optind; i < argc; i++) {
		int rc = recursive ? inroot_remove_all(root, argv[i]) :
			 dir	   ? inroot_rmdir(root, argv[i]) :
				     inroot_unlink(root, argv[i]);

		if (rc != 0)
			status = failed("rm", argv[i], errno);
	}
	return status;
}

static int cmd_ln(int root, int argc, char **argv)
{
	int symbolic = 0, opt, rc;

	while ((opt = next_option(argc, argv, "+s")) != -1) {
		if (opt != 's')
			return EXIT_USAGE;
		symbolic = 1;
	}
	if (!arguments_left(argc, 2, 2))
		return usage_error("ln: expected TARGET PATH", NULL);
	/* The text of a symlink is stored as it is; a hard link's target is
	 * a name beneath ROOT, resolved there like PATH. */
	if (symbolic)
		rc = inroot_symlink(root, argv[optind + 1], argv[optind]);
	else
		rc = inroot_hardlink(root, argv[optind + 1], argv[optind]);
	if (rc == 0)
		return 0;
	if (symbolic)
		return failed("ln", argv[optind + 1], errno);
	return failed_two(root, "ln", argv[optind], argv[optind + 1], errno);
}

static int cmd_mv(int root, int argc, char **argv)
{
	static const struct option long_options[] = {
		{ "noreplace", no_argument, NULL, 'N' },
		{ "exchange", no_argument, NULL, 'X' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned int flags = 0;
	int opt;

	while ((opt = next_long_option(argc, argv, "+", long_options)) != -1) {
		if (opt == '?')
			return EXIT_USAGE;
		if (opt == 'N' && flags == 0)
			flags = RENAME_NOREPLACE;
		else if (opt == 'X' && flags == 0)
			flags = RENAME_EXCHANGE;
		else
			return usage_error("mv: one of --noreplace, --exchange",
					   NULL);
	}
	if (!arguments_left(argc, 2, 2))
		return usage_error("mv: expected SRC DST", NULL);
	if (inroot_rename(root, argv[optind], argv[optind + 1], flags) != 0)
		return failed_two(root, "mv", argv[optind], argv[optind + 1],
				  errno);
	return 0;
}

/* "p", or "c"/"b" followed by MAJOR MINOR: the file type and device. */
static int parse_node(int argc, char **argv, mode_t *type, dev_t *dev)
{
	const char *kind = argv[optind + 1];
	unsigned int major = 0, minor = 0;

	if (strcmp(kind, "p") == 0 && argc - optind == 2) {
		*type = S_IFIFO;
	} else if ((strcmp(kind, "c") == 0 || strcmp(kind, "b") == 0) &&
		   argc - optind == 4) {
		if (parse_number(argv[optind + 2], &major) != 0 ||
		    parse_number(argv[optind + 3], &minor) != 0)
			return EXIT_USAGE;
		*type = kind[0] == 'c' ? S_IFCHR : S_IFBLK;
	} else {
		return usage_error("mknod: expected PATH p, or PATH c|b MAJOR "
				   "MINOR", NULL);
	}
	*dev = makedev(major, minor);
	return 0;
}

/* --checked: inroot_mknod_checked, which checks the node made before
 * anything uses it. */
static int cmd_mknod(int root, int argc, char **argv)
{
	static const struct option long_options[] = {
		{ "checked", no_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	mode_t mode = 0666, type;
	int opt, checked = 0, fd;
	dev_t dev;

	while ((opt = next_long_option(argc, argv, "+m:", long_options)) !=
	       -1) {
		if (opt == 'c')
			checked = 1;
		else if (opt != 'm' || parse_mode(optarg, &mode) != 0)
			return EXIT_USAGE;
	}
	if (!arguments_left(argc, 2, 4))
		return usage_error("mknod: expected PATH TYPE", NULL);
	if (parse_node(argc, argv, &type, &dev) != 0)
		return EXIT_USAGE;
	fd = checked ? inroot_mknod_checked(root, argv[optind], type | mode,
					    dev) :
		       inroot_mknod(root, argv[optind], type | mode, dev);
	if (fd < 0)
		return failed("mknod", argv[optind], errno);
	if (checked)
		close(fd);
	return 0;
}

/* Asked again with the whole length the first answer gave, for a link
 * longer than the buffer (PATH_MAX is no limit on a link's text). */
static int cmd_readlink(int root, int argc, char **argv)
{
	size_t size = 256;
	char *text = NULL;
	ssize_t len;

	if (argc != 2)
		return usage_error("readlink: expected PATH", NULL);
	for (;;) {
		char *bigger = realloc(text, size);

		if (bigger == NULL) {
			free(text);
			return failed("readlink", argv[1], ENOMEM);
		}
		text = bigger;
		len = inroot_readlink(root, argv[1], text, size);
		if (len < 0 || (size_t)len <= size)
			break;
		size = (size_t)len;
	}
	if (len < 0) {
		int err = errno;

		free(text);
		return failed("readlink", argv[1], err);
	}
	printf("%.*s\n", (int)len, text);
	free(text);
	return 0;
}

/* Every byte of from onto to; 0, or the errno of the failed read (a
 * positive number) or write (negated, to tell the two apart). */
static int copy_fd(int from, int to)
{
	char buf[65536];
	ssize_t got;

	while ((got = read(from, buf, sizeof(buf))) != 0) {
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		for (ssize_t done = 0; done < got;) {
			ssize_t put = write(to, buf + done, (size_t)(got - done));

			if (put < 0 && errno != EINTR)
				return -errno;
			done += put > 0 ? put : 0;
		}
	}
	return 0;
}

static int copy_status(const char *command, const char *path, int rc)
{
	if (rc == 0)
		return 0;
	return failed(command, rc > 0 ? path : "(output)", rc > 0 ? rc : -rc);
}

static int cmd_cat(int root, int argc, char **argv)
{
	int status = 0;

	if (argc < 2)
		return usage_error("cat: missing PATH", NULL);
	for (int i = 1; i < argc; i++) {
		int fd = inroot_open(root, argv[i], O_RDONLY | O_CLOEXEC);

		if (fd < 0) {
			status = failed("cat", argv[i], errno);
			continue;
		}
		if (copy_status("cat", argv[i], copy_fd(fd, STDOUT_FILENO)))
			status = EXIT_FAILED;
		close(fd);
	}
	return status;
}

static int cmd_write(int root, int argc, char **argv)
{
	mode_t mode = 0666;
	int fd, opt, status;

	while ((opt = next_option(argc, argv, "+m:")) != -1) {
		if (opt != 'm' || parse_mode(optarg, &mode) != 0)
			return EXIT_USAGE;
	}
	if (!arguments_left(argc, 1, 1))
		return usage_error("write: expected PATH", NULL);
	fd = inroot_creat(root, argv[optind], O_WRONLY | O_TRUNC | O_CLOEXEC,
			  mode);
	if (fd < 0)
		return failed("write", argv[optind], errno);
	/* A read error is stdin's; a write error, the file's. */
	status = copy_fd(STDIN_FILENO, fd);
	if (status > 0)
		status = failed("write", "(standard input)", status);
	else if (status < 0)
		status = failed("write", argv[optind], -status);
	if (close(fd) != 0 && status == 0)
		status = failed("write", argv[optind], errno);
	return status;
}

static const char *type_name(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return "regular file";
	case S_IFDIR: return "directory";
	case S_IFLNK: return "symbolic link";
	case S_IFIFO: return "fifo";
	case S_IFCHR: return "character device";
	case S_IFBLK: return "block device";
	case S_IFSOCK: return "socket";
	}
	return "unknown";
}

/* The file's type, then what /proc/self/fd says the fd names: only
 * information for a reader (a /proc may be missing, or not procfs), never
 * used to reach the file. */
static int cmd_resolve(int root, int argc, char **argv)
{
	int nofollow = 0, opt, fd;
	char link[64], name[PATH_MAX];
	struct stat st;
	ssize_t len;

	while ((opt = next_option(argc, argv, "+n")) != -1) {
		if (opt != 'n')
			return EXIT_USAGE;
		nofollow = 1;
	}
	if (!arguments_left(argc, 1, 1))
		return usage_error("resolve: expected PATH", NULL);
	fd = nofollow ? inroot_resolve_nofollow(root, argv[optind])
		      : inroot_resolve(root, argv[optind]);
	if (fd < 0)
		return failed("resolve", argv[optind], errno);
	if (fstat(fd, &st) != 0) {
		int err = errno;

		close(fd);
		return failed("resolve", argv[optind], err);
	}
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	len = readlink(link, name, sizeof(name) - 1);
	if (len > 0)
		printf("%s %.*s\n", type_name(st.st_mode), (int)len, name);
	else
		printf("%s\n", type_name(st.st_mode));
	close(fd);
	return 0;
}

static int is_option(const char *arg)
{
	return arg[0] == '-' && arg[1] != '\0';
}

#include "inroot_metadata_mounts.c"

static const struct command {
	const char *name;
	int (*run)(int root, int argc, char **argv);
} commands[] = {
	{ "mkdir", cmd_mkdir },	    { "rm", cmd_rm },
	{ "ln", cmd_ln },	    { "mv", cmd_mv },
	{ "mknod", cmd_mknod },	    { "readlink", cmd_readlink },
	{ "cat", cmd_cat },	    { "write", cmd_write },
	{ "resolve", cmd_resolve }, { "stat", cmd_stat },
	{ "chmod", cmd_chmod },	    { "chown", cmd_chown },
	{ "utimens", cmd_utimens }, { "xattr", cmd_xattr },
	{ "bind", cmd_bind },	    { "remount-ro", cmd_remount_ro },
	{ "mask", cmd_mask },
};

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	}
	return NULL;
}

int main(int argc, char **argv)
{
	const struct command *command;
	int root, status;

	if (argc >= 2 && strcmp(argv[1], "--help") == 0) {
		fputs(help_text, stdout);
		return 0;
	}
	if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
		printf("inroot (libexecveat) %s\n", INROOT_VERSION);
		return 0;
	}
	/* Options follow the command, whose they are: a ROOT whose name
	 * begins with '-' is written ./-x. */
	if (argc >= 2 && is_option(argv[1]))
		return usage_error("unknown option", argv[1]);
	if (argc >= 3 && is_option(argv[2]))
		return usage_error("unknown option", argv[2]);
	if (argc < 3)
		return usage_error("expected ROOT COMMAND", NULL);
	command = find_command(argv[2]);
	if (command == NULL)
		return usage_error("unknown command", argv[2]);
	root = open(argv[1], O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root < 0) {
		fprintf(stderr, "%s: %s: %s\n", program, argv[1],
			strerror(errno));
		return EXIT_FAILED;
	}
	/* The command's arguments, its name first, as getopt wants them;
	 * getopt reports its own usage errors. */
	optind = 0;
	opterr = 0;
	status = command->run(root, argc - 2, argv + 2);
	close(root);
	return status;
}
