/*
 * handswitch.S — the least a context switch can be, for bench/fastpath.c
 * to set green's yield beside: save the callee-saved registers on the
 * current stack, store its stack pointer, load the other's, restore its
 * registers, return into it.  No scheduler, no libc state, no FP control
 * words.  One per CPU; a CPU without one here gets "n/a" in the table.
 *
 * hand_switch_fp adds what the x86-64 psABI also makes callee-saved: the
 * MXCSR's control bits and the x87 control word.  No instruction moves
 * them but through memory, so it stores both below the registers, and
 * loads the other context's only where they differ (loading them is
 * slow), as green's switch does (src/arch/x86_64/context.S): the least
 * a switch can be that keeps a thread's rounding mode its own.  Its
 * context has the two words at the saved stack pointer, below the six
 * registers.
 *
 *   void hand_switch(void **save, void *load)
 *   void hand_switch_fp(void **save, void *load)
 */
#if defined(__x86_64__)
	.macro	push_callee_saved
	pushq	%rbp
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	.endm
	.macro	pop_callee_saved
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	.endm

	.text
	.globl	hand_switch
	.type	hand_switch, @function
hand_switch:
	push_callee_saved
	movq	%rsp, (%rdi)		/* *save = our stack pointer */
	movq	%rsi, %rsp		/* the other's */
	pop_callee_saved
	ret
	.size	hand_switch, .-hand_switch

	.globl	hand_switch_fp
	.type	hand_switch_fp, @function
hand_switch_fp:
	push_callee_saved
	subq	$8, %rsp
	stmxcsr	(%rsp)			/* the MXCSR and the x87 control word */
	fnstcw	4(%rsp)
	movq	%rsp, (%rdi)
	movl	(%rsp), %eax
	movzwl	4(%rsp), %edx
	movq	%rsi, %rsp
	cmpl	(%rsp), %eax		/* the other's, loaded where they differ */
	je	1f
	ldmxcsr	(%rsp)
1:	cmpw	4(%rsp), %dx
	je	2f
	fldcw	4(%rsp)
2:	addq	$8, %rsp
	pop_callee_saved
	ret
	.size	hand_switch_fp, .-hand_switch_fp
	.globl	hand_switch_available
	.data
hand_switch_available:
	.long	1
#endif
	.section .note.GNU-stack,"",@progbits
