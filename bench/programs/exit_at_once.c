/*
 * The smallest program an exec can start: no C library, no dynamic loader,
 * one system call (exit 0) at the entry point. Timing its vfork + exec +
 * waitpid measures the exec path and nothing of the program.
 *
 * Built with -nostdlib -static -ffreestanding: there is no main and no
 * startup code, only _start.
 */
#if defined(__x86_64__) && defined(__ILP32__)
/* x32: __X32_SYSCALL_BIT + exit (60). */
__asm__(".globl _start\n_start:\n"
	"\tmovl $0x4000003c, %eax\n\txorl %edi, %edi\n\tsyscall\n");
#elif defined(__x86_64__)
__asm__(".globl _start\n_start:\n"
	"\tmovl $60, %eax\n\txorl %edi, %edi\n\tsyscall\n");
#elif defined(__i386__)
__asm__(".globl _start\n_start:\n"
	"\tmovl $1, %eax\n\txorl %ebx, %ebx\n\tint $0x80\n");
#elif defined(__aarch64__)
__asm__(".globl _start\n_start:\n"
	"\tmov x8, #93\n\tmov x0, #0\n\tsvc #0\n");
#else
#error "no exit-at-once entry point for this ABI (see bench/meson.build)"
#endif
