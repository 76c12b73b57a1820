/*
 * Whether the kernel opens a file by its fd alone: openat(fd, "",
 * O_EMPTYPATH), Linux 7.2.
 */
#ifndef EXECVEAT_EMPTY_PATH_H
#define EXECVEAT_EMPTY_PATH_H

#include <stdbool.h>

/* Asked of the kernel once a process, by a call that names no file;
 * errno is kept. */
bool libexecveat_kernel_opens_empty_path(void);

#endif /* EXECVEAT_EMPTY_PATH_H */
