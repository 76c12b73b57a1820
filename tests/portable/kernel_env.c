#define _GNU_SOURCE
#include "kernel_env.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "execveat_refusal.h"
#include "openat2_nr.h"

/*
 * The classic BPF program and its structures, as the kernel defines them
 * in <linux/filter.h> and <linux/seccomp.h> (stable ABI since Linux 3.5).
 * There is no architecture check: the filter only has to refuse the
 * native-ABI calls that this very process makes.
 */
struct bpf_insn_classic {
	uint16_t code;
	uint8_t jump_if_true;
	uint8_t jump_if_false;
	uint32_t k;
};

struct bpf_program_classic {
	unsigned short len;
	struct bpf_insn_classic *insns;
};

#define LOAD_WORD_AT 0x20     /* BPF_LD | BPF_W | BPF_ABS */
#define JUMP_IF_EQUAL 0x15    /* BPF_JMP | BPF_JEQ | BPF_K */
#define RETURN 0x06           /* BPF_RET | BPF_K */
#define SECCOMP_DATA_NR 0     /* offsetof(struct seccomp_data, nr) */
#define SECCOMP_ALLOW 0x7fff0000u
#define SECCOMP_FAIL_WITH 0x00050000u /* | errno */
#define SECCOMP_FILTER_MODE 2

#if defined(__x86_64__) && defined(__ILP32__)
#define CLOSE_RANGE_NR (0x40000000 + 436)
#define FCHMODAT2_NR (0x40000000 + 452)
#else
#define CLOSE_RANGE_NR 436
#define FCHMODAT2_NR 452
#endif

static int load_syscall_filter(uint32_t nr, int err)
{
	struct bpf_insn_classic insns[] = {
		{ LOAD_WORD_AT, 0, 0, SECCOMP_DATA_NR },
		{ JUMP_IF_EQUAL, 0, 1, nr },
		{ RETURN, 0, 0, SECCOMP_FAIL_WITH | ((uint32_t)err & 0xffff) },
		{ RETURN, 0, 0, SECCOMP_ALLOW },
	};
	struct bpf_program_classic program = {
		sizeof(insns) / sizeof(insns[0]), insns
	};

	/* Unprivileged filters need no_new_privs (Linux 3.5). */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) != 0 ||
	    prctl(PR_SET_SECCOMP, (long)SECCOMP_FILTER_MODE,
		  (long)(uintptr_t)&program, 0L, 0L) != 0)
		return errno;
	return 0;
}

int block_execveat(int err)
{
	/* Where execveat is refused so already (qemu-user, an old kernel),
	 * that is the world asked for, and no filter is needed. */
	if (execveat_refusal() == err)
		return 0;
	return load_syscall_filter((uint32_t)SYS_execveat, err);
}

static long raw_openat2(int dirfd, const char *path, const void *how, size_t size)
{
	return syscall(OPENAT2_NR, (long)dirfd, (long)(uintptr_t)path,
		       (long)(uintptr_t)how, (long)size);
}

int openat2_refusal(void)
{
	if (raw_openat2(-1, NULL, NULL, 0) == -1 &&
	    (errno == ENOSYS || errno == EPERM))
		return errno;
	return 0;
}

int block_openat2(int err)
{
	if (openat2_refusal() == err)
		return 0;
	return load_syscall_filter((uint32_t)OPENAT2_NR, err);
}

long raw_close_range(unsigned int first, unsigned int last, unsigned int flags)
{
	return syscall(CLOSE_RANGE_NR, (long)first, (long)last, (long)flags);
}

long raw_fchmodat2(int dirfd, const char *path, unsigned int mode, int flags)
{
	return syscall(FCHMODAT2_NR, (long)dirfd, (long)(uintptr_t)path,
		       (long)mode, (long)flags);
}

/* first > last: a kernel that has close_range says EINVAL, closing
 * nothing. */
int close_range_refusal(void)
{
	if (raw_close_range(2, 1, 0) == -1 && (errno == ENOSYS || errno == EPERM))
		return errno;
	return 0;
}

/* Flags the kernel rejects (EINVAL) before it looks at the path. */
int fchmodat2_refusal(void)
{
	if (raw_fchmodat2(AT_FDCWD, "", 0, -1) == -1 &&
	    (errno == ENOSYS || errno == EPERM))
		return errno;
	return 0;
}

int block_close_range(int err)
{
	if (close_range_refusal() == err)
		return 0;
	return load_syscall_filter((uint32_t)CLOSE_RANGE_NR, err);
}

int block_fchmodat2(int err)
{
	if (fchmodat2_refusal() == err)
		return 0;
	return load_syscall_filter((uint32_t)FCHMODAT2_NR, err);
}

bool kernel_reopens_empty_path(void)
{
	int dir = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC), reopened = -1;

	if (dir >= 0)
		reopened = openat(dir, "", (1 << 26) | O_RDONLY | O_DIRECTORY |
				  O_CLOEXEC);
	if (reopened >= 0)
		close(reopened);
	if (dir >= 0)
		close(dir);
	return reopened >= 0;
}

int kernel_version(void)
{
	struct utsname u;
	int major = 0, minor = 0;

	if (uname(&u) == 0)
		sscanf(u.release, "%d.%d", &major, &minor);
	return major * 100 + minor;
}
