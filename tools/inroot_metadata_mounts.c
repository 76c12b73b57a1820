/*
 * inroot's commands for 2.1's functions: a file's metadata (stat, chmod,
 * chown, utimens, xattr), checked device nodes (mknod --checked, in
 * inroot.c's mknod) and mounts (bind, remount-ro, mask). Included by
 * inroot.c, whose helpers (usage_error, failed, next_option,
 * next_long_option, parse_mode, arguments_left, type_name) they use.
 *
 * -n, wherever it is taken: a last symbolic link acted on itself
 * (AT_SYMLINK_NOFOLLOW), not followed inside the root.
 */
#include <sys/xattr.h>

/* "-n" and the options of a command that takes no others: the flags,
 * or -1 after a usage error. */
static int nofollow_flags(int argc, char **argv)
{
	int opt, flags = 0;

	while ((opt = next_option(argc, argv, "+n")) != -1) {
		if (opt != 'n')
			return -1;
		flags = AT_SYMLINK_NOFOLLOW;
	}
	return flags;
}

/*
 * path's file as stat(2) tells it: inroot_statx; or, where the C library
 * declares no struct statx (musl before 1.2.5), fstat of the fd that
 * inroot_resolve (-n: inroot_resolve_nofollow) opens. 0, or -1 with
 * errno.
 */
static int stat_path(int root, const char *path, int flags, struct stat *st)
{
#ifdef STATX_BASIC_STATS
	struct statx stx;

	if (inroot_statx(root, path, flags, STATX_BASIC_STATS, &stx) != 0)
		return -1;
	st->st_mode = stx.stx_mode;
	st->st_uid = stx.stx_uid;
	st->st_gid = stx.stx_gid;
	st->st_size = (off_t)stx.stx_size;
	st->st_mtime = stx.stx_mtime.tv_sec;
	return 0;
#else
	int fd = flags & AT_SYMLINK_NOFOLLOW ? inroot_resolve_nofollow(root, path)
					     : inroot_resolve(root, path);
	int rc, err;

	if (fd < 0)
		return -1;
	rc = fstat(fd, st);
	err = errno;
	close(fd);
	errno = err;
	return rc;
#endif
}

/* One line a file: TYPE MODE UID:GID SIZE MTIME PATH. */
static int cmd_stat(int root, int argc, char **argv)
{
	int flags = nofollow_flags(argc, argv), status = 0;
	struct stat st;

	if (flags < 0)
		return EXIT_USAGE;
	if (!arguments_left(argc, 1, -1))
		return usage_error("stat: missing PATH", NULL);
	for (int i = optind; i < argc; i++) {
		if (stat_path(root, argv[i], flags, &st) != 0) {
			status = failed("stat", argv[i], errno);
			continue;
		}
		printf("%s %04o %u:%u %llu %lld %s\n", type_name(st.st_mode),
		       (unsigned)(st.st_mode & 07777), (unsigned)st.st_uid,
		       (unsigned)st.st_gid, (unsigned long long)st.st_size,
		       (long long)st.st_mtime, argv[i]);
	}
	return status;
}

static int cmd_chmod(int root, int argc, char **argv)
{
	int flags = nofollow_flags(argc, argv), status = 0;
	mode_t mode;

	if (flags < 0)
		return EXIT_USAGE;
	if (!arguments_left(argc, 2, -1))
		return usage_error("chmod: expected MODE PATH...", NULL);
	if (parse_mode(argv[optind], &mode) != 0)
		return EXIT_USAGE;
	for (int i = optind + 1; i < argc; i++)
		if (inroot_chmod(root, argv[i], mode, flags) != 0)
			status = failed("chmod", argv[i], errno);
	return status;
}

/* A numeric id, or "" for one left as it is ((uid_t)-1). */
static int parse_id(const char *text, unsigned int *id)
{
	if (*text == '\0') {
		*id = (unsigned int)-1;
		return 0;
	}
	if (parse_number(text, id) != 0 || *id == (unsigned int)-1)
		return usage_error("bad owner", text);
	return 0;
}

/* UID[:GID] or :GID, numbers only: names would be the host's, not the
 * root's. */
static int parse_owner(char *text, uid_t *uid, gid_t *gid)
{
	char *colon = strchr(text, ':');
	unsigned int u, g = (unsigned int)-1;

	if (colon != NULL)
		*colon = '\0';
	if (parse_id(text, &u) != 0 ||
	    (colon != NULL && parse_id(colon + 1, &g) != 0))
		return EXIT_USAGE;
	*uid = (uid_t)u;
	*gid = (gid_t)g;
	return 0;
}

static int cmd_chown(int root, int argc, char **argv)
{
	int flags = nofollow_flags(argc, argv), status = 0;
	uid_t uid;
	gid_t gid;

	if (flags < 0)
		return EXIT_USAGE;
	if (!arguments_left(argc, 2, -1))
		return usage_error("chown: expected UID[:GID] PATH...", NULL);
	if (parse_owner(argv[optind], &uid, &gid) != 0)
		return EXIT_USAGE;
	for (int i = optind + 1; i < argc; i++)
		if (inroot_chown(root, argv[i], uid, gid, flags) != 0)
			status = failed("chown", argv[i], errno);
	return status;
}

/* -t SECONDS: both times that many seconds after the epoch; else now. */
static int cmd_utimens(int root, int argc, char **argv)
{
	struct timespec times[2];
	const struct timespec *given = NULL;
	int flags = 0, opt, status = 0;
	unsigned int seconds;

	while ((opt = next_option(argc, argv, "+nt:")) != -1) {
		if (opt == 'n') {
			flags = AT_SYMLINK_NOFOLLOW;
		} else if (opt == 't' && parse_number(optarg, &seconds) == 0) {
			times[0] = times[1] = (struct timespec){ seconds, 0 };
			given = times;
		} else {
			return EXIT_USAGE;
		}
	}
	if (!arguments_left(argc, 1, -1))
		return usage_error("utimens: missing PATH", NULL);
	for (int i = optind; i < argc; i++)
		if (inroot_utimens(root, argv[i], given, flags) != 0)
			status = failed("utimens", argv[i], errno);
	return status;
}

/* xattr get: the value as it is, then a newline. */
static int xattr_get(int root, const char *path, const char *name, int flags)
{
	char value[65536];
	ssize_t len = inroot_getxattr(root, path, name, value, sizeof value,
				      flags);

	if (len < 0)
		return failed("xattr get", path, errno);
	printf("%.*s\n", (int)len, value);
	return 0;
}

/* xattr list: a name a line. */
static int xattr_list(int root, const char *path, int flags)
{
	char list[65536];
	ssize_t len = inroot_listxattr(root, path, list, sizeof list, flags);

	if (len < 0)
		return failed("xattr list", path, errno);
	for (ssize_t at = 0; at < len; at += (ssize_t)strlen(list + at) + 1)
		printf("%s\n", list + at);
	return 0;
}

static int cmd_xattr(int root, int argc, char **argv)
{
	static const struct option long_options[] = {
		{ "create", no_argument, NULL, 'C' },
		{ "replace", no_argument, NULL, 'R' },
		{ NULL, 0, NULL, 0 },
	};
	int flags = 0, set_flags = 0, opt, left;
	const char *verb;

	if (argc < 2)
		return usage_error("xattr: expected get, set, list or rm",
				   NULL);
	verb = argv[1];
	/* The verb's own options, after it. */
	argc--;
	argv++;
	while ((opt = next_long_option(argc, argv, "+n", long_options)) !=
	       -1) {
		if (opt == '?')
			return EXIT_USAGE;
		if (opt == 'n')
			flags = AT_SYMLINK_NOFOLLOW;
		else if (opt == 'C' && set_flags == 0)
			set_flags = XATTR_CREATE;
		else if (opt == 'R' && set_flags == 0)
			set_flags = XATTR_REPLACE;
		else
			return usage_error("xattr: one of --create, --replace",
					   NULL);
	}
	left = argc - optind;
	if (strcmp(verb, "get") == 0 && left == 2)
		return xattr_get(root, argv[optind], argv[optind + 1], flags);
	if (strcmp(verb, "list") == 0 && left == 1)
		return xattr_list(root, argv[optind], flags);
	if (strcmp(verb, "rm") == 0 && left == 2)
		return inroot_removexattr(root, argv[optind], argv[optind + 1],
					  flags) == 0 ? 0 :
		       failed("xattr rm", argv[optind], errno);
	if (strcmp(verb, "set") == 0 && left == 3)
		return inroot_setxattr(root, argv[optind], argv[optind + 1],
				       argv[optind + 2],
				       strlen(argv[optind + 2]), set_flags,
				       flags) == 0 ? 0 :
		       failed("xattr set", argv[optind], errno);
	return usage_error("xattr: expected get PATH NAME, set PATH NAME "
			   "VALUE, list PATH or rm PATH NAME", NULL);
}

/* bind's failure, naming the machine's SOURCE where it cannot be
 * reached as the call reaches it (followed), else the target: the
 * call's errno does not say which of the two failed it. The look only
 * chooses the message. */
static int bind_failed(const char *source, const char *target, int err)
{
	int fd = open(source, O_PATH | O_CLOEXEC);

	if (fd < 0)
		return failed("bind", source, errno);
	close(fd);
	return failed("bind", target, err);
}

/* -r: every mount beneath too; --ro: read-only; -i: SOURCE is a path
 * inside ROOT (resolved there), not one of the machine's. */
static int cmd_bind(int root, int argc, char **argv)
{
	static const struct option long_options[] = {
		{ "ro", no_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned int flags = 0;
	int inside = 0, opt, source = AT_FDCWD, rc;
	const char *source_path;

	while ((opt = next_long_option(argc, argv, "+ri", long_options)) !=
	       -1) {
		if (opt == 'r')
			flags |= INROOT_MOUNT_RECURSIVE;
		else if (opt == 'o')
			flags |= INROOT_MOUNT_RDONLY;
		else if (opt == 'i')
			inside = 1;
		else
			return EXIT_USAGE;
	}
	if (!arguments_left(argc, 2, 2))
		return usage_error("bind: expected SOURCE PATH", NULL);
	source_path = argv[optind];
	if (inside) {
		source = inroot_resolve(root, argv[optind]);
		if (source < 0)
			return failed("bind", argv[optind], errno);
		source_path = "";
	}
	rc = inroot_bind(source, source_path, root, argv[optind + 1], flags);
	if (inside) {
		int err = errno;

		close(source);
		errno = err;
	}
	if (rc == 0)
		return 0;
	return inside ? failed("bind", argv[optind + 1], errno) :
			bind_failed(source_path, argv[optind + 1], errno);
}

static int cmd_remount_ro(int root, int argc, char **argv)
{
	unsigned int flags = 0;
	int opt;

	while ((opt = next_option(argc, argv, "+r")) != -1) {
		if (opt != 'r')
			return EXIT_USAGE;
		flags = INROOT_MOUNT_RECURSIVE;
	}
	if (!arguments_left(argc, 1, 1))
		return usage_error("remount-ro: expected PATH", NULL);
	if (inroot_remount_rdonly(root, argv[optind], flags) != 0)
		return failed("remount-ro", argv[optind], errno);
	return 0;
}

static int cmd_mask(int root, int argc, char **argv)
{
	int status = 0;

	if (argc < 2)
		return usage_error("mask: missing PATH", NULL);
	for (int i = 1; i < argc; i++)
		if (inroot_mask(root, argv[i]) != 0)
			status = failed("mask", argv[i], errno);
	return status;
}
