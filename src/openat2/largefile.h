/*
 * What the kernel's openat2 adds to the flags of a 32-bit process on a
 * 64-bit kernel (largefile.c), for the fallback to add to its opens.
 */
#ifndef EXECVEAT_LARGEFILE_H
#define EXECVEAT_LARGEFILE_H

/* The bits the kernel's openat2 would add to flags here: O_LARGEFILE or
 * nothing. */
unsigned long long libexecveat_openat2_added_flags(unsigned long long flags);

#endif /* EXECVEAT_LARGEFILE_H */
