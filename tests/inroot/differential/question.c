#define _GNU_SOURCE
#include "question.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "kernel_side.h"
#include "library_side.h"
#include "metadata_sides.h"

/* What fills readlink's buffer before the call: bytes no link text of
 * the trees holds. */
#define UNWRITTEN '\x7f'

/* What 2.1's buffer holds after the call: statx's fields (its file by
 * dev/ino, named later), an attribute's value, a list of names. */
static void keep_metadata(struct answer *a, const struct question *q,
			  const char *buf)
{
	const struct statx *stx = (const struct statx *)buf;

	if (a->rc < 0)
		return;
	if (q->op == OP_STATX || q->op == OP_FSTATX) {
		a->dev = makedev(stx->stx_dev_major, stx->stx_dev_minor);
		a->ino = stx->stx_ino;
		/* A directory's link count is its subdirectories', which
		 * the listing compares (procfs's: its processes). */
		snprintf(a->text, sizeof a->text, "%06o %u:%u size %llu "
			 "nlink %u", (unsigned)stx->stx_mode,
			 (unsigned)stx->stx_uid, (unsigned)stx->stx_gid,
			 (unsigned long long)stx->stx_size,
			 S_ISDIR(stx->stx_mode) ? 0 : (unsigned)stx->stx_nlink);
		return;
	}
	if (q->op != OP_GETXATTR && q->op != OP_LISTXATTR)
		return;
	for (long i = 0; i < a->rc && i + 1 < (long)sizeof a->text; i++)
		a->text[i] = buf[i] ? buf[i] : ',';
}

/* rc and errno, and for an fd what it is (the fd then closed). */
static struct answer answer_of(const struct question *q, long rc)
{
	struct answer a = { .rc = rc, .err = rc == -1 ? errno : 0 };
	struct stat st;

	if (rc >= 0 && inroot_op_returns_fd(q->op)) {
		int fd = (int)rc;

		a.fd_flags = fcntl(fd, F_GETFL);
		a.cloexec = fcntl(fd, F_GETFD) & FD_CLOEXEC;
		if (fstat(fd, &st) == 0) {
			a.dev = st.st_dev;
			a.ino = st.st_ino;
		}
		close(fd);
	}
	return a;
}

/* readlink's buffer as the header says: at most size bytes of the text
 * copied, nothing past them written. */
static void keep_text(struct answer *a, const char *buf, size_t size)
{
	size_t copied = a->rc < 0 ? 0 : (size_t)a->rc;

	if (copied > size)
		copied = size;
	if (copied >= sizeof(a->text))
		copied = sizeof(a->text) - 1;
	memcpy(a->text, buf, copied);
	a->past_untouched = true;
	for (size_t i = copied; i < size && i < PATH_MAX; i++)
		if (buf[i] != UNWRITTEN)
			a->past_untouched = false;
}

/* The question as both sides are asked it; buf is readlink's. */
static struct inroot_call call_of(const struct question *q, char *buf,
				  size_t size)
{
	return (struct inroot_call){ .op = q->op, .path = q->a, .other = q->b,
				     .flags = q->flags, .mode = q->mode,
				     .buf = buf, .size = size };
}

struct answer answer_of_library(int root, const struct question *q)
{
	char buf[PATH_MAX] __attribute__((aligned(8))) = "";
	struct inroot_call c = call_of(q, buf, q->size);
	struct answer a;

	if (INROOT_OP_2_1(q->op)) {
		a = answer_of(q, library_side_call_2_1(root, &c));
		keep_metadata(&a, q, buf);
		return a;
	}
	if (q->op != OP_READLINK)
		return answer_of(q, library_side_call(root, &c));
	memset(buf, UNWRITTEN, sizeof(buf));
	a = answer_of(q, library_side_call(root, &c));
	keep_text(&a, buf, q->size);
	return a;
}

/* readlink(2) truncates silently; the header's answer is the text's
 * whole length, so the kernel's side reads it whole and copies. */
struct answer answer_of_kernel(const struct question *q)
{
	char text[PATH_MAX] __attribute__((aligned(8))) = "", buf[PATH_MAX];
	struct inroot_call c = call_of(q, text, sizeof(text));
	struct answer a;

	if (INROOT_OP_2_1(q->op)) {
		c.size = q->size;
		a = answer_of(q, kernel_side_call_2_1(&c));
		keep_metadata(&a, q, text);
		return a;
	}
	a = answer_of(q, kernel_side_call(&c));
	if (q->op != OP_READLINK)
		return a;
	memset(buf, UNWRITTEN, sizeof(buf));
	if (a.rc > 0)
		memcpy(buf, text, (size_t)a.rc < q->size ? (size_t)a.rc :
			q->size);
	keep_text(&a, buf, q->size);
	return a;
}

/* The open flags by name, or rename's. */
static void flags_describe(char *buf, size_t size, enum inroot_op op,
			   int flags)
{
	static const struct { int flag; const char *name; } open_flags[] = {
		{ O_PATH, "O_PATH" }, { O_CREAT, "O_CREAT" },
		{ O_EXCL, "O_EXCL" }, { O_TRUNC, "O_TRUNC" },
		{ O_DIRECTORY, "O_DIRECTORY" }, { O_NOFOLLOW, "O_NOFOLLOW" },
		{ O_NONBLOCK, "O_NONBLOCK" }, { O_CLOEXEC, "O_CLOEXEC" },
	};
	static const char *const modes[] = { "O_RDONLY", "O_WRONLY",
					     "O_RDWR", "O_ACCMODE" };
	size_t n = 0;

	if (INROOT_OP_2_1(op)) {
		snprintf(buf, size, "%s", flags ? "AT_SYMLINK_NOFOLLOW" : "0");
		return;
	}
	if (op == OP_RENAME) {
		snprintf(buf, size, "%s%s%s", flags == 0 ? "0" : "",
			 flags & RENAME_NOREPLACE ? "RENAME_NOREPLACE" : "",
			 flags & RENAME_EXCHANGE ? "RENAME_EXCHANGE" : "");
		return;
	}
	n += (size_t)snprintf(buf, size, "%s",
			      flags & O_PATH ? "O_PATH" :
			      modes[flags & O_ACCMODE]);
	for (size_t i = 1; i < sizeof(open_flags) / sizeof(open_flags[0]);
	     i++)
		if ((flags & open_flags[i].flag) && n < size)
			n += (size_t)snprintf(buf + n, size - n, "|%s",
					      open_flags[i].name);
}

/* A path for printing: an overlong one by its length and end. */
static const char *short_path(char *buf, size_t size, const char *path)
{
	size_t n = strlen(path);

	if (n < 120)
		snprintf(buf, size, "\"%s\"", path);
	else
		snprintf(buf, size, "<%zu chars ...\"%s\">", n, path + n - 20);
	return buf;
}

const char *question_describe(char *buf, size_t size,
			      const struct question *q)
{
	char flags[160], a[160], b[160];

	short_path(a, sizeof(a), q->a);
	if (q->b != NULL)
		short_path(b, sizeof(b), q->b);
	if (q->op == OP_OPEN || q->op == OP_CREAT || q->op == OP_RENAME ||
	    INROOT_OP_2_1(q->op))
		flags_describe(flags, sizeof(flags), q->op, q->flags);
	else
		flags[0] = '\0';
	switch (q->op) {
	case OP_OPEN:
		snprintf(buf, size, "open(%s, %s)", a, flags);
		break;
	case OP_CREAT:
		snprintf(buf, size, "creat(%s, %s, 0%o)", a, flags, q->mode);
		break;
	case OP_MKDIR:
	case OP_MKDIR_ALL:
		snprintf(buf, size, "%s(%s, 0%o)", inroot_op_name(q->op), a, q->mode);
		break;
	case OP_MKNOD:
		snprintf(buf, size, "mknod(%s, %s|0%o)", a,
			 S_ISFIFO(q->mode) ? "S_IFIFO" : "S_IFREG",
			 q->mode & 07777);
		break;
	case OP_SYMLINK:
	case OP_HARDLINK:
		snprintf(buf, size, "%s(%s, %s)", inroot_op_name(q->op), a, b);
		break;
	case OP_RENAME:
		snprintf(buf, size, "rename(%s, %s, %s)", a, b, flags);
		break;
	case OP_READLINK:
		snprintf(buf, size, "readlink(%s, size %zu)", a, q->size);
		break;
	case OP_CHMOD:
	case OP_FCHMOD:
	case OP_MKNOD_CHECKED:
		snprintf(buf, size, "%s(%s, 0%o, %s)", inroot_op_name(q->op), a,
			 q->mode, flags);
		break;
	case OP_GETXATTR:
	case OP_SETXATTR:
	case OP_REMOVEXATTR:
	case OP_FSETXATTR:
	case OP_BIND:
		snprintf(buf, size, "%s(%s, %s, %s, size %zu)",
			 inroot_op_name(q->op), a, b, flags, q->size);
		break;
	default:
		if (INROOT_OP_2_1(q->op)) {
			snprintf(buf, size, "%s(%s, %s%s)",
				 inroot_op_name(q->op), a, flags,
				 q->op == OP_LISTXATTR ? ", size 64" : "");
			break;
		}
		snprintf(buf, size, "%s(%s)", inroot_op_name(q->op), a);
	}
	return buf;
}

const char *answer_describe(char *buf, size_t size, const struct question *q,
			    const struct answer *a)
{
	const char *name;

	if (a->rc == -1) {
		name = strerrorname_np(a->err);
		snprintf(buf, size, "-1 %s", name != NULL ? name : "E?");
	} else if (inroot_op_returns_fd(q->op)) {
		snprintf(buf, size, "fd of %s %s (F_GETFL %#o)%s", a->file,
			 a->fd_flags & O_PATH ? "O_PATH" :
			 (a->fd_flags & O_ACCMODE) == O_RDONLY ? "O_RDONLY" :
			 (a->fd_flags & O_ACCMODE) == O_WRONLY ? "O_WRONLY" :
			 "O_RDWR", (unsigned)a->fd_flags,
			 a->cloexec ? " close-on-exec" : "");
	} else if (q->op == OP_READLINK) {
		snprintf(buf, size, "%ld \"%s\"%s", a->rc, a->text,
			 a->past_untouched ? "" : " (wrote past the text)");
	} else if (q->op == OP_STATX || q->op == OP_FSTATX) {
		snprintf(buf, size, "0 %s %s", a->file, a->text);
	} else if (q->op == OP_GETXATTR || q->op == OP_LISTXATTR) {
		snprintf(buf, size, "%ld \"%s\"", a->rc, a->text);
	} else {
		snprintf(buf, size, "%ld", a->rc);
	}
	return buf;
}

bool answers_agree(const struct question *q, const struct answer *a,
		   const struct answer *b)
{
	if (a->rc == -1 || b->rc == -1)
		return a->rc == b->rc && a->err == b->err;
	if (inroot_op_returns_fd(q->op))
		return strcmp(a->file, b->file) == 0 &&
		       inroot_same_fd_flags(q->op, a->fd_flags, b->fd_flags) &&
		       a->cloexec == b->cloexec;
	if (q->op == OP_READLINK)
		return a->rc == b->rc && strcmp(a->text, b->text) == 0 &&
		       a->past_untouched == b->past_untouched;
	if (answer_names_file(q->op))
		return strcmp(a->file, b->file) == 0 &&
		       strcmp(a->text, b->text) == 0;
	return a->rc == b->rc && strcmp(a->text, b->text) == 0;
}

bool answer_names_file(enum inroot_op op)
{
	return inroot_op_returns_fd(op) || op == OP_STATX || op == OP_FSTATX;
}
