/*
 * libexecveat also defines fexecve@GLIBC_2.2.5 (the node differs per ABI),
 * so dlvsym(RTLD_NEXT, ...) from a program linked with -lexecveat may find
 * the library's twin instead of glibc's. Asking libc.so.6's own handle
 * searches only libc and its dependencies; dladdr then confirms which
 * object the function lives in.
 */
#define _GNU_SOURCE
#include "glibc_fexecve.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#ifdef __GLIBC__
#include <gnu/lib-names.h>
#endif

fexecve_fn *glibc_fexecve(void)
{
#if defined(__GLIBC__) && defined(GLIBC_FEXECVE_NODE)
	void *libc = dlopen(LIBC_SO, RTLD_NOW | RTLD_NOLOAD);
	void *fn = libc ? dlvsym(libc, "fexecve", GLIBC_FEXECVE_NODE) : NULL;
	Dl_info info;

	if (fn == NULL || dladdr(fn, &info) == 0 ||
	    strstr(info.dli_fname, "libexecveat") != NULL) {
		fprintf(stderr, "fexecve@%s not found in %s\n",
			GLIBC_FEXECVE_NODE, LIBC_SO);
		return NULL;
	}
	return (fexecve_fn *)fn;
#else
	fprintf(stderr, "no glibc fexecve version node in this build\n");
	return NULL;
#endif
}
