/*
 * The control: the operations done the naive way, "resolve, then act",
 * which the same storm must make escape, or the race proves nothing.
 *
 * NAIVE_STRING resolves in userspace to a string (lstat each component,
 * readlink and splice each link, an absolute one from /root again, ".."
 * dropped from the string and never above /root), then acts on that
 * string with mkdir(), unlink(), rename()... The kernel looks the string
 * up again: a directory that became a link in between is followed.
 *
 * NAIVE_WALK walks by fds, each name opened O_NOFOLLOW in the directory
 * it holds, links spliced the same way, and asks the kernel for ".."
 * (openat(fd, "..")), counting levels to stop at the root; then acts
 * with the *at call on the directory it holds. A directory moved out
 * while the walk is in it has a new "..".
 *
 * Both pause where their flaw lies (between the string's last look and
 * the act, before the kernel's ".."), as a process preempted there on a
 * busy machine would: the control must escape whatever the machine's
 * load, and the storm must be there when they look again.
 *
 * Where naive_at_flaw is set, it is called there instead of the pause:
 * a test that makes the attacker's move right there sees the escape
 * every time.
 *
 * Each returns 0, or -1 with errno set. The walk's parent is always
 * resolved inside the chroot this runs in (top), never on the machine.
 */
#ifndef TESTS_INROOT_RACE_NAIVE_H
#define TESTS_INROOT_RACE_NAIVE_H

enum naive_kind { NAIVE_STRING, NAIVE_WALK, NAIVE_KINDS };

extern void (*naive_at_flaw)(void);

int naive_mkdir(enum naive_kind k, int root, const char *path,
		const char *unused);
int naive_mkdir_all(enum naive_kind k, int root, const char *path,
		    const char *unused);
int naive_symlink(enum naive_kind k, int root, const char *path,
		  const char *target);
int naive_creat(enum naive_kind k, int root, const char *path,
		const char *unused);
int naive_unlink(enum naive_kind k, int root, const char *path,
		 const char *unused);
int naive_remove_all(enum naive_kind k, int root, const char *path,
		     const char *unused);
int naive_rename(enum naive_kind k, int root, const char *src,
		 const char *dst);
int naive_hardlink(enum naive_kind k, int root, const char *path,
		   const char *target);
/* 2.1's: call names what is done to path ("chmod", "chown",
 * "utimens", "setxattr", "mknod"; "bind" of /root/a/bsrc, "mask" with
 * an empty tmpfs). */
int naive_metadata(enum naive_kind k, int root, const char *path,
		   const char *call);
int naive_mounts(enum naive_kind k, int root, const char *path,
		 const char *call);

#endif /* TESTS_INROOT_RACE_NAIVE_H */
