#define _GNU_SOURCE
#include "protected_sysctls.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Runs that set the values wait here for one another: one run's values
 * or restore must not land in the middle of another's cases. The file
 * says who holds it. */
#define LOCK_FILE "/tmp/libexecveat-protected-sysctls.lock"
/* The fd of the lock a parent holds for its children. */
#define LOCK_FD_ENV "PROTECTED_SYSCTLS_LOCK_FD"
#define SAY_EVERY_SECONDS 60

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

static double seconds_since(const struct timespec *then)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - then->tv_sec) +
	       (double)(now.tv_nsec - then->tv_nsec) / 1e9;
}

/* The lock a parent holds for this process, taken as its own (the same
 * open file description: flock grants it at once), or -1. */
static int inherited_lock(void)
{
	const char *env = getenv(LOCK_FD_ENV);
	struct stat held, file;
	char *end;
	long fd;

	if (env == NULL)
		return -1;
	fd = strtol(env, &end, 10);
	if (*end != '\0' || fd < 0 || fd > INT_MAX ||
	    fstat((int)fd, &held) != 0 || stat(LOCK_FILE, &file) != 0 ||
	    held.st_dev != file.st_dev || held.st_ino != file.st_ino ||
	    flock((int)fd, LOCK_EX | LOCK_NB) != 0)
		return -1;
	return (int)fd;
}

/* Who holds the lock: "pid N (name)", as a run of these tests wrote it
 * when it took the lock, which it holds until it ends; where that process
 * is gone, a program that writes nothing there (flock(1), an older run). */
static void holder_of(int lock, char *buf, size_t size)
{
	ssize_t n = pread(lock, buf, size - 1, 0);
	int pid;

	if (n > 0) {
		buf[n] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
	}
	if (n <= 0 || sscanf(buf, "pid %d", &pid) != 1 || pid <= 0 ||
	    (kill(pid, 0) != 0 && errno == ESRCH))
		snprintf(buf, size, "another program");
}

static void say_holder(int lock)
{
	char text[64];
	int len = snprintf(text, sizeof text, "pid %d (%s)\n", (int)getpid(),
			   program_invocation_short_name);

	if (ftruncate(lock, 0) != 0 ||
	    pwrite(lock, text, (size_t)len, 0) != (ssize_t)len)
		return; /* a waiter then says "another program" */
}

static void wake_up(int sig)
{
	(void)sig; /* only interrupts flock */
}

/*
 * Waits for the lock for at most PROTECTED_SYSCTLS_WAIT_SECONDS, saying
 * who holds it once a minute. A blocking flock, which the kernel wakes
 * when the lock is given back, as it wakes the other runs waiting (a
 * waiter that only tried now and then would lose it to them, run after
 * run); a SIGALRM of its own interrupts it each minute. 0, ETIMEDOUT or
 * an errno.
 */
static int wait_for(int lock)
{
	struct sigaction wake = { .sa_handler = wake_up }, before;
	struct timespec started;
	double waited = 0;
	char holder[64];
	int err = 0;

	if (flock(lock, LOCK_EX | LOCK_NB) == 0)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &started);
	sigaction(SIGALRM, &wake, &before); /* no SA_RESTART */
	while (err == 0) {
		holder_of(lock, holder, sizeof holder);
		if (waited >= PROTECTED_SYSCTLS_WAIT_SECONDS) {
			printf("the fs.protected_* sysctls' lock (%s) stayed "
			       "with %s for %d minutes: not waiting longer\n",
			       LOCK_FILE, holder,
			       PROTECTED_SYSCTLS_WAIT_SECONDS / 60);
			err = ETIMEDOUT;
			break;
		}
		printf("waiting for %s to give the fs.protected_* sysctls "
		       "back (%s): %.0f s so far, at most %d minutes, not "
		       "counted in this test's timeout\n", holder, LOCK_FILE,
		       waited, PROTECTED_SYSCTLS_WAIT_SECONDS / 60);
		fflush(stdout);
		alarm(SAY_EVERY_SECONDS);
		if (flock(lock, LOCK_EX) == 0)
			break;
		err = errno == EINTR ? 0 : errno;
		waited = seconds_since(&started);
	}
	alarm(0);
	sigaction(SIGALRM, &before, NULL);
	fflush(stdout);
	return err;
}

/* The lock, held until the process ends (its fd is never closed): the
 * fd, or -errno. */
static int take_lock(void)
{
	int lock = inherited_lock(), err;

	if (lock >= 0)
		return lock;
	lock = open(LOCK_FILE, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (lock < 0)
		return -errno;
	err = wait_for(lock);
	if (err != 0) {
		close(lock);
		return -err;
	}
	say_holder(lock);
	return lock;
}

int protected_sysctls_hold_for_children(void)
{
	char fd_text[16];
	int lock = take_lock();

	if (lock < 0)
		return -lock;
	snprintf(fd_text, sizeof fd_text, "%d", lock);
	if (fcntl(lock, F_SETFD, 0) != 0 || setenv(LOCK_FD_ENV, fd_text, 1) != 0)
		return errno;
	return 0;
}

int protected_sysctls_save(void)
{
	int lock = take_lock();

	if (lock < 0)
		return -lock;
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

/* A number from the environment, or 0. */
static double env_number(const char *name)
{
	const char *text = getenv(name);

	return text == NULL ? 0 : strtod(text, NULL);
}

/* What the handler says when the run's own timeout ends it. */
static char timeout_message[128];
static size_t timeout_message_len;

void protected_sysctls_start_timeout(void)
{
	double seconds = env_number("PROTECTED_SYSCTLS_TIMEOUT");
	double times = env_number("LIBEXECVEAT_TIMEOUT_MULTIPLIER");
	unsigned int whole;

	if (seconds <= 0)
		return;
	if (times > 0)
		seconds *= times;
	whole = (unsigned int)seconds;
	whole += whole < seconds; /* alarm(0) would be none */
	timeout_message_len = (size_t)snprintf(
		timeout_message, sizeof timeout_message,
		"TIMEOUT: the test's own %u s (the wait for the lock not "
		"counted)\n", whole);
	alarm(whole);
}

/* Who set the handler (its children do not give back), the child it
 * stops first, and what more it undoes. */
static volatile pid_t owner, child_pid;
static void (*volatile undo_also)(void);

static void give_back(int sig)
{
	if (getpid() == owner) {
		if (sig == SIGALRM && timeout_message_len > 0 &&
		    write(STDOUT_FILENO, timeout_message,
			  timeout_message_len) < 0)
			timeout_message_len = 0;
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
	static const int signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT,
				       SIGALRM };
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
