/* m68k constants of the CPU contract (see ../contract.h). */
#ifndef GREEN_ARCH_H
#define GREEN_ARCH_H

#define GREEN_ARCH_NAME        "m68k"
#define GREEN_ARCH_STACK_ALIGN 4       /* the ABI asks for 2; Linux keeps 4 */
#ifdef __HAVE_68881__
#define GREEN_ARCH_FRAME_BYTES 124     /* fpcr, fp2-fp7, d2-d7/a2-a6, return */
#else
#define GREEN_ARCH_FRAME_BYTES 48      /* d2-d7/a2-a6, return address */
#endif

static inline void *__green_arch_sp(void)
{
	void *sp;
	__asm__ volatile ("move.l %%sp, %0" : "=r"(sp));
	return sp;
}

#endif
