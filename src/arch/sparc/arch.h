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

/*
 * The interrupted pc, in an SA_SIGINFO handler (the glibc overlay's
 * preemption asks whether it is inside the libc).  Linux/SPARC passes no
 * ucontext_t: on sparc64 the third argument is the siginfo pointer again,
 * and the signal frame continues after the 128-byte siginfo with struct
 * pt_regs { u_regs[16], tstate, tpc, tnpc, ... }; on 32-bit SPARC it
 * points at struct pt_regs { psr, pc, npc, y, u_regs[16] }.
 */
#ifdef __arch64__
#define GREEN_ARCH_UC_PC(uc) (((const unsigned long *)(uc))[16 + 16 + 1])
#else
#define GREEN_ARCH_UC_PC(uc) (((const unsigned long *)(uc))[1])
#endif

/* ... so the mask a handler's return restores is not reachable as a
 * ucontext_t's uc_sigmask (core/signal/deliver.c holds no signal in the kernel) */
#define GREEN_ARCH_UC_HAS_MASK 0

/* the real (unbiased) address the stack pointer points at */
static inline void *__green_arch_sp(void)
{
	void *sp;
	__asm__ volatile ("add %%sp, %1, %0" : "=r"(sp) : "i"(GREEN_ARCH_STACK_BIAS));
	return sp;
}

/* Floating-point control state: the FSR's rounding direction (bits
 * 31:30) and trap enables (27:23); its condition codes and exception
 * flags are not inherited. */
struct green_arch_fp {
	unsigned long fsr;
};

#define GREEN_ARCH_FSR_INHERIT 0xcf800000ul

static inline unsigned long __green_arch_fsr(void)
{
	unsigned long fsr;
#ifdef __arch64__
	__asm__ volatile ("stx %%fsr, %0" : "=m"(fsr));
#else
	__asm__ volatile ("st %%fsr, %0" : "=m"(fsr));
#endif
	return fsr;
}

static inline void __green_arch_fp_get(struct green_arch_fp *f)
{
	f->fsr = __green_arch_fsr() & GREEN_ARCH_FSR_INHERIT;
}

static inline void __green_arch_fp_set(const struct green_arch_fp *f)
{
	unsigned long fsr = (__green_arch_fsr() & ~GREEN_ARCH_FSR_INHERIT) | f->fsr;
#ifdef __arch64__
	__asm__ volatile ("ldx %0, %%fsr" : : "m"(fsr));
#else
	__asm__ volatile ("ld %0, %%fsr" : : "m"(fsr));
#endif
}

/* The glibc overlay keeps one TCB (%g7): the thread pointer never moves
 * (core/stack/tls.c). */
static inline void __green_arch_tp_init(int on_valgrind) { (void)on_valgrind; }
static inline void __green_arch_set_tp(void *tp) { (void)tp; }

#endif
