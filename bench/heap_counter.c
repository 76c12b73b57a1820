/*
 * Forwarding to glibc's own entry points (__libc_malloc and friends, which
 * glibc exports for exactly this) rather than to dlsym(RTLD_NEXT, ...):
 * dlsym may itself allocate, and would call back into these.
 */
#include "heap_counter.h"

#include <stddef.h>
#include <stdlib.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void __libc_free(void *p);

volatile unsigned long heap_calls;

void *malloc(size_t size)
{
	heap_calls++;
	return __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	heap_calls++;
	return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
	heap_calls++;
	return __libc_realloc(p, size);
}

void free(void *p)
{
	heap_calls++;
	__libc_free(p);
}
