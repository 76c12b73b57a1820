/*
 * The execveat, openat2, close_range and fchmodat2 system-call numbers for
 * the ABI being built, and those of the mount API and the *xattrat calls.
 *
 * The number is taken from the kernel headers and checked against a table
 * of our own, so that a wrong or missing header breaks the build (naming
 * the ABI) instead of calling some other system call.
 *
 * History: the 2014 execveat draft (PATCHv4) proposed 316 on x86_64, 353 on
 * i386 and __X32_SYSCALL_BIT + 543 on x32. Linux merged execveat in 3.19
 * with the numbers below; the draft's numbers are renameat2, renameat2 and
 * io_setup today, so they must never be used.
 *
 * openat2 (Linux 5.6) came after the architectures' tables were aligned:
 * 437 on every ABI, x32's with its bit. So did close_range (Linux 5.9):
 * 436, and fchmodat2 (Linux 6.6): 452. Kernel headers before 6.6 (Debian
 * 12 ships 6.1's) have no fchmodat2: there the table's number is used.
 * So are the mount API's (5.2, mount_setattr 5.12) and the *xattrat
 * calls' (6.13), at the end of this file.
 */
#ifndef EXECVEAT_SYSCALL_NUMBERS_H
#define EXECVEAT_SYSCALL_NUMBERS_H

#include <sys/syscall.h>

#if defined(SYS_execveat)
#define EXECVEAT_NR SYS_execveat
#elif defined(__NR_execveat)
#define EXECVEAT_NR __NR_execveat
#endif

#if defined(SYS_openat2)
#define OPENAT2_NR SYS_openat2
#elif defined(__NR_openat2)
#define OPENAT2_NR __NR_openat2
#endif

#if defined(__x86_64__) && defined(__ILP32__)
#define EXECVEAT_ABI "x32"
#define EXECVEAT_EXPECTED_NR (0x40000000 + 545) /* __X32_SYSCALL_BIT + 545 */
#define OPENAT2_EXPECTED_NR (0x40000000 + 437)
#define CLOSE_RANGE_EXPECTED_NR (0x40000000 + 436)
#define FCHMODAT2_EXPECTED_NR (0x40000000 + 452)
#elif defined(__x86_64__)
#define EXECVEAT_ABI "x86_64"
#define EXECVEAT_EXPECTED_NR 322
#define OPENAT2_EXPECTED_NR 437
#define CLOSE_RANGE_EXPECTED_NR 436
#define FCHMODAT2_EXPECTED_NR 452
#elif defined(__i386__)
#define EXECVEAT_ABI "i386"
#define EXECVEAT_EXPECTED_NR 358
#define OPENAT2_EXPECTED_NR 437
#define CLOSE_RANGE_EXPECTED_NR 436
#define FCHMODAT2_EXPECTED_NR 452
#elif defined(__arm__) && defined(__ARM_EABI__)
#define EXECVEAT_ABI "arm (EABI)"
#define EXECVEAT_EXPECTED_NR 387
#define OPENAT2_EXPECTED_NR 437
#define CLOSE_RANGE_EXPECTED_NR 436
#define FCHMODAT2_EXPECTED_NR 452
#elif defined(__aarch64__) || (defined(__riscv) && __riscv_xlen == 64) || \
	defined(__loongarch64)
/* The asm-generic table, shared by the ABIs that joined Linux after 2012. */
#define EXECVEAT_ABI "asm-generic (aarch64, riscv64, loongarch64)"
#define EXECVEAT_EXPECTED_NR 281
#define OPENAT2_EXPECTED_NR 437
#define CLOSE_RANGE_EXPECTED_NR 436
#define FCHMODAT2_EXPECTED_NR 452
#endif

#if defined(SYS_close_range)
#define CLOSE_RANGE_NR SYS_close_range
#elif defined(__NR_close_range)
#define CLOSE_RANGE_NR __NR_close_range
#elif defined(CLOSE_RANGE_EXPECTED_NR)
#define CLOSE_RANGE_NR CLOSE_RANGE_EXPECTED_NR /* headers before 5.9 */
#endif

#if defined(SYS_fchmodat2)
#define FCHMODAT2_NR SYS_fchmodat2
#elif defined(__NR_fchmodat2)
#define FCHMODAT2_NR __NR_fchmodat2
#elif defined(FCHMODAT2_EXPECTED_NR)
#define FCHMODAT2_NR FCHMODAT2_EXPECTED_NR /* headers before 6.6 */
#endif

#ifndef EXECVEAT_ABI
/* Unknown to our table: trust the headers, and name the ABI from the build. */
#define EXECVEAT_ABI EXECVEAT_HOST_CPU
#endif

#ifndef EXECVEAT_NR
_Static_assert(0, "the kernel headers define no execveat number for "
		  EXECVEAT_ABI);
#define EXECVEAT_NR (-1)
#endif

#ifdef EXECVEAT_EXPECTED_NR
_Static_assert(EXECVEAT_NR == EXECVEAT_EXPECTED_NR,
	       "the kernel headers' execveat number disagrees with the "
	       "mainline number for " EXECVEAT_ABI);
#endif

#ifndef OPENAT2_NR
_Static_assert(0, "the kernel headers define no openat2 number for "
		  EXECVEAT_ABI);
#define OPENAT2_NR (-1)
#endif

#ifdef OPENAT2_EXPECTED_NR
_Static_assert(OPENAT2_NR == OPENAT2_EXPECTED_NR,
	       "the kernel headers' openat2 number disagrees with the "
	       "mainline number for " EXECVEAT_ABI);
#endif

#ifndef CLOSE_RANGE_NR
_Static_assert(0, "neither the kernel headers nor our table know "
		  "close_range's number for " EXECVEAT_ABI);
#define CLOSE_RANGE_NR (-1)
#endif

#ifdef CLOSE_RANGE_EXPECTED_NR
_Static_assert(CLOSE_RANGE_NR == CLOSE_RANGE_EXPECTED_NR,
	       "the kernel headers' close_range number disagrees with the "
	       "mainline number for " EXECVEAT_ABI);
#endif

#ifndef FCHMODAT2_NR
_Static_assert(0, "neither the kernel headers nor our table know "
		  "fchmodat2's number for " EXECVEAT_ABI);
#define FCHMODAT2_NR (-1)
#endif

#ifdef FCHMODAT2_EXPECTED_NR
_Static_assert(FCHMODAT2_NR == FCHMODAT2_EXPECTED_NR,
	       "the kernel headers' fchmodat2 number disagrees with the "
	       "mainline number for " EXECVEAT_ABI);
#endif

/*
 * The calls of the mounts and attributes beneath a root: from 424 on, one
 * table on every ABI (x32 with its bit), so headers older than a call get
 * its number here; the kernel headers' own number, where they have one,
 * must agree.
 */
#if defined(__x86_64__) && defined(__ILP32__)
#define NR_UNIFIED(n) (0x40000000 + (n))
#else
#define NR_UNIFIED(n) (n)
#endif

#define OPEN_TREE_NR NR_UNIFIED(428)
#define MOVE_MOUNT_NR NR_UNIFIED(429)
#define FSOPEN_NR NR_UNIFIED(430)
#define FSCONFIG_NR NR_UNIFIED(431)
#define FSMOUNT_NR NR_UNIFIED(432)
#define MOUNT_SETATTR_NR NR_UNIFIED(442)
#define SETXATTRAT_NR NR_UNIFIED(463)
#define GETXATTRAT_NR NR_UNIFIED(464)
#define LISTXATTRAT_NR NR_UNIFIED(465)
#define REMOVEXATTRAT_NR NR_UNIFIED(466)

#ifdef SYS_open_tree
_Static_assert(SYS_open_tree == OPEN_TREE_NR, "open_tree's number");
#endif
#ifdef SYS_move_mount
_Static_assert(SYS_move_mount == MOVE_MOUNT_NR, "move_mount's number");
#endif
#ifdef SYS_fsmount
_Static_assert(SYS_fsmount == FSMOUNT_NR, "fsmount's number");
#endif
#ifdef SYS_mount_setattr
_Static_assert(SYS_mount_setattr == MOUNT_SETATTR_NR, "mount_setattr's");
#endif
#ifdef SYS_getxattrat
_Static_assert(SYS_getxattrat == GETXATTRAT_NR, "getxattrat's number");
#endif

#endif /* EXECVEAT_SYSCALL_NUMBERS_H */
