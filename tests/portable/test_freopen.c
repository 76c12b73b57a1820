/*
 * freopen(NULL, mode, stream) through the library, in the worlds it exists
 * for: /proc real, hidden, a fake one whose self/fd/N all name a victim
 * file, or another process's fd directory bound over ours. Libc-neutral
 * (no cmocka, no libseccomp): musl and the qemu-user builds run it too.
 *
 *   test-freopen answers|glibc-beside|preload PROBE PROBE64 LIBRARY
 *
 * Built as meson builds C it calls the library's freopen64; built with
 * -U_FILE_OFFSET_BITS, its freopen.
 *
 * answers: a table of streams (opened with one mode, reopened with
 *   another, as fopen or as stdin), each with what the stream must then
 *   be: its errno, the file's size, O_APPEND and close-on-exec, what it
 *   reads and where a write lands. With a proven /proc it is glibc's
 *   answer (the call reopens by name); without one, the open file kept:
 *   a mode asking for another access than the stream's is EBADF with the
 *   stream kept, on the same file. In every world nothing is ever read
 *   from the victim, nor written to it.
 * glibc-beside: glibc's own freopen in the same worlds: without /proc it
 *   returns NULL (2.36: ENOENT; 2.31: EFAULT) and the stream is gone;
 *   under the fake /proc it reads the victim; the library reads the file.
 * preload: PROBE and PROBE64 (built without the library, the second with
 *   -D_FILE_OFFSET_BITS=64, so calling freopen64) reopen their stdin
 *   "rb" and copy it out, with LIBRARY preloaded and, beside, without.
 *
 * Needs root (the worlds are made with mount namespaces). Prints one line
 * per case and "N passed, N failed"; exits 1 if any failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef __GLIBC__
#include <dlfcn.h>
#endif

#include "kernel_env.h"
#include "proc_mounts.h"
#include "proc_world.h"
#include "verdicts.h"

#define CONTENT "hello world"
#define VICTIM "VICTIM"

static char top[] = "/tmp/test-freopen.XXXXXX";
static char file_path[sizeof(top) + 8], victim_path[sizeof(top) + 8];

static const struct world {
	const char *name;
	enum proc_world proc;
} worlds[] = {
	{ "/proc", PROC_REAL },
	{ "no /proc", PROC_NONE },
	{ "fake /proc naming the victim", PROC_FAKE },
	{ "another process's fd directory", PROC_BORROWED },
};
#define WORLDS (sizeof(worlds) / sizeof(worlds[0]))

/* What the stream is after the call. */
struct outcome {
	int err;           /* freopen's errno; 0: it returned the stream */
	long size;         /* the file's size right after the call */
	bool append;       /* O_APPEND on the stream's fd */
	bool cloexec;      /* FD_CLOEXEC on the stream's fd */
	const char *reads; /* what five bytes of reading give; NULL: nothing */
	const char *file;  /* the file after a write of "W" (NULL: none) */
};

/*
 * A row: the stream opened with open_mode ("stdin": the file as fd 0 and
 * stdin), a byte read or written first, reopened with mode. kept is the
 * answer without a proven /proc; by_name glibc's, with one (NULL: as
 * kept).
 */
struct row {
	const char *name;
	const char *open_mode;
	const char *mode;
	struct outcome kept;
	const struct outcome *by_name;
};

/* glibc's answers where they differ, measured with glibc 2.36. */
static const struct outcome r_to_rplus = { 0, 11, false, false, "hello",
					   "helloWworld" };
static const struct outcome r_to_w = { 0, 0, false, false, NULL, "W" };
static const struct outcome rplus_to_r = { 0, 11, false, false, "hello",
					   NULL };
static const struct outcome w_to_a = { 0, 3, true, false, NULL, "abcW" };
static const struct outcome a_to_w = { 0, 0, false, false, NULL, "W" };
/* musl 1.2.3's reopen by name (a new fopen, dup'd over the fd) clears
 * close-on-exec without "e"; glibc 2.36's keeps it. */
#ifdef __GLIBC__
#define BY_NAME_KEEPS_CLOEXEC NULL
#else
static const struct outcome r_to_r_cloexec_cleared = { 0, 11, false, false,
						       "hello", NULL };
#define BY_NAME_KEEPS_CLOEXEC (&r_to_r_cloexec_cleared)
#endif

static const struct row rows[] = {
	/* The same access: every world gives the reopen's answer, the
	 * stream at its start, its file's flags as the mode says. */
	{ "r_reads_from_the_start", "r", "r",
	  { 0, 11, false, false, "hello", NULL }, NULL },
	{ "rb_reads_from_the_start", "r", "rb",
	  { 0, 11, false, false, "hello", NULL }, NULL },
	{ "re_sets_close_on_exec", "r", "re",
	  { 0, 11, false, true, "hello", NULL }, NULL },
	{ "r_keeps_close_on_exec", "re", "r",
	  { 0, 11, false, true, "hello", NULL }, BY_NAME_KEEPS_CLOEXEC },
	{ "rx_is_r", "r", "rx",
	  { 0, 11, false, false, "hello", NULL }, NULL },
	{ "stdin_rb_reads_from_the_start", "stdin", "rb",
	  { 0, 11, false, false, "hello", NULL }, NULL },
	{ "stdout_w_truncates", "stdout", "w",
	  { 0, 0, false, false, NULL, "W" }, NULL },
	{ "w_truncates", "w", "w",
	  { 0, 0, false, false, NULL, "W" }, NULL },
	{ "a_appends", "a", "a",
	  { 0, 14, true, false, NULL, CONTENT "abcW" }, NULL },
	{ "wplus_truncates", "r+", "w+",
	  { 0, 0, false, false, "", "W" }, NULL },
	{ "rplus_reads_and_writes_from_the_start", "r+", "r+",
	  { 0, 11, false, false, "hello", "helloWworld" }, NULL },
	{ "we_sets_close_on_exec", "w", "we",
	  { 0, 0, false, true, NULL, "W" }, NULL },
	/* "x" on a file that exists: EEXIST; the library keeps the stream
	 * (glibc closes it: its answer is not compared here). */
	{ "wx_is_eexist", "w", "wx",
	  { EEXIST, 3, false, false, NULL, "abcW" }, NULL },
	/* Another access: only a reopen by name can give it. */
	{ "rplus_on_r_stream", "r", "r+",
	  { EBADF, 11, false, false, "ello ", NULL }, &r_to_rplus },
	{ "w_on_r_stream", "r", "w",
	  { EBADF, 11, false, false, "ello ", NULL }, &r_to_w },
	{ "r_on_rplus_stream", "r+", "r",
	  { EBADF, 11, false, false, "ello ", "hello World" }, &rplus_to_r },
	/* Whether the stream appends is stdio's own too: O_APPEND changed
	 * under it would leave stdio writing and telling positions as
	 * before. */
	{ "a_on_w_stream", "w", "a",
	  { EBADF, 3, false, false, NULL, "abcW" }, &w_to_a },
	{ "w_on_a_stream", "a", "w",
	  { EBADF, 14, true, false, NULL, CONTENT "abcW" }, &a_to_w },
	{ "bad_mode_is_einval", "r", "z",
	  { EINVAL, 11, false, false, "ello ", NULL }, NULL },
	{ NULL, NULL, NULL, { 0, 0, false, false, NULL, NULL }, NULL },
};

struct report {
	int made;       /* 0, or the errno of making the world */
	int returned;   /* 1: the stream, 0: NULL, -1: another pointer */
	int err;
	int errno_kept; /* errno as it was before, after a success */
	int fd_closed;  /* the stream's fd is closed (glibc's failure) */
	int fds_moved;  /* the lowest free fd is not what it was */
	int open_failed; /* the stream could not be made: its errno */
	long size;
	int append, cloexec;
	char reads[16];
	int read_victim;
	char file[32];
	char victim[16];
};

static struct report *shared;
static int not_here;

typedef FILE *freopen_fn(const char *, const char *, FILE *);

/* ---- the fixture ---- */

static int write_file(const char *path, const char *content)
{
	FILE *f = fopen(path, "w");

	if (f == NULL)
		return -1;
	fputs(content, f);
	return fclose(f);
}

static void read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, size - 1);

	buf[n < 0 ? 0 : n] = '\0';
	if (fd >= 0)
		close(fd);
}

/* Every fd the stream could have names the victim. */
static int make_world(enum proc_world proc, pid_t owner)
{
	return make_proc_world(proc, 0, victim_path, owner);
}

/* ---- one call, in a child ---- */

static FILE *open_stream(const char *open_mode)
{
	FILE *f;
	int fd;

	if (strcmp(open_mode, "stdin") != 0 &&
	    strcmp(open_mode, "stdout") != 0) {
		f = fopen(file_path, open_mode);
		/* The stream is not at its start, and a write stream has
		 * written. */
		if (f != NULL && open_mode[0] == 'r')
			getc(f);
		else if (f != NULL)
			fputs("abc", f), fflush(f);
		return f;
	}
	if (strcmp(open_mode, "stdout") == 0) {
		fd = open(file_path, O_WRONLY | O_TRUNC);
		if (fd < 0 || dup2(fd, STDOUT_FILENO) != STDOUT_FILENO)
			return NULL;
		close(fd);
		fputs("abc", stdout);
		fflush(stdout);
		return stdout;
	}
	fd = open(file_path, O_RDONLY);
	if (fd < 0 || dup2(fd, STDIN_FILENO) != STDIN_FILENO)
		return NULL;
	close(fd);
	getc(stdin);
	return stdin;
}

/* The lowest fd number not open: an fd left open by a call moves it. */
static int lowest_free_fd(void)
{
	int fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 0);

	if (fd >= 0)
		close(fd);
	return fd;
}

static void observe(FILE *f, int fd)
{
	struct stat st;
	int flags = fcntl(fd, F_GETFL);

	shared->fd_closed = flags < 0;
	shared->size = fstat(fd, &st) == 0 ? (long)st.st_size : -1;
	shared->append = flags >= 0 && (flags & O_APPEND) != 0;
	shared->cloexec = (fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0;
	if (shared->fd_closed)
		return;
	/* What the stream reads, where stdio lets it. */
	size_t n = fread(shared->reads, 1, 5, f);
	shared->reads[n] = '\0';
	shared->read_victim = strstr(shared->reads, "VICT") != NULL;
	clearerr(f);
	fseek(f, 0, SEEK_CUR); /* C asks for it between a read and a write */
	if (fputs("W", f) >= 0)
		fflush(f);
	clearerr(f);
}

static void run_call(const struct row *r, freopen_fn *call)
{
	FILE *f = open_stream(r->open_mode), *got;
	int fd, free_fd = lowest_free_fd();

	if (f == NULL) {
		shared->open_failed = errno ? errno : EIO;
		return;
	}
	fd = fileno(f);
	errno = ENOTTY; /* a value no success may change */
	got = call(NULL, r->mode, f);
	shared->returned = got == f ? 1 : got == NULL ? 0 : -1;
	shared->err = got == NULL ? errno : 0;
	shared->errno_kept = got == NULL || errno == ENOTTY;
	shared->fds_moved = lowest_free_fd() != free_fd;
	observe(f, fd);
}

/* Runs the row in a child in world w; 0, or -1 if the child died. */
static int run_row(const struct row *r, const struct world *w,
		   freopen_fn *call, pid_t owner)
{
	pid_t pid;
	int status;

	if (write_file(file_path, CONTENT) != 0 ||
	    write_file(victim_path, VICTIM) != 0)
		return -1;
	memset(shared, 0, sizeof(*shared));
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		shared->made = make_world(w->proc, owner);
		if (shared->made == 0)
			run_call(r, call);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return -1;
	read_file(file_path, shared->file, sizeof(shared->file));
	read_file(victim_path, shared->victim, sizeof(shared->victim));
	return 0;
}

/* ---- verdicts ---- */


/* The last run against o; the victim untouched and never read. */
static bool judge(const struct outcome *o, char *detail, size_t size)
{
	const char *reads = o->reads ? o->reads : "";

	if (shared->open_failed)
		snprintf(detail, size, "the stream could not be opened: %s",
			 strerror(shared->open_failed));
	else if (shared->read_victim || strcmp(shared->victim, VICTIM) != 0)
		snprintf(detail, size, "the victim was read or written "
			 "(read '%s', victim '%s')", shared->reads,
			 shared->victim);
	else if (shared->returned != (o->err == 0) ||
		 (o->err != 0 && shared->err != o->err))
		snprintf(detail, size, "returned %s (%s), expected %s",
			 shared->returned ? "the stream" : "NULL",
			 strerror(shared->err),
			 o->err ? strerror(o->err) : "the stream");
	else if (!shared->errno_kept)
		snprintf(detail, size, "errno changed on success");
	else if (shared->fd_closed)
		snprintf(detail, size, "the stream's fd is closed");
	else if (shared->fds_moved)
		snprintf(detail, size, "an fd was left open, or closed");
	else if (shared->size != o->size)
		snprintf(detail, size, "size %ld, expected %ld", shared->size,
			 o->size);
	else if (shared->append != o->append ||
		 shared->cloexec != o->cloexec)
		snprintf(detail, size, "O_APPEND %d close-on-exec %d, "
			 "expected %d %d", shared->append, shared->cloexec,
			 o->append, o->cloexec);
	else if (strcmp(shared->reads, reads) != 0)
		snprintf(detail, size, "read '%s', expected '%s'",
			 shared->reads, reads);
	else if (strcmp(shared->file, o->file ? o->file : CONTENT) != 0)
		snprintf(detail, size, "the file holds '%s', expected '%s'",
			 shared->file, o->file ? o->file : CONTENT);
	else
		return true;
	return false;
}

/* With a name, the C library's freopen through the library's: the named
 * file opened, or its error, errno kept on success. */
static void run_names(void)
{
	char got[16] = "";
	FILE *f = fopen(file_path, "r"), *r;
	size_t n;

	errno = ENOTTY;
	r = f ? freopen(victim_path, "r", f) : NULL;
	n = r ? fread(got, 1, sizeof(got) - 1, r) : 0;
	got[n] = '\0';
	verdict(r == f && errno == ENOTTY && strcmp(got, VICTIM) == 0,
		"a_name_is_opened", "/proc", got);
	if (r != NULL)
		fclose(r);
	f = fopen(file_path, "r");
	r = f ? freopen("/nonexistent/name", "r", f) : f;
	verdict(f != NULL && r == NULL && errno == ENOENT,
		"a_missing_name_is_enoent", "/proc", strerror(errno));
}

static bool proven_proc(const struct world *w)
{
	return w->proc == PROC_REAL;
}

static int run_answers(void)
{
	pid_t owner = start_waiting_child();
	char detail[256];

	if (kernel_reopens_empty_path())
		printf("this kernel reopens an fd by O_EMPTYPATH: a mode with "
		       "the stream's own access needs no name\n");
	for (const struct row *r = rows; r->name != NULL; r++) {
		for (size_t i = 0; i < WORLDS; i++) {
			const struct world *w = &worlds[i];
			const struct outcome *o = proven_proc(w) && r->by_name
						  ? r->by_name : &r->kept;

			if (run_row(r, w, freopen, owner) != 0) {
				verdict(false, r->name, w->name,
					"the child died");
				continue;
			}
			if (shared->made != 0) {
				not_here++;
				continue;
			}
			verdict(judge(o, detail, sizeof(detail)), r->name,
				w->name, detail);
		}
	}
	kill(owner, SIGKILL);
	waitpid(owner, NULL, 0);
	run_names();
	if (not_here != 0)
		printf("not here: %d row-world pairs (no mount namespace)\n",
		       not_here);
	return 0;
}

#ifdef __GLIBC__
static int run_glibc_beside(void)
{
	/* glibc's no /proc, glibc's fake /proc: its answers, then ours. */
	const struct row *r = &rows[4]; /* stdin, "rb" */
	void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
	freopen_fn *glibc_freopen = libc ? (freopen_fn *)dlsym(libc, "freopen")
					 : NULL;
	char detail[256];

	if (glibc_freopen == NULL) {
		printf("SKIP: glibc's freopen not found\n");
		return 77;
	}
	if (run_row(r, &worlds[PROC_NONE], glibc_freopen, 0) != 0 ||
	    shared->made != 0) {
		printf("SKIP: no mount namespace here\n");
		return 77;
	}
	/* ENOENT from glibc 2.36, EFAULT from 2.31 (measured). */
	snprintf(detail, sizeof(detail), "returned %s (%s), fd %s",
		 shared->returned ? "the stream" : "NULL",
		 strerror(shared->err), shared->fd_closed ? "closed" : "open");
	verdict(shared->returned == 0 && shared->fd_closed,
		"glibc_loses_the_stream", "no /proc", detail);
	run_row(r, &worlds[PROC_NONE], freopen, 0);
	verdict(judge(&r->kept, detail, sizeof(detail)),
		"library_keeps_the_stream", "no /proc", detail);

	run_row(r, &worlds[PROC_FAKE], glibc_freopen, 0);
	verdict(shared->returned == 1 && shared->read_victim,
		"glibc_reads_the_victim", "fake /proc",
		"glibc's freopen did not read the victim");
	run_row(r, &worlds[PROC_FAKE], freopen, 0);
	verdict(judge(&r->kept, detail, sizeof(detail)),
		"library_reads_the_file", "fake /proc", detail);
	return 0;
}
#else
static int run_glibc_beside(void)
{
	printf("SKIP: glibc's freopen is compared only where the C library "
	       "is glibc\n");
	return 77;
}
#endif

/* ---- unmodified programs, preloaded ---- */

/* PROBE's output with its stdin the file, in world w, LIBRARY preloaded
 * or not; the exit status, or -1. */
static int run_probe(const char *probe, const char *name,
		     const char *library, enum proc_world proc, char *out,
		     size_t size)
{
	int pipe_fds[2];
	pid_t pid;
	int status;
	ssize_t n, got = 0;

	if (pipe(pipe_fds) != 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		int fd = open(file_path, O_RDONLY);
		char preload[sizeof("LD_PRELOAD=") + 4096];
		char *argv[] = { (char *)probe, (char *)name, NULL };
		char *envp[] = { preload, NULL };

		snprintf(preload, sizeof(preload), "LD_PRELOAD=%s",
			 library ? library : "");
		if (fd < 0 || dup2(fd, 0) != 0 || dup2(pipe_fds[1], 1) != 1 ||
		    make_world(proc, 0) != 0)
			_exit(99);
		execve(probe, argv, library ? envp : envp + 1);
		_exit(98);
	}
	close(pipe_fds[1]);
	while (pid > 0 && got < (ssize_t)size - 1 &&
	       (n = read(pipe_fds[0], out + got, size - 1 - (size_t)got)) > 0)
		got += n;
	out[got] = '\0';
	close(pipe_fds[0]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int run_preload(char **argv)
{
	static const struct {
		enum proc_world proc;
		const char *name;
	} pw[] = {
		{ PROC_NONE, "no /proc" },
		{ PROC_FAKE, "fake /proc naming the victim" },
		{ PROC_REAL, "/proc" },
	};
	char out[256], detail[300], library[4096];
	int status;

	/* A name without a slash would be looked for in the library path. */
	if (realpath(argv[2], library) == NULL) {
		perror(argv[2]);
		return 2;
	}
	if (write_file(file_path, CONTENT) != 0 ||
	    write_file(victim_path, VICTIM) != 0)
		return 2;
	for (int p = 0; p < 2; p++) {
		const char *probe = argv[p];

		for (size_t i = 0; i < sizeof(pw) / sizeof(pw[0]); i++) {
			status = run_probe(probe, NULL, library, pw[i].proc,
					   out, sizeof(out));
			if (status == 99) {
				not_here++;
				continue;
			}
			snprintf(detail, sizeof(detail), "exit %d, printed '%s'",
				 status, out);
			verdict(status == 0 && strcmp(out, CONTENT) == 0,
				p ? "preloaded_freopen64_reads_the_file"
				  : "preloaded_freopen_reads_the_file",
				pw[i].name, detail);
#ifdef __GLIBC__
			/* glibc's own answer beside, where it is wrong. */
			if (pw[i].proc == PROC_REAL)
				continue;
			status = run_probe(probe, NULL, NULL, pw[i].proc, out,
					   sizeof(out));
			snprintf(detail, sizeof(detail), "exit %d, printed '%s'",
				 status, out);
			verdict(pw[i].proc == PROC_NONE
				? status != 0 && out[0] == '\0'
				: status == 0 && strcmp(out, VICTIM) == 0,
				pw[i].proc == PROC_NONE ? "glibc_loses_stdin"
							: "glibc_reads_the_victim",
				pw[i].name, detail);
#endif
		}
	}
	/* A name: the C library's freopen, reached through the library. */
	for (int p = 0; p < 2; p++) {
		status = run_probe(argv[p], victim_path, library, PROC_REAL,
				   out, sizeof(out));
		snprintf(detail, sizeof(detail), "exit %d, printed '%s'",
			 status, out);
		verdict(status == 0 && strcmp(out, VICTIM) == 0,
			p ? "preloaded_freopen64_opens_a_name"
			  : "preloaded_freopen_opens_a_name", "/proc", detail);
	}
	if (not_here != 0)
		printf("not here: %d worlds (no mount namespace)\n", not_here);
	return 0;
}

int main(int argc, char **argv)
{
	char cmd[sizeof(top) + 16];
	int result;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc < 2 || (strcmp(argv[1], "preload") == 0 && argc != 5)) {
		fprintf(stderr, "usage: %s answers|glibc-beside|"
			"preload PROBE PROBE64 LIBRARY\n", argv[0]);
		return 2;
	}
	if (getuid() != 0) {
		printf("SKIP: needs root (mount namespaces)\n");
		return 77;
	}
	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED || mkdtemp(top) == NULL) {
		perror("fixture");
		return 2;
	}
	snprintf(file_path, sizeof(file_path), "%s/file", top);
	snprintf(victim_path, sizeof(victim_path), "%s/victim", top);
	if (strcmp(argv[1], "answers") == 0)
		result = run_answers();
	else if (strcmp(argv[1], "glibc-beside") == 0)
		result = run_glibc_beside();
	else if (strcmp(argv[1], "preload") == 0)
		result = run_preload(argv + 2);
	else
		result = 2;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", top);
	if (system(cmd) != 0 && result == 0)
		result = 1;
	if (result != 0)
		return result;
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0 || passed == 0;
}
