/*
 * x86_64 context switch and thread start (System V AMD64 ABI).
 *
 * A saved context is the stack pointer left by __green_arch_switch; the
 * frame it points at holds what the ABI makes callee-saved:
 *
 *   offset  slot                       restored into
 *   0x00    MXCSR (4 bytes)            SSE control/status
 *   0x04    x87 control word (2 bytes) x87 FPU control
 *   0x08    r15                        r15
 *   0x10    r14                        r14
 *   0x18    r13                        r13  (arg of a new thread's entry)
 *   0x20    r12                        r12  (entry of a new thread)
 *   0x28    rbx                        rbx
 *   0x30    rbp                        rbp
 *   0x38    return address             rip  (via ret)
 *
 * Everything else (rax, rcx, rdx, rsi, rdi, r8-r11, xmm*, flags) is
 * caller-saved: the C caller has already spilled what it needs.  The
 * MXCSR control bits and the x87 control word are per-thread state by
 * the ABI ("callee-saved" control fields), so a thread that changed its
 * rounding mode keeps it across switches.  They are reloaded only when
 * they differ from the outgoing thread's, which is rare.
 *
 * CET.  Built with -fcf-protection (__CET__ bit 0), every entry point
 * begins with endbr64, so the indirect-branch tracking (IBT) of a
 * program built the same way holds through green's switch, and the
 * object says so in its .note.gnu.property (the linker keeps a
 * program's IBT marking only if every object has it).  Shadow stacks
 * (bit 1) are not claimed: the switch moves the stack pointer to
 * another thread's stack but not the shadow-stack pointer, so with a
 * shadow stack enabled the first `ret` into another thread would fault.
 * Leaving the property out makes the linker drop the program's SHSTK
 * marking instead (docs/ports.md).
 */
#if defined __CET__ && (__CET__ & 1)
#define ENDBR endbr64
#else
#define ENDBR
#endif

	.text

/* void __green_arch_switch(void **save (rdi), void *load (rsi)) */
	.globl	__green_arch_switch
	.hidden	__green_arch_switch
	.type	__green_arch_switch, @function
	.p2align 4
__green_arch_switch:
	.cfi_startproc
	ENDBR
	pushq	%rbp			/* callee-saved integer registers ... */
	.cfi_adjust_cfa_offset 8
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	pushq	%r12
	.cfi_adjust_cfa_offset 8
	pushq	%r13
	.cfi_adjust_cfa_offset 8
	pushq	%r14
	.cfi_adjust_cfa_offset 8
	pushq	%r15
	.cfi_adjust_cfa_offset 8
	subq	$8, %rsp		/* ... and a slot for the FP control state */
	.cfi_adjust_cfa_offset 8
	stmxcsr	(%rsp)			/* save SSE control/status */
	fnstcw	4(%rsp)			/* save x87 control word */
	movq	%rsp, (%rdi)		/* *save = our stack pointer */
	movl	(%rsp), %eax		/* keep our MXCSR and x87 CW at hand ... */
	movzwl	4(%rsp), %edx

	movq	%rsi, %rsp		/* adopt the other thread's stack */
	cmpl	(%rsp), %eax		/* ... loading the control registers is */
	je	1f			/* slow (about 15 ns for both), so load */
	ldmxcsr	(%rsp)			/* its SSE control/status only if it differs */
1:	cmpw	4(%rsp), %dx
	je	2f
	fldcw	4(%rsp)			/* its x87 control word, likewise */
2:	addq	$8, %rsp
	.cfi_adjust_cfa_offset -8
	popq	%r15			/* its callee-saved registers */
	.cfi_adjust_cfa_offset -8
	popq	%r14
	.cfi_adjust_cfa_offset -8
	popq	%r13
	.cfi_adjust_cfa_offset -8
	popq	%r12
	.cfi_adjust_cfa_offset -8
	popq	%rbx
	.cfi_adjust_cfa_offset -8
	popq	%rbp
	.cfi_adjust_cfa_offset -8
	ret				/* resume where it called us */
	.cfi_endproc
	.size	__green_arch_switch, .-__green_arch_switch

/*
 * First code a new thread runs: __green_arch_make left entry in r12 and
 * its argument in r13.  rip is marked undefined so debuggers and
 * unwinders stop here instead of walking into garbage.
 */
	.type	__green_arch_start, @function
	.p2align 4
__green_arch_start:
	.cfi_startproc
	.cfi_undefined rip
	ENDBR				/* reached by ret, not an indirect branch: marked anyway */
	xorl	%ebp, %ebp		/* outermost frame: no frame pointer chain */
	movq	%r13, %rdi		/* entry's argument */
	callq	*%r12			/* entry(arg): never returns */
	ud2				/* an entry that returns traps here */
	.cfi_endproc
	.size	__green_arch_start, .-__green_arch_start

/* void *__green_arch_make(void *top (rdi), void (*entry)(void *) (rsi), void *arg (rdx)) */
	.globl	__green_arch_make
	.hidden	__green_arch_make
	.type	__green_arch_make, @function
	.p2align 4
__green_arch_make:
	.cfi_startproc
	ENDBR
	movq	%rdi, %rax
	andq	$-16, %rax		/* 16-align the top */
	subq	$16, %rax		/* rsp after the trampoline's ret: 16-aligned */
	leaq	__green_arch_start(%rip), %rcx
	movq	%rcx, -8(%rax)		/* return address slot -> trampoline */
	movq	$0, -16(%rax)		/* rbp */
	movq	$0, -24(%rax)		/* rbx */
	movq	%rsi, -32(%rax)		/* r12 = entry */
	movq	%rdx, -40(%rax)		/* r13 = arg */
	movq	$0, -48(%rax)		/* r14 */
	movq	$0, -56(%rax)		/* r15 */
	movl	$0x1f80, -64(%rax)	/* MXCSR: all exceptions masked, round to nearest */
	movw	$0x037f, -60(%rax)	/* x87 CW: default (extended precision, masked) */
	movw	$0, -58(%rax)
	subq	$64, %rax		/* the saved stack pointer */
	ret
	.cfi_endproc
	.size	__green_arch_make, .-__green_arch_make

/* int __green_arch_fsgsbase: may wrfsbase move the thread pointer (arch.h)? */
	.bss
	.globl	__green_arch_fsgsbase
	.hidden	__green_arch_fsgsbase
	.type	__green_arch_fsgsbase, @object
	.p2align 2
__green_arch_fsgsbase:
	.zero	4
	.size	__green_arch_fsgsbase, 4

	.section .note.GNU-stack,"",@progbits

#if defined __CET__ && (__CET__ & 1)
/* GNU_PROPERTY_X86_FEATURE_1_AND: IBT only (above) */
	.section .note.gnu.property,"a"
	.p2align 3
	.long	4			/* name size: "GNU" */
	.long	16			/* descriptor size */
	.long	5			/* NT_GNU_PROPERTY_TYPE_0 */
	.asciz	"GNU"
	.long	0xc0000002		/* GNU_PROPERTY_X86_FEATURE_1_AND */
	.long	4			/* its data's size */
	.long	1			/* GNU_PROPERTY_X86_FEATURE_1_IBT */
	.p2align 3
#endif
