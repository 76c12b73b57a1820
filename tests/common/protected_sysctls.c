#define _GNU_SOURCE
#include "protected_sysctls.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs that set the values wait here for one another: one run's values
 * or restore must not land in the middle of another's cases. */
#define LOCK_FILE "/tmp/libexecveat-protected-sysctls.lock"

static const char *const files[] = {
	"/proc/sys/fs/protected_symlinks",
	"/proc/sys/fs/protected_regular",
	"/proc/sys/fs/protected_fifos",
};
#define NFILES (sizeof files / sizeof *files)

/* The machine's values as text, ready for a signal handler to write. */
static char saved[NFILES][16];
static size_t saved_len[NFILES];
static volatile sig_atomic_t have_saved;

static int write_value(const char *file, const char *text, size_t len)
{
	int fd = open(file, O_WRONLY | O_CLOEXEC);
	int err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, text, len) != (ssize_t)len)
		err = errno ? errno : EIO;
	close(fd);
	return err;
}

int protected_sysctls_save(void)
{
	int lock = open(LOCK_FILE, O_RDWR | O_CREAT | O_CLOEXEC, 0600);

	/* Held until the process ends: the fd is never closed. A long run
	 * holds it for minutes: say why this one waits. */
	if (lock < 0)
		return errno;
	if (flock(lock, LOCK_EX | LOCK_NB) < 0) {
		printf("waiting for another run to give the fs.protected_* "
		       "sysctls back (%s)\n", LOCK_FILE);
		fflush(stdout);
		if (flock(lock, LOCK_EX) < 0)
			return errno;
	}
	for (size_t i = 0; i < NFILES; i++) {
		int fd = open(files[i], O_RDONLY | O_CLOEXEC);
		ssize_t n = fd < 0 ? -1 : read(fd, saved[i], sizeof saved[i] - 1);
		int err = errno;

		if (fd >= 0)
			close(fd);
		if (n <= 0)
			return n < 0 ? err : EIO;
		saved_len[i] = (size_t)n;
	}
	have_saved = 1;
	/* Writable here (not a read-only /proc/sys)? The value it has. */
	return protected_sysctls_restore();
}

int protected_sysctls_restore(void)
{
	int err = 0;

	if (!have_saved)
		return 0;
	for (size_t i = 0; i < NFILES; i++) {
		int e = write_value(files[i], saved[i], saved_len[i]);

		if (err == 0)
			err = e;
	}
	return err;
}

int protected_sysctls_set(const struct protected_sysctls *values)
{
	const int v[NFILES] = { values->symlinks, values->regular,
				values->fifos };

	for (size_t i = 0; i < NFILES; i++) {
		char text[16];
		int len = snprintf(text, sizeof text, "%d\n", v[i]);
		int err = write_value(files[i], text, (size_t)len);

		if (err != 0)
			return err;
	}
	return 0;
}

/* Who set the handler (its children do not give back), the child it
 * stops first, and what more it undoes. */
static volatile pid_t owner, child_pid;
static void (*volatile undo_also)(void);

static void give_back(int sig)
{
	if (getpid() == owner) {
		if (child_pid > 0) {
			kill(child_pid, SIGKILL);
			waitpid(child_pid, NULL, 0);
		}
		protected_sysctls_restore();
		if (undo_also != NULL)
			undo_also();
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

void protected_sysctls_restore_on_signals(void (*undo)(void))
{
	static const int signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	struct sigaction sa = { .sa_handler = give_back };

	owner = getpid();
	undo_also = undo;
	sigfillset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof signals / sizeof *signals; i++)
		sigaction(signals[i], &sa, NULL);
}

void protected_sysctls_child(pid_t child)
{
	child_pid = child;
}
