#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "openat2_again.h"
#include "openat2_oracle.h"
#include "openat2/openat2.h"

int openat2_kernel_side(int dirfd, const char *path,
			const struct open_how *how)
{
	struct {
		struct open_how how;
		uint64_t zeros;
	} larger = { .how = *how };

	_Static_assert(sizeof larger == OPENAT2_KERNEL_SIZE,
		       "the kernel's side passes open_how and 8 zero bytes");
	return (int)kernel_openat2_once(dirfd, path, &larger, sizeof larger);
}

int openat2_resolver_side(int dirfd, const char *path,
			  const struct open_how *how)
{
	int fd = libexecveat_resolve_open_as_openat2(dirfd, path, how);

	if (fd >= 0)
		return fd;
	errno = -fd;
	return -1;
}

struct openat2_answer openat2_answer_of(int fd, int err)
{
	struct openat2_answer a = { .err = fd < 0 ? err : 0 };
	struct stat st;

	if (fd < 0)
		return a;
	/* An fd just opened that fstat or F_GETFL refuses: nothing any
	 * comparison could stand on. */
	a.flags = fcntl(fd, F_GETFL);
	if (fstat(fd, &st) < 0 || a.flags < 0) {
		perror("openat2 oracle: fstat or F_GETFL of an answer");
		abort();
	}
	a.dev = st.st_dev;
	a.ino = st.st_ino;
	a.type = st.st_mode & S_IFMT;
	return a;
}

static struct openat2_answer ask(openat2_side_fn *side, int dirfd,
				 const char *path, const struct open_how *how)
{
	int fd = side(dirfd, path, how);
	struct openat2_answer a = openat2_answer_of(fd, errno);

	if (fd >= 0)
		close(fd);
	return a;
}

struct openat2_answers openat2_oracle(openat2_side_fn *fallback, int dirfd,
				      const char *path,
				      const struct open_how *how)
{
	struct openat2_again again;
	struct openat2_answers a;

	openat2_again_start(&again);
	do {
		a.fallback = ask(fallback, dirfd, path, how);
		a.kernel = ask(openat2_kernel_side, dirfd, path, how);
	} while (openat2_ask_again(&again, how->resolve,
				   openat2_either_eagain(a.kernel.err,
							 a.fallback.err)));
	a.kernel_unanswered = openat2_kernel_unanswered(&again, how->resolve,
							a.kernel.err);
	return a;
}

bool openat2_kernel_judges(const struct openat2_answers *a, const char *what)
{
	if (a->kernel_unanswered)
		openat2_say_not_judged(what, "the fallback's answer checked "
				       "alone");
	return !a->kernel_unanswered;
}

/* openat2(3), NOTES: the fallback opens the last component itself, and
 * F_GETFL may show how: O_NOFOLLOW on whatever it opened (following links
 * or not), O_DIRECTORY where the path (or a link's text) ended in a slash,
 * O_EMPTYPATH where OPENAT2_REGULAR reopened the proven file. Nothing the
 * kernel shows may be missing, nothing else may be added. */
static int documented_extra_flags(const struct openat2_answer *k,
				  const struct openat2_answer *f,
				  uint64_t asked)
{
	int extra = f->flags & ~k->flags;
	int allowed = O_NOFOLLOW | (asked & OPENAT2_REGULAR ? O_EMPTYPATH : 0);

	if (k->type == S_IFDIR)
		allowed |= O_DIRECTORY;
	return (k->flags & ~f->flags) == 0 && (extra & ~allowed) == 0;
}

enum openat2_verdict openat2_compare(const struct openat2_answer *k,
				     const struct openat2_answer *f,
				     uint64_t asked)
{
	if (k->err != 0 || f->err != 0)
		return k->err == f->err ? OPENAT2_SAME : OPENAT2_DIFFERENT;
	if (k->dev != f->dev || k->ino != f->ino || k->type != f->type)
		return OPENAT2_DIFFERENT;
	if (k->flags == f->flags)
		return OPENAT2_SAME;
	return documented_extra_flags(k, f, asked) ? OPENAT2_DOCUMENTED_FLAGS :
						     OPENAT2_DIFFERENT;
}

int openat2_agree(const struct openat2_answers *a, uint64_t asked)
{
	return openat2_compare(&a->kernel, &a->fallback, asked) !=
	       OPENAT2_DIFFERENT;
}

const char *openat2_errno_name(int err)
{
	const char *name = strerrorname_np(err);

	if (name != NULL)
		return name;
	return err == EFTYPE ? "EFTYPE" : "an unknown errno";
}

const char *openat2_answer_describe(char *buf, size_t size,
				    const struct openat2_answer *a)
{
	if (a->err != 0)
		snprintf(buf, size, "%s", openat2_errno_name(a->err));
	else
		snprintf(buf, size, "dev %#jx ino %ju type %#o flags %#x",
			 (uintmax_t)a->dev, (uintmax_t)a->ino,
			 (unsigned)a->type, (unsigned)a->flags);
	return buf;
}

const char *openat2_answers_describe(char *buf, size_t size,
				     const struct openat2_answers *a)
{
	char k[96], f[96];

	snprintf(buf, size, "kernel %s, fallback %s",
		 openat2_answer_describe(k, sizeof k, &a->kernel),
		 openat2_answer_describe(f, sizeof f, &a->fallback));
	return buf;
}
