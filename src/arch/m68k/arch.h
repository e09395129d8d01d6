/* m68k constants of the CPU contract (see ../contract.h). */
#ifndef GREEN_ARCH_H
#define GREEN_ARCH_H

#define GREEN_ARCH_NAME        "m68k"
#define GREEN_ARCH_STACK_ALIGN 4       /* the ABI asks for 2; Linux keeps 4 */
#ifdef __HAVE_68881__
#define GREEN_ARCH_FRAME_BYTES 124     /* fpcr, fp2-fp7, d2-d7/a2-a6, return */
#define GREEN_ARCH_FRAME_INT   76      /* where the integer part starts */
#else
#define GREEN_ARCH_FRAME_BYTES 48      /* d2-d7/a2-a6, return address */
#define GREEN_ARCH_FRAME_INT   0
#endif

/* The saved frame (context.S) as gdb reads it (../../core/diag/gdb_layout.c): the
 * slot of each callee-saved integer register, by gdb's register name (a6
 * is "fp"), at the saved stack pointer, and the thread's stack pointer
 * once the switch has returned into it.  The FP registers' slots are not
 * given: no caller's frame is found through them. */
#define GREEN_ARCH_FRAME_SLOTS(X) \
	X("d2", GREEN_ARCH_FRAME_INT + 0) X("d3", GREEN_ARCH_FRAME_INT + 4) \
	X("d4", GREEN_ARCH_FRAME_INT + 8) X("d5", GREEN_ARCH_FRAME_INT + 12) \
	X("d6", GREEN_ARCH_FRAME_INT + 16) X("d7", GREEN_ARCH_FRAME_INT + 20) \
	X("a2", GREEN_ARCH_FRAME_INT + 24) X("a3", GREEN_ARCH_FRAME_INT + 28) \
	X("a4", GREEN_ARCH_FRAME_INT + 32) X("a5", GREEN_ARCH_FRAME_INT + 36) \
	X("fp", GREEN_ARCH_FRAME_INT + 40) X("pc", GREEN_ARCH_FRAME_INT + 44)
#define GREEN_ARCH_FRAME_SP    (GREEN_ARCH_FRAME_INT + 48)

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
