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

/* Floating-point control state: the FPU control register (rounding,
 * precision, exception enables). */
struct green_arch_fp {
	unsigned fpcr;
};

static inline void __green_arch_fp_get(struct green_arch_fp *f)
{
#ifdef __HAVE_68881__
	__asm__ volatile ("fmove.l %%fpcr, %0" : "=m"(f->fpcr));
#else
	f->fpcr = 0;
#endif
}

static inline void __green_arch_fp_set(const struct green_arch_fp *f)
{
#ifdef __HAVE_68881__
	__asm__ volatile ("fmove.l %0, %%fpcr" : : "m"(f->fpcr));
#else
	(void)f;
#endif
}

/*
 * The thread pointer is a word of green's libc, __green_tp, not the
 * kernel's thread area: musl's __get_tp (src/arch/m68k/musl/pthread_arch.h)
 * and the compiler's TLS accesses (__m68k_read_tp.S) load it, so neither
 * makes a system call, and moving it on a switch is a store.  One kernel
 * thread: the word is the running green thread's by construction.
 */
extern __attribute__((__visibility__("hidden"))) uintptr_t __green_tp;

static inline void __green_arch_tp_init(int on_valgrind) { (void)on_valgrind; }

static inline void __green_arch_set_tp(void *tp)
{
	__green_tp = (uintptr_t)tp;
}

#endif
