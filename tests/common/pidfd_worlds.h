/*
 * The worlds pidfd_getpid is tested in, made with system calls alone so
 * that every C library's suites (and the compat roots' programs) can use
 * them. Each returns 0 or an errno; call them in a forked child.
 */
#ifndef TESTS_PIDFD_WORLDS_H
#define TESTS_PIDFD_WORLDS_H

/* A pid no process here has: what the fake /proc names. */
#define PIDFD_DECOY 4194303

/* The PIDFD_GET_INFO ioctl (Linux 6.13) fails with err, as a kernel
 * before it answers (ENOTTY) or a policy refuses; every other ioctl
 * command passes. */
int refuse_pidfd_get_info(int err);

/* The raw ioctl: the pid it answers for fd, or -1 with errno. */
long raw_pidfd_get_info(int fd);

/*
 * A tmpfs over /proc (in a private mount namespace) that passes every
 * proof but procfs for fd: self is this process, its status's NSpid: is
 * this pid alone, and the process's and this thread's fdinfo of fd have
 * fd's own ino: line and a Pid: line naming PIDFD_DECOY.
 */
int fake_proc_naming_decoy(int fd);

#endif /* TESTS_PIDFD_WORLDS_H */
