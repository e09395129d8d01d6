/*
 * m68k context switch and thread start (System V m68k ABI as used by
 * Linux and GCC: m68k-linux-gnu, 68020+ with a 68881/68882-style FPU).
 *
 * Every argument is passed on the stack: 4(%sp) is the first, 8(%sp)
 * the second, and so on; 0(%sp) is the return address.  A function
 * may clobber d0-d1, a0-a1, fp0-fp1 and the condition codes; it must
 * preserve d2-d7, a2-a6 (a6 is the frame pointer, a5 the PIC
 * register when there is one) and fp2-fp7, and return with sp as it
 * found it.  Those are exactly what a switch has to keep, because a
 * switch is a call that returns in another thread:
 *
 *   offset  slot                       restored by
 *   0       fpcr (4 bytes)             fmove.l (%sp)+,%fpcr
 *   4       fp2-fp7 (6 x 12 bytes)     fmovem.x (%sp)+,%fp2-%fp7
 *   76      d2-d7 (6 x 4 bytes)        movem.l (%sp)+,...
 *   100     a2-a6 (5 x 4 bytes)        (a2 = entry of a new thread)
 *   120     return address             rts
 *
 * (d2 holds a new thread's argument.)  fp2-fp7 are saved in the
 * 96-bit extended format, the only one that keeps every value exactly.
 * The FP control register (rounding mode, precision, exception enables)
 * is per-thread state the callee must leave alone, like MXCSR on x86_64,
 * so it travels with the thread; fpsr (condition codes and accrued
 * exceptions) and fpiar are scratch and are not saved.  Without an FPU
 * (-msoft-float, ColdFire without FPU) the frame is only the integer
 * part: GREEN_ARCH_FRAME_BYTES in arch.h follows the same condition.
 *
 * The thread pointer is not touched here: __green_switch moves it, with
 * a store to the libc's word, when the threads have TCBs of their own
 * (src/core/sched/switch.c, arch.h).
 */

	.text

/* void __green_arch_switch(void **save, void *load) */
	.globl	__green_arch_switch
	.hidden	__green_arch_switch
	.type	__green_arch_switch, @function
	.p2align 2
__green_arch_switch:
	.cfi_startproc
	movea.l	4(%sp), %a0		/* save */
	movea.l	8(%sp), %a1		/* load */
	movem.l	%d2-%d7/%a2-%a6, -(%sp)	/* callee-saved integer registers */
	.cfi_adjust_cfa_offset 44
#ifdef __HAVE_68881__
	fmovem.x %fp2-%fp7, -(%sp)	/* callee-saved FP registers ... */
	.cfi_adjust_cfa_offset 72
	fmove.l	%fpcr, -(%sp)		/* ... and the FP control register */
	.cfi_adjust_cfa_offset 4
#endif
	move.l	%sp, (%a0)		/* *save = our stack pointer */

	movea.l	%a1, %sp		/* adopt the other thread's stack */
#ifdef __HAVE_68881__
	fmove.l	(%sp)+, %fpcr		/* its FP control register */
	.cfi_adjust_cfa_offset -4
	fmovem.x (%sp)+, %fp2-%fp7	/* its FP registers */
	.cfi_adjust_cfa_offset -72
#endif
	movem.l	(%sp)+, %d2-%d7/%a2-%a6	/* its integer registers */
	.cfi_adjust_cfa_offset -44
	rts				/* resume where it called us */
	.cfi_endproc
	.size	__green_arch_switch, .-__green_arch_switch

/*
 * First code a new thread runs: __green_arch_make left entry in a2 and
 * its argument in d2.  The return column (24, the pc in m68k DWARF
 * numbering) is marked undefined so debuggers and unwinders stop here.
 */
	.type	__green_arch_start, @function
	.p2align 2
__green_arch_start:
	.cfi_startproc
	.cfi_undefined 24
	suba.l	%a6, %a6		/* outermost frame: no frame pointer chain */
	move.l	%d2, -(%sp)		/* entry's argument, on the stack */
	jsr	(%a2)			/* entry(arg): never returns */
	illegal				/* an entry that returns traps here */
	.cfi_endproc
	.size	__green_arch_start, .-__green_arch_start

/*
 * void *__green_arch_make(void *top, void (*entry)(void *), void *arg)
 *
 * A pointer is returned in a0; GCC's m68k SVR4 convention copies it to
 * d0 as well, for callers that did not see a prototype.
 */
	.globl	__green_arch_make
	.hidden	__green_arch_make
	.type	__green_arch_make, @function
	.p2align 2
__green_arch_make:
	.cfi_startproc
	move.l	4(%sp), %d0
	andi.l	#-16, %d0		/* 16-align the top (4 would do) */
	movea.l	%d0, %a0
	clr.l	-(%a0)			/* a zero word above the first frame */
	lea	__green_arch_start, %a1
	move.l	%a1, -(%a0)		/* return address slot -> trampoline */
	moveq	#4, %d1			/* a6, a5, a4, a3: zero */
1:	clr.l	-(%a0)
	dbf	%d1, 1b			/* (dbf counts d1+1 times: 5 words, a6..a2) */
	move.l	8(%sp), (%a0)		/* a2 = entry (overwrites the fifth zero) */
	moveq	#4, %d1			/* d7..d3: zero */
2:	clr.l	-(%a0)
	dbf	%d1, 2b
	move.l	12(%sp), -(%a0)		/* d2 = arg */
#ifdef __HAVE_68881__
	moveq	#17, %d1		/* fp2-fp7: 18 zero words = +0.0 each */
3:	clr.l	-(%a0)
	dbf	%d1, 3b
	clr.l	-(%a0)			/* fpcr: round to nearest, extended, no traps */
#endif
	move.l	%a0, %d0		/* the saved stack pointer, in a0 and d0 */
	rts
	.cfi_endproc
	.size	__green_arch_make, .-__green_arch_make

	.section .note.GNU-stack,"",@progbits
