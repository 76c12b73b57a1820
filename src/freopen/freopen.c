/*
 * freopen() and freopen64(): with a name, the C library's own, untouched.
 * With a NULL name ("change the stream's mode", as in freopen(NULL, "rb",
 * stdin)), where the mode asks for the access the stream already has, the
 * file reopened through its own fd (Linux 7.2's O_EMPTYPATH); else the C
 * library's answer by the name "/proc/self/fd/N" once it is proven
 * (procfs, and the stream's very file); else the open file kept and given
 * the mode's flags (stream_keep.c), or EBADF where the mode asks for an
 * access that only a reopen by name could give the stream. The stream is
 * never left on another file, and never lost where glibc keeps it.
 *
 * glibc 2.36 opens "/proc/self/fd/N" on trust: without /proc the stream
 * is lost (NULL, ENOENT), and under a fake /proc it reads the file that
 * the fake names.
 */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdio_ext.h>

#include "../answer.h"
#include "../exports.h"
#include "../proc/proc_fd_name.h"
#include "stream_keep.h"
#include "../syscalls/fds.h"

typedef FILE *freopen_fn(const char *, const char *, FILE *);

#ifdef EXECVEAT_GLIBC_DLVSYM_NODE
#include <gnu/lib-names.h> /* LIBC_SO */

/*
 * dlopen and dlvsym under their first version: glibc 2.34 moved them from
 * libdl into libc under GLIBC_2.34, and a library that asked for that
 * could not load into older processes. The old versions are found in
 * libdl.so.2 before 2.34 and in libc.so.6 since; meson.build links
 * libdl.so.2.
 */
void *libexecveat_dlopen(const char *, int);
void *libexecveat_dlvsym(void *, const char *, const char *);
__asm__(".symver libexecveat_dlopen, dlopen@" EXECVEAT_GLIBC_DLVSYM_NODE);
__asm__(".symver libexecveat_dlvsym, dlvsym@" EXECVEAT_GLIBC_DLVSYM_NODE);

/*
 * glibc's own definition, under its version of it, which the library also
 * defines when it is preloaded (a lookup without the version could find
 * its own twin): looked up in libc itself, already loaded (RTLD_NOLOAD),
 * and not as RTLD_NEXT, which searches only the objects loaded after this
 * library and misses libc where a library that links this one was loaded
 * after libc. The reference dlopen takes is never dropped: libc is never
 * unloaded.
 */
static void *c_library_function(const char *name, const char *node)
{
	void *libc = libexecveat_dlopen(LIBC_SO, RTLD_LAZY | RTLD_NOLOAD);

	return libc == NULL ? NULL : libexecveat_dlvsym(libc, name, node);
}
#else
/* musl: no versions; RTLD_NEXT finds libc's whatever the load order. */
static void *c_library_function(const char *name, const char *node)
{
	(void)node;
	return dlsym(RTLD_NEXT, name);
}
#endif

/* The C library's function, looked up once. NULL in a static program,
 * which has no dynamic symbols to look in. */
static freopen_fn *next_function(freopen_fn *volatile *cache,
				 const char *name, const char *node)
{
	freopen_fn *found = __atomic_load_n(cache, __ATOMIC_ACQUIRE);

	if (found == NULL) {
		found = (freopen_fn *)c_library_function(name, node);
		__atomic_store_n(cache, found, __ATOMIC_RELEASE);
	}
	return found;
}

#ifndef EXECVEAT_GLIBC_FREOPEN_NODE
#define EXECVEAT_GLIBC_FREOPEN_NODE NULL
#define EXECVEAT_GLIBC_FREOPEN64_NODE NULL
#endif

static freopen_fn *libc_freopen(bool largefile)
{
	static freopen_fn *volatile freopen_cache, *volatile freopen64_cache;

	return largefile ? next_function(&freopen64_cache, "freopen64",
					 EXECVEAT_GLIBC_FREOPEN64_NODE)
			 : next_function(&freopen_cache, "freopen",
					 EXECVEAT_GLIBC_FREOPEN_NODE);
}

static FILE *by_name(const char *name, const char *mode, FILE *stream,
		     bool largefile)
{
	freopen_fn *real = libc_freopen(largefile);

	if (real == NULL) {
		answer(-ENOSYS);
		return NULL;
	}
	return real(name, mode, stream);
}

/* The stream where it was when stream_kept's work is done: at its start,
 * its error and end-of-file indicators clear, as after a reopen. */
static FILE *stream_reset(FILE *stream, int saved_errno)
{
	rewind(stream); /* fails on a pipe or a terminal, which have none */
	clearerr(stream);
	funlockfile(stream);
	errno = saved_errno;
	return stream;
}

/* The stream as it was, and r, an -errno, the call's answer: NULL. */
static FILE *stream_kept(FILE *stream, int r)
{
	funlockfile(stream);
	answer(r);
	return NULL;
}

static FILE *reopen_without_name(const char *mode, FILE *stream,
				 bool largefile)
{
	int saved_errno = errno;
	struct stream_mode m;
	struct proc_fd_name name;
	bool same_access, charset;
	int fd, err, rc;

	flockfile(stream);
	err = libexecveat_stream_mode_parse(mode, &m);
	/* A ",ccs=" part: only the C library's reopen by name can set it. */
	charset = err == -EOPNOTSUPP;
	if (err != 0 && !charset)
		return stream_kept(stream, err);
	fd = fileno(stream);
	if (fd < 0)
		return stream_kept(stream, -EBADF);
	/* As the C library's own freopen: its failure is not the call's. */
	fflush(stream);
	errno = saved_errno;
	/* The stream's access, and whether it appends, are stdio's own, which
	 * only a reopen by name changes: the fd's O_APPEND stands for the
	 * latter (fopen and fdopen set both). */
	same_access = !charset && m.read == (__freadable(stream) != 0) &&
		      m.write == (__fwritable(stream) != 0) &&
		      m.append == ((sys_fcntl_getfl(fd) & O_APPEND) != 0);
	if (same_access) {
		rc = libexecveat_stream_reopen_itself(fd, &m, largefile);
		if (rc == 0)
			return stream_reset(stream, saved_errno);
		if (rc < 0)
			return stream_kept(stream, rc);
	}
	if (libexecveat_proc_fd_find(fd, &name) == PROC_FD_SAME_FILE) {
		/* Unlocked: musl's freopen frees the stream where it fails. */
		funlockfile(stream);
		stream = by_name(name.path, mode, stream, largefile);
		if (stream != NULL)
			errno = saved_errno;
		return stream;
	}
	if (charset)
		return stream_kept(stream, -EOPNOTSUPP);
	if (!same_access)
		return stream_kept(stream, -EBADF);
	rc = libexecveat_stream_keep_file(fd, &m);
	if (rc < 0)
		return stream_kept(stream, rc);
	return stream_reset(stream, saved_errno);
}

static FILE *freopen_policy(const char *name, const char *mode, FILE *stream,
			    bool largefile)
{
	if (name != NULL)
		return by_name(name, mode, stream, largefile);
	return reopen_without_name(mode, stream, largefile);
}

__typeof__(freopen) libexecveat_freopen;
__typeof__(freopen) libexecveat_freopen64;

EXECVEAT_EXPORT FILE *libexecveat_freopen(const char *name, const char *mode,
					  FILE *stream)
{
	return freopen_policy(name, mode, stream, false);
}

EXECVEAT_EXPORT FILE *libexecveat_freopen64(const char *name,
					    const char *mode, FILE *stream)
{
	return freopen_policy(name, mode, stream, true);
}

/* What -lexecveat binds to; programs built with _FILE_OFFSET_BITS=64
 * call freopen64. */
__asm__(".symver libexecveat_freopen, freopen@@EXECVEAT_1.3");
__asm__(".symver libexecveat_freopen64, freopen64@@EXECVEAT_1.3");

#ifdef EXECVEAT_GLIBC_DLVSYM_NODE
/* The same functions under glibc's versions of them on this ABI (x86_64:
 * both GLIBC_2.2.5; i386: GLIBC_2.0 and GLIBC_2.1), so that a preloaded
 * library replaces glibc's. */
__asm__(".symver libexecveat_freopen, freopen@" EXECVEAT_GLIBC_FREOPEN_NODE);
__asm__(".symver libexecveat_freopen64, freopen64@"
	EXECVEAT_GLIBC_FREOPEN64_NODE);
#endif
