/* x86_64 constants of the CPU contract (see ../contract.h). */
#ifndef GREEN_ARCH_H
#define GREEN_ARCH_H

#define GREEN_ARCH_NAME        "x86_64"
#define GREEN_ARCH_STACK_ALIGN 16      /* SysV ABI: rsp+8 is 16-aligned at entry */
#define GREEN_ARCH_FRAME_BYTES 64      /* what __green_arch_switch pushes */

/* The saved frame (context.S) as gdb reads it (../../core/debug.c): the
 * slot of each callee-saved register, by gdb's register name, at the
 * saved stack pointer, and the thread's stack pointer once the switch
 * has returned into it. */
#define GREEN_ARCH_FRAME_SLOTS(X) \
	X("r15", 0x08) X("r14", 0x10) X("r13", 0x18) X("r12", 0x20) \
	X("rbx", 0x28) X("rbp", 0x30) X("rip", 0x38)
#define GREEN_ARCH_FRAME_SP    0x40

static inline void *__green_arch_sp(void)
{
	void *sp;
	__asm__ volatile ("movq %%rsp, %0" : "=r"(sp));
	return sp;
}

#endif
