/*
 * handswitch.S — the least a context switch can be, for bench/fastpath.c
 * to set green's yield beside: save the callee-saved registers on the
 * current stack, store its stack pointer, load the other's, restore its
 * registers, return into it.  No scheduler, no libc state, no FP control
 * words.  One per CPU; a CPU without one here gets "n/a" in the table.
 *
 *   void hand_switch(void **save, void *load)
 */
#if defined(__x86_64__)
	.text
	.globl	hand_switch
	.type	hand_switch, @function
hand_switch:
	pushq	%rbp
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	movq	%rsp, (%rdi)		/* *save = our stack pointer */
	movq	%rsi, %rsp		/* the other's */
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	ret
	.size	hand_switch, .-hand_switch
	.globl	hand_switch_available
	.data
hand_switch_available:
	.long	1
#endif
	.section .note.GNU-stack,"",@progbits
