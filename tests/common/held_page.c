/* A page whose first reader is held (held_page.h). */
#define _GNU_SOURCE
#include "held_page.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* <linux/userfaultfd.h>, as the kernel defines it. */
#define UFFD_API_VERSION 0xAAULL
#define UFFD_FEATURE_THREAD_ID (1ULL << 8)
#define UFFD_EVENT_PAGEFAULT 0x12
#define UFFDIO_REGISTER_MODE_MISSING 1ULL

struct uffd_api {
	uint64_t api, features, ioctls;
};

struct uffd_register {
	uint64_t start, len, mode, ioctls;
};

struct uffd_copy {
	uint64_t dst, src, len, mode;
	int64_t copied;
};

struct uffd_message {
	uint8_t event, reserved1;
	uint16_t reserved2;
	uint32_t reserved3;
	uint64_t flags, address;
	uint32_t ptid;
	uint32_t rest;
} __attribute__((packed));

_Static_assert(sizeof(struct uffd_message) == 32,
	       "struct uffd_msg is 32 bytes");

#define UFFDIO_API_REQUEST _IOWR(0xAA, 0x3F, struct uffd_api)
#define UFFDIO_REGISTER_REQUEST _IOWR(0xAA, 0x00, struct uffd_register)
#define UFFDIO_COPY_REQUEST _IOWR(0xAA, 0x03, struct uffd_copy)

int held_page_make(struct held_page *hp)
{
	struct uffd_api api = { UFFD_API_VERSION, UFFD_FEATURE_THREAD_ID, 0 };
	struct uffd_register reg;
	int err;

	hp->size = (size_t)sysconf(_SC_PAGESIZE);
	hp->page = MAP_FAILED;
	hp->uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (hp->uffd < 0)
		return errno;
	hp->page = mmap(NULL, hp->size, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	reg = (struct uffd_register){ (uintptr_t)hp->page, hp->size,
				      UFFDIO_REGISTER_MODE_MISSING, 0 };
	if (hp->page == MAP_FAILED || ioctl(hp->uffd, UFFDIO_API_REQUEST,
					    &api) != 0 ||
	    ioctl(hp->uffd, UFFDIO_REGISTER_REQUEST, &reg) != 0) {
		err = errno;
		held_page_free(hp);
		return err;
	}
	return 0;
}

int held_page_wait(struct held_page *hp, int timeout_ms, pid_t *reader)
{
	struct pollfd pfd = { hp->uffd, POLLIN, 0 };
	struct uffd_message msg;

	switch (poll(&pfd, 1, timeout_ms)) {
	case -1:
		return errno;
	case 0:
		return ETIMEDOUT;
	}
	if (read(hp->uffd, &msg, sizeof(msg)) != (ssize_t)sizeof(msg))
		return errno ? errno : EIO;
	if (msg.event != UFFD_EVENT_PAGEFAULT)
		return EPROTO;
	*reader = (pid_t)msg.ptid;
	return 0;
}

int held_page_release(struct held_page *hp, const void *contents,
		      size_t len)
{
	char *source = mmap(NULL, hp->size, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct uffd_copy copy;
	int err = 0;

	if (source == MAP_FAILED)
		return errno;
	memcpy(source, contents, len < hp->size ? len : hp->size);
	copy = (struct uffd_copy){ (uintptr_t)hp->page, (uintptr_t)source,
				   hp->size, 0, 0 };
	if (ioctl(hp->uffd, UFFDIO_COPY_REQUEST, &copy) != 0)
		err = errno;
	munmap(source, hp->size);
	return err;
}

void held_page_free(struct held_page *hp)
{
	if (hp->page != MAP_FAILED)
		munmap(hp->page, hp->size);
	if (hp->uffd >= 0)
		close(hp->uffd);
	hp->page = MAP_FAILED;
	hp->uffd = -1;
}
