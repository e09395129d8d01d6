/* x86_64 constants of the CPU contract (see ../contract.h). */
#ifndef GREEN_ARCH_H
#define GREEN_ARCH_H

#define GREEN_ARCH_NAME        "x86_64"
#define GREEN_ARCH_STACK_ALIGN 16      /* SysV ABI: rsp+8 is 16-aligned at entry */
#define GREEN_ARCH_FRAME_BYTES 64      /* what __green_arch_switch pushes */

static inline void *__green_arch_sp(void)
{
	void *sp;
	__asm__ volatile ("movq %%rsp, %0" : "=r"(sp));
	return sp;
}

#endif
