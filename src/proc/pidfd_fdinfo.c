/*
 * Reading a pidfd's pid from /proc, proven first.
 *
 * glibc (2.39 to 2.43 at least) reads the Pid: line of
 * /proc/self/fdinfo/N on trust: a tmpfs at /proc names any pid, and a
 * procfs mounted for another pid namespace (a process that unshared
 * CLONE_NEWPID and kept its parent's /proc) prints pids of that namespace,
 * which in the caller's name other processes or none. The fdinfo is read
 * here only once
 *   - /proc is procfs (fstatfs on the opened directory),
 *   - /proc/self names this process by its own getpid(), and its status
 *     file's NSpid: line holds that one number: the procfs is of this
 *     process's own pid namespace (NSpid lists a pid per namespace from
 *     the procfs's down to the process's own, Linux 4.1+),
 *   - every file read is on the same mount as /proc (mount_id.h: the
 *     mount id, or where nothing tells it, the device): nothing is
 *     bound over a part of the path,
 *   - the fdinfo's ino: line (Linux 5.14+) is the fd's own inode.
 * The fdinfo is this thread's (task/TID), which is the fd table the
 * caller's fd is in even after unshare(CLONE_FILES).
 *
 * No allocation, no stdio, no lazily bound C library function.
 */
#define _GNU_SOURCE /* O_PATH */
#include <stdbool.h>
#include <stdint.h>

#include "../path/mount_id.h"
#include "pidfd_fdinfo.h"
#include "proc_fd_dir.h"
#include "../syscalls/files.h"
#include "../syscalls/process.h"

/* A line of a /proc file that the proof reads: found by its key at the
 * start of a line; the value is what follows the key's tab. */
#define FIELD_VALUE_SIZE 48

struct proc_field {
	const char *key;
	size_t key_length;
	char value[FIELD_VALUE_SIZE];
	size_t value_length;
	bool matching; /* the current line starts with key so far */
	bool found;
	bool truncated; /* the value did not fit: never parsed */
};

#define PROC_FIELD(k) { .key = k, .key_length = sizeof(k) - 1 }

static void field_line_start(struct proc_field *f)
{
	f->matching = !f->found;
	if (!f->found)
		f->value_length = 0, f->truncated = false;
}

static void field_line_end(struct proc_field *f, size_t line_length)
{
	if (f->matching && line_length >= f->key_length)
		f->found = true;
	f->value[f->value_length] = '\0';
}

static void field_take(struct proc_field *f, size_t at, char c)
{
	if (!f->matching)
		return;
	if (at < f->key_length) {
		f->matching = c == f->key[at];
		return;
	}
	if (f->value_length == 0 && (c == '\t' || c == ' '))
		return;
	if (f->value_length + 1 >= sizeof(f->value)) {
		f->truncated = true;
		return;
	}
	f->value[f->value_length++] = c;
}

/* Reads file to its end, a chunk at a time, and fills in the fields. */
static int scan_fields(int file, struct proc_field *fields, size_t n)
{
	char chunk[256];
	size_t at = 0, i;
	long got;

	for (i = 0; i < n; i++)
		field_line_start(&fields[i]);
	while ((got = sys_read(file, chunk, sizeof(chunk))) > 0) {
		for (long k = 0; k < got; k++) {
			if (chunk[k] != '\n') {
				for (i = 0; i < n; i++)
					field_take(&fields[i], at, chunk[k]);
				at++;
				continue;
			}
			for (i = 0; i < n; i++) {
				field_line_end(&fields[i], at);
				field_line_start(&fields[i]);
			}
			at = 0;
		}
	}
	for (i = 0; i < n; i++)
		field_line_end(&fields[i], at);
	return got < 0 ? (int)got : 0;
}

/* Whether the field is a decimal number, optionally negative, and
 * nothing else. */
static bool parse_decimal(const struct proc_field *f, bool negative_allowed,
			  uint64_t *magnitude, bool *negative)
{
	const char *s = f->value;
	int digits = 0;

	if (!f->found || f->truncated)
		return false;
	*negative = negative_allowed && *s == '-';
	if (*negative)
		s++;
	for (*magnitude = 0; *s >= '0' && *s <= '9'; s++) {
		if (++digits > 19)
			return false;
		*magnitude = *magnitude * 10 + (uint64_t)(*s - '0');
	}
	return digits > 0 && *s == '\0';
}

/* Whether file is on the mount of proc (mount_id.h). */
static bool on_mount_of(int proc, int file)
{
	struct mount_id a, b;

	return libexecveat_mount_of(proc, &a) == 0 &&
	       libexecveat_mount_of(file, &b) == 0 &&
	       libexecveat_same_mount(&a, &b);
}

/* Appends s and returns the new end. */
static char *append(char *end, const char *s)
{
	while (*s != '\0')
		*end++ = *s++;
	*end = '\0';
	return end;
}

/* Appends the decimal digits of n (>= 0). */
static char *append_number(char *end, long n)
{
	libexecveat_fd_name(end, (int)n);
	while (*end != '\0')
		end++;
	return end;
}

/* Opens name under proc for reading, proven on proc's mount: the fd, or
 * -errno with *verdict set (-EXDEV: on another mount). */
static int open_proven(int proc, const char *name,
		       enum pidfd_fdinfo_verdict *verdict)
{
	int file = sys_openat(proc, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW, 0);

	if (file < 0) {
		*verdict = PIDFD_FDINFO_UNREADABLE;
		return file;
	}
	if (!on_mount_of(proc, file)) {
		sys_close(file);
		*verdict = PIDFD_FDINFO_OTHER_FILE;
		return -EXDEV;
	}
	return file;
}

/* Whether /proc/self is this process (pid), in a procfs of its own pid
 * namespace; *err, the -errno of a file that could not be read. */
static enum pidfd_fdinfo_verdict judge_self(int proc, long pid, int *err)
{
	char name[FD_NAME_SIZE + sizeof("/status")], link[FD_NAME_SIZE + 1];
	struct proc_field nspid = PROC_FIELD("NSpid:");
	enum pidfd_fdinfo_verdict verdict;
	uint64_t value;
	bool negative;
	long length;
	int status, scanned;

	append_number(name, pid);
	length = sys_readlinkat(proc, "self", link, sizeof(link));
	if (length <= 0 || (size_t)length >= sizeof(link))
		return PIDFD_FDINFO_NOT_SELF;
	link[length] = '\0';
	for (long i = 0; i <= length; i++)
		if (link[i] != name[i])
			return PIDFD_FDINFO_NOT_SELF;
	append(name + length, "/status");
	status = open_proven(proc, name, &verdict);
	if (status < 0) {
		*err = status;
		return verdict;
	}
	scanned = scan_fields(status, &nspid, 1);
	sys_close(status);
	if (scanned < 0) {
		*err = scanned;
		return PIDFD_FDINFO_UNREADABLE;
	}
	/* One number: the procfs's namespace is the process's own. */
	if (!parse_decimal(&nspid, false, &value, &negative) ||
	    value != (uint64_t)pid)
		return PIDFD_FDINFO_NOT_SELF;
	return PIDFD_FDINFO_PID;
}

static enum pidfd_fdinfo_verdict read_fdinfo(int proc, int fd, long pid,
					     const struct stat *by_fd,
					     long *answer, int *err)
{
	char name[3 * FD_NAME_SIZE + sizeof("/task//fdinfo/")], *end;
	struct proc_field fields[] = { PROC_FIELD("ino:"), PROC_FIELD("Pid:") };
	enum pidfd_fdinfo_verdict verdict;
	uint64_t value;
	bool negative;
	int file, scanned;

	end = append(append_number(name, pid), "/task/");
	end = append(append_number(end, sys_gettid()), "/fdinfo/");
	append_number(end, fd);
	file = open_proven(proc, name, &verdict);
	/* Proven so far: a missing entry is an fd closed meanwhile. */
	if (file == -ENOENT)
		return PIDFD_FDINFO_NOT_OPEN;
	if (file < 0) {
		*err = file;
		return verdict;
	}
	scanned = scan_fields(file, fields, 2);
	sys_close(file);
	if (scanned < 0) {
		*err = scanned;
		return PIDFD_FDINFO_UNREADABLE;
	}
	/* Kernels before 5.14 print no ino: line. */
	if (fields[0].found &&
	    (!parse_decimal(&fields[0], false, &value, &negative) ||
	     value != (uint64_t)by_fd->st_ino))
		return PIDFD_FDINFO_OTHER_FILE;
	if (!fields[1].found)
		return PIDFD_FDINFO_NOT_PIDFD;
	if (!parse_decimal(&fields[1], true, &value, &negative) ||
	    value > INT32_MAX)
		return PIDFD_FDINFO_UNREADABLE;
	*answer = negative ? -(long)value : (long)value;
	return PIDFD_FDINFO_PID;
}

enum pidfd_fdinfo_verdict libexecveat_pidfd_fdinfo_pid(int fd, long *pid,
							int *err)
{
	struct stat by_fd;
	struct statfs sfs;
	enum pidfd_fdinfo_verdict verdict;
	long self = sys_getpid();
	int proc;

	*err = 0;
	if (fd < 0 || sys_fstat(fd, &by_fd) != 0)
		return PIDFD_FDINFO_NOT_OPEN;
	proc = sys_openat(AT_FDCWD, "/proc", O_PATH | O_DIRECTORY | O_CLOEXEC,
			  0);
	if (proc == -EMFILE || proc == -ENFILE || proc == -ENOMEM) {
		*err = proc;
		return PIDFD_FDINFO_UNREADABLE;
	}
	if (proc < 0)
		return PIDFD_FDINFO_NO_PROC;
	if (sys_fstatfs(proc, &sfs) != 0 ||
	    sfs.f_type != PROC_SUPER_MAGIC_VALUE)
		verdict = PIDFD_FDINFO_NOT_PROCFS;
	else
		verdict = judge_self(proc, self, err);
	if (verdict == PIDFD_FDINFO_PID)
		verdict = read_fdinfo(proc, fd, self, &by_fd, pid, err);
	sys_close(proc);
	return verdict;
}
