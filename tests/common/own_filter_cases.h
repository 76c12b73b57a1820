/*
 * Cases that load seccomp filters of their own (EPERM, killing filters,
 * one thread's filter), which only a world that allows filters can make:
 * qemu-user lets no program load one.
 */
#ifndef TESTS_OWN_FILTER_CASES_H
#define TESTS_OWN_FILTER_CASES_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

/* Runs the cases where filters can be loaded, and returns how many
 * failed; elsewhere prints that they did not run, why, and their names. */
int run_cases_with_own_filters(const struct CMUnitTest *cases, size_t count);

#endif /* TESTS_OWN_FILTER_CASES_H */
