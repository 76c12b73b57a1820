/*
 * Opens held by a seccomp user-notification filter until a supervisor
 * has acted (held_open.h).
 */
#define _GNU_SOURCE
#include "held_open.h"

#include "classic_bpf.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

/* struct seccomp_data: int nr; u32 arch; u64 ip; u64 args[6]. */
struct seccomp_data_abi {
	int32_t nr;
	uint32_t arch;
	uint64_t ip;
	uint64_t args[6];
};

/* struct seccomp_notif and struct seccomp_notif_resp (Linux 5.0). */
struct notif_abi {
	uint64_t id;
	uint32_t pid;
	uint32_t flags;
	struct seccomp_data_abi data;
};

struct notif_resp_abi {
	uint64_t id;
	int64_t val;
	int32_t error;
	uint32_t flags;
};

#define SECCOMP_USER_NOTIF 0x7fc00000u
#define SECCOMP_SET_MODE_FILTER_OP 1
#define SECCOMP_FILTER_FLAG_NEW_LISTENER_BIT (1u << 3)
#define SECCOMP_USER_NOTIF_FLAG_CONTINUE_BIT 1u
#define NOTIF_RECV _IOWR('!', 0, struct notif_abi)
#define NOTIF_SEND _IOWR('!', 1, struct notif_resp_abi)
#define NOTIF_ID_VALID _IOW('!', 2, uint64_t)

_Static_assert(sizeof(struct notif_abi) == 80, "struct seccomp_notif");
_Static_assert(sizeof(struct notif_resp_abi) == 24,
	       "struct seccomp_notif_resp");

/* A message of one byte that carries one fd (SCM_RIGHTS). */
struct fd_message {
	char byte;
	struct iovec iov;
	struct msghdr msg;
	/* Last: clang takes CMSG_SPACE for a variable size. */
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(int))];
	} control;
};

static void fd_message_init(struct fd_message *m)
{
	memset(m, 0, sizeof(*m));
	m->iov.iov_base = &m->byte;
	m->iov.iov_len = 1;
	m->msg.msg_iov = &m->iov;
	m->msg.msg_iovlen = 1;
	m->msg.msg_control = m->control.buf;
	m->msg.msg_controllen = sizeof(m->control.buf);
}

static int send_fd(int sock, int fd)
{
	struct fd_message m;
	struct cmsghdr *c;

	fd_message_init(&m);
	c = CMSG_FIRSTHDR(&m.msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(sock, &m.msg, 0) == 1 ? 0 : errno;
}

int receive_listener(int from_held)
{
	struct fd_message m;
	struct cmsghdr *c;
	int fd;

	fd_message_init(&m);
	if (recvmsg(from_held, &m.msg, MSG_CMSG_CLOEXEC) != 1)
		return -1;
	c = CMSG_FIRSTHDR(&m.msg);
	if (c == NULL || c->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

int hold_opens(int to_supervisor)
{
	/* openat without O_PATH: held; anything else: allowed. */
	struct bpf_insn_classic insns[] = {
		{ LOAD_WORD_AT, 0, 0, DATA_NR },
		{ JUMP_IF_EQUAL, 0, 3, SYS_openat },
		{ LOAD_WORD_AT, 0, 0, DATA_ARGS + 2 * 8 + LOW_WORD },
		{ JUMP_IF_ANY_BIT, 1, 0, O_PATH },
		{ RETURN, 0, 0, SECCOMP_USER_NOTIF },
		{ RETURN, 0, 0, SECCOMP_ALLOW },
	};
	struct bpf_program_classic prog = {
		sizeof(insns) / sizeof(insns[0]), insns
	};
	long listener;
	int err;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) != 0)
		return errno;
	listener = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER_OP,
			   SECCOMP_FILTER_FLAG_NEW_LISTENER_BIT, &prog);
	if (listener < 0)
		return errno;
	err = send_fd(to_supervisor, (int)listener);
	close((int)listener);
	return err;
}

/* The NUL-terminated string at addr in pid's memory, into buf: 0, or -1.
 * Read a page at a time: a string may end just before an unmapped one. */
static int read_string(pid_t pid, uint64_t addr, char *buf, size_t size)
{
	size_t have = 0;

	while (have + 1 < size) {
		size_t page_left = 4096 - (size_t)((addr + have) % 4096);
		size_t want = size - 1 - have < page_left ? size - 1 - have :
							    page_left;
		struct iovec local = { buf + have, want };
		struct iovec remote = { (void *)(uintptr_t)(addr + have), want };
		ssize_t n = process_vm_readv(pid, &local, 1, &remote, 1, 0);

		if (n <= 0)
			return -1;
		if (memchr(buf + have, '\0', (size_t)n) != NULL)
			return 0;
		have += (size_t)n;
	}
	buf[size - 1] = '\0';
	return 0;
}

/* Whether path names name: itself, or as its last component. */
static int names(const char *path, const char *name)
{
	size_t p = strlen(path), n = strlen(name);

	return p >= n && strcmp(path + p - n, name) == 0 &&
	       (p == n || path[p - n - 1] == '/');
}

/* One held open: act first where it is name's, then let it go on. 1
 * where it was name's, 0 where not, -1 where the listener failed. */
static int serve_one(int listener, pid_t pid, const char *name,
		     void (*act)(void *), void *arg, int *acted)
{
	struct notif_abi req;
	struct notif_resp_abi resp;
	char path[512];
	int ours;

	memset(&req, 0, sizeof(req));
	if (ioctl(listener, NOTIF_RECV, &req) != 0)
		return errno == ENOENT ? 0 : -1; /* ENOENT: the call is gone */
	ours = read_string(pid, req.data.args[1], path, sizeof(path)) == 0 &&
	       ioctl(listener, NOTIF_ID_VALID, &req.id) == 0 &&
	       names(path, name);
	if (ours && !*acted) {
		act(arg);
		*acted = 1;
	}
	memset(&resp, 0, sizeof(resp));
	resp.id = req.id;
	resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE_BIT;
	if (ioctl(listener, NOTIF_SEND, &resp) != 0 && errno != ENOENT)
		return -1;
	return ours;
}

int serve_held_opens(int listener, pid_t pid, const char *name,
		     void (*act)(void *), void *arg, int done)
{
	int held = 0, acted = 0, r;

	for (;;) {
		struct pollfd fds[2] = { { listener, POLLIN, 0 },
					 { done, POLLIN, 0 } };

		if (poll(fds, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (fds[0].revents & POLLIN) {
			r = serve_one(listener, pid, name, act, arg, &acted);
			if (r < 0)
				return -1;
			held += r;
			continue;
		}
		if (fds[1].revents != 0)
			return held;
		if (fds[0].revents != 0) /* the held process is gone */
			return held;
	}
}
