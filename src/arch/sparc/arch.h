/* SPARC constants of the CPU contract (see ../contract.h): sparc64 (V9
 * ABI, 64-bit, stack bias) and 32-bit SPARC (V8/V8+ ABI). */
#ifndef GREEN_ARCH_H
#define GREEN_ARCH_H

#ifdef __arch64__
#define GREEN_ARCH_NAME        "sparc64"
#define GREEN_ARCH_STACK_ALIGN 16
#define GREEN_ARCH_STACK_BIAS  2047    /* %sp + 2047 is the real address */
#define GREEN_ARCH_FRAME_BYTES 208     /* the switch's own frame (context.S) */
#else
#define GREEN_ARCH_NAME        "sparc"
#define GREEN_ARCH_STACK_ALIGN 8
#define GREEN_ARCH_STACK_BIAS  0
#define GREEN_ARCH_FRAME_BYTES 104
#endif

/* the real (unbiased) address the stack pointer points at */
static inline void *__green_arch_sp(void)
{
	void *sp;
	__asm__ volatile ("add %%sp, %1, %0" : "=r"(sp) : "i"(GREEN_ARCH_STACK_BIAS));
	return sp;
}

#endif
