/*
 * A page whose first reader is held until the test lets it go: a
 * userfaultfd (Linux 4.3) watch on a page never touched, which the kernel
 * makes any reader wait on, a system call's copy from user memory
 * included, in any process that shares the memory (a CLONE_VM child).
 * That makes "while the library is in the middle of this" a moment a
 * test can hold for as long as it needs, with no sleep.
 *
 * The structures are the kernel's ABI, declared here for C libraries
 * that ship no kernel headers (musl). A fault in a system call needs
 * CAP_SYS_PTRACE, or vm.unprivileged_userfaultfd=1.
 */
#ifndef TESTS_HELD_PAGE_H
#define TESTS_HELD_PAGE_H

#include <stddef.h>
#include <sys/types.h>

struct held_page {
	int uffd;
	char *page;
	size_t size;
};

/* A new held page. 0, or an errno (ENOSYS, EPERM: not here). */
int held_page_make(struct held_page *hp);

/* Waits up to timeout_ms for a reader; 0 with *reader its thread ID, or
 * ETIMEDOUT, or an errno. */
int held_page_wait(struct held_page *hp, int timeout_ms, pid_t *reader);

/* Fills the page with len bytes of contents (the rest zero) and lets the
 * reader go on. 0, or an errno. */
int held_page_release(struct held_page *hp, const void *contents,
		      size_t len);

void held_page_free(struct held_page *hp);

#endif /* TESTS_HELD_PAGE_H */
