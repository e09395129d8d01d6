/*
 * pthread_arch.h — musl's per-CPU thread header, as green's libc sees it
 * on m68k.  musl's internal pthread_impl.h includes "pthread_arch.h"; the
 * objects of green's libc (the second musl tree, musl-green, and
 * libgreen.a: musl.am) are compiled with -iquote naming this directory,
 * which a quoted include searches before every -I directory, so they find
 * this file ahead of musl's arch/m68k/pthread_arch.h.  The 1:1 libc is
 * built from the stock tree and keeps musl's.
 *
 * The one difference is where the thread pointer is read.  Stock musl asks
 * the kernel (the get_thread_area system call, inlined into every object
 * that calls __pthread_self(): errno, stdio, locale...).  All green threads
 * run on one kernel thread, so the thread pointer is kept in a word of the
 * libc instead: __green_tp, set at start-up by __set_thread_area
 * (src/arch/m68k/__set_thread_area.c) and by every switch that moves the
 * thread pointer (__green_arch_set_tp, arch.h).  The compiler's TLS
 * accesses read the same word (__m68k_read_tp.S).
 */
#ifndef GREEN_M68K_PTHREAD_ARCH_H
#define GREEN_M68K_PTHREAD_ARCH_H

/* tells green's sources that this header, not musl's, is in use */
#define GREEN_TP_WORD 1

extern __attribute__((__visibility__("hidden"))) uintptr_t __green_tp;

static inline uintptr_t __get_tp(void)
{
	return __green_tp;
}

/*
 * The m68k TLS ABI, as musl lays it out: TLS variant I, the static TLS
 * block right above musl's TCB (no gap); the thread pointer is biased
 * 0x7000 bytes past the block's start and a DTV entry 0x8000 bytes past
 * its module's block (the biases of the ABI, as on MIPS and PowerPC).
 */
#define TLS_ABOVE_TP
#define GAP_ABOVE_TP 0
#define TP_OFFSET 0x7000
#define DTP_OFFSET 0x8000

/* the interrupted pc in a signal handler's mcontext */
#define MC_PC gregs[R_PC]

#endif
