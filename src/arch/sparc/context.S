/*
 * SPARC context switch and thread start: sparc64 (V9 ABI) and 32-bit
 * SPARC (V8 ABI; V8+ when built for a V9 CPU).
 *
 * Register windows.  A SPARC function's locals (%l0-%l7) and incoming
 * arguments (%i0-%i7, with %i6 = %fp and %i7 = return address) live in
 * its register window; `save` opens a new window for a callee and
 * `restore` returns to the caller's.  Windows the CPU has no room for
 * are spilled by the kernel into the 16-word save area at the bottom of
 * each frame ([%sp + BIAS]) and filled back from there on `restore`.
 * So a thread's callee-saved state is: its windows, some still in the
 * register file and some already on its stack, plus %sp.  A switch
 * therefore:
 *
 *   1. opens its own window (save) and flushes every other window of
 *      this thread to its stack: flushw on V9, the flush-windows software
 *      trap (ta 3) on V8.  After that the only window held in registers
 *      is the switch's own, and the register file holds nothing of the
 *      caller's that its stack does not.
 *   2. stores what the switch's own window must carry across: the return
 *      address %i7 and the FP state register; %fp need not be stored, it
 *      is always %sp + FRAME.
 *   3. loads the other thread's %sp, its %i7 and %fp, and returns with
 *      `ret; restore`: the restore finds no valid window to return to and
 *      the window-fill trap loads the caller's window from the other
 *      thread's stack, where that thread's own flush put it.
 *
 * Globals: %g1 and %g4-%g5 are scratch, %g2-%g3 application registers
 * the C compiler treats as call-clobbered on Linux, %g6-%g7 reserved to
 * the system (%g7 is the thread pointer, shared by all green threads and
 * never touched).  Every floating-point register is caller-saved in both
 * SPARC ABIs; %fsr is not: its rounding direction and trap enables are
 * per-thread control state, as MXCSR is on x86_64, so it is saved.
 *
 * Stack bias (sparc64): %sp and %fp hold the real address minus 2047;
 * every memory access adds BIAS.  The contract's saved stack pointer is
 * the biased %sp itself.
 *
 * Delay slots: the instruction after a branch, call, jmpl or ret runs
 * before the transfer takes effect; each one used here is marked with a
 * leading space and a comment.
 *
 * Frame of the switch (offsets from the real %sp):
 *
 *   sparc64   sparc   slot
 *   0         0       window save area of this frame (16 words)
 *   128       64      outgoing argument area (ABI minimum)
 *   176       96      return address %i7
 *   184       100     %fsr
 *   192..207  104     (end of frame, 16-aligned on sparc64)
 */

#ifdef __arch64__
#define BIAS	2047
#define W	8			/* bytes per register */
#define FRAME	208
#define MINFRAME 176			/* save area + argument area */
#define SLOT_RA	176
#define SLOT_FSR 184
#define ALIGN	16
#define STW	stx			/* store/load a register-sized word */
#define LDW	ldx
#define STFSR	stx
#define LDFSR	ldx
#else
#define BIAS	0
#define W	4
#define FRAME	104
#define MINFRAME 96
#define SLOT_RA	96
#define SLOT_FSR 100
#define ALIGN	8
#define STW	st
#define LDW	ld
#define STFSR	st
#define LDFSR	ld
#endif

#if defined(__arch64__) || defined(__sparc_v9__) || defined(__sparcv9) || defined(__sparc_v8plus__)
#define FLUSH_WINDOWS	flushw		/* V9: spill every other window */
#else
#define FLUSH_WINDOWS	ta 3		/* V8: ST_FLUSH_WINDOWS, the kernel spills them */
#endif

	.text

/* void __green_arch_switch(void **save (%o0), void *load (%o1)) */
	.globl	__green_arch_switch
	.hidden	__green_arch_switch
	.type	__green_arch_switch, #function
	.align	4
__green_arch_switch:
	.cfi_startproc
	save	%sp, -FRAME, %sp	/* our own window: save, load now in %i0, %i1 */
	.cfi_window_save
	.cfi_register 15, 31
	.cfi_def_cfa_register %fp
	FLUSH_WINDOWS			/* the callers' windows go to their stacks */
	STFSR	%fsr, [%sp + BIAS + SLOT_FSR]	/* FP control state */
	STW	%i7, [%sp + BIAS + SLOT_RA]	/* where our caller continues */
	STW	%sp, [%i0]		/* *save = our (biased) stack pointer */

	mov	%i1, %sp		/* adopt the other thread's stack */
	LDFSR	[%sp + BIAS + SLOT_FSR], %fsr	/* its FP control state */
	LDW	[%sp + BIAS + SLOT_RA], %i7	/* its return address */
	add	%sp, FRAME, %fp		/* its caller's %sp: the frame above ours */
	ret				/* jmpl %i7 + 8: resume where it called us */
	 restore			/* (delay slot) pop our window; the caller's is
					   filled from its stack by the window-fill trap */
	.cfi_endproc
	.size	__green_arch_switch, .-__green_arch_switch

/*
 * First code a new thread runs, in the window __green_arch_make laid out
 * on its stack: %l0 = entry, %l1 = arg, %fp = 0 and %i7 = 0 end the frame
 * chain, and the return address column is undefined, so debuggers and
 * unwinders stop here.  %sp is a full minimum frame for entry to use.
 */
	.type	__green_arch_start, #function
	.align	4
__green_arch_start:
	.cfi_startproc
	.cfi_undefined 15
	.cfi_undefined 31
	call	%l0			/* entry(arg): never returns */
	 mov	%l1, %o0		/* (delay slot) its argument */
	unimp	0			/* an entry that returns traps here */
	.cfi_endproc
	.size	__green_arch_start, .-__green_arch_start

/*
 * void *__green_arch_make(void *top (%o0), void (*entry)(void *) (%o1), void *arg (%o2))
 *
 * A leaf: no window of its own.  Builds, from the top down,
 *   C = a minimum frame whose window save area holds the trampoline's
 *       window (%l0 = entry, %l1 = arg, everything else 0);
 *   S = C - FRAME, the switch frame: return address = trampoline - 8
 *       (ret jumps to %i7 + 8) and %fsr = 0 (round to nearest, no traps);
 * and returns S - BIAS.  The switch computes %fp = S + FRAME = C.
 */
	.globl	__green_arch_make
	.hidden	__green_arch_make
	.type	__green_arch_make, #function
	.align	4
__green_arch_make:
	.cfi_startproc
	and	%o0, -ALIGN, %o0	/* align the top */
	sub	%o0, MINFRAME, %o3	/* C */
	mov	16, %o4			/* clear C's save area: 16 words */
	mov	%o3, %o5
1:	STW	%g0, [%o5]
	subcc	%o4, 1, %o4
	bne	1b
	 add	%o5, W, %o5		/* (delay slot) next word */
	STW	%o1, [%o3 + 0 * W]	/* %l0 = entry */
	STW	%o2, [%o3 + 1 * W]	/* %l1 = arg */
	sub	%o3, FRAME, %o0		/* S */
	STW	%g0, [%o0 + SLOT_FSR]	/* %fsr = 0 */
	mov	%o7, %g1		/* keep our return address ... */
	call	2f			/* ... while call puts its own pc in %o7 */
	 nop				/* (delay slot) */
2:	add	%o7, __green_arch_start - 8 - (2b - 8), %o4	/* position-independent */
	mov	%g1, %o7
	STW	%o4, [%o0 + SLOT_RA]	/* ret lands on the trampoline */
	retl				/* jmpl %o7 + 8 */
	 sub	%o0, BIAS, %o0		/* (delay slot) return S - BIAS */
	.cfi_endproc
	.size	__green_arch_make, .-__green_arch_make

	.section .note.GNU-stack,"",@progbits
