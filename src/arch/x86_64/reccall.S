/*
 * reccall.S — the way from an inline system call to the recorder
 * (src/core/record/) while a run is recorded or replayed.
 *
 * musl/syscall_arch.h makes the libc's and green's system calls in line;
 * with green-record or green-replay on, each goes to the recorder's C
 * function __green_rec_syscall instead.  Called from C, that function
 * would make every function with an inline system call a caller, and
 * GCC would save the callee-saved registers in the prologue of each,
 * taken or not: ten to fourteen instructions on every read and write of
 * the fast paths (docs/fastpaths.md).  So the call is made from
 * assembly, with the system call's own registers:
 *
 *   in    rax the number; rdi, rsi, rdx, r10, r8, r9 the arguments
 *   out   rax the result
 *   lost  rcx and r11 (as by the instruction), the flags, the vector
 *         and x87 registers (syscall_arch.h declares them in the asm
 *         statement, so the compiler keeps nothing there across it)
 *   kept  every other register: the arguments too, as the instruction
 *         keeps them (saved here), so that the compiler may keep its
 *         values in them across either way of making the call
 *
 * The caller's asm steps over the red zone before its `call` (a leaf
 * function may keep 128 bytes below its stack pointer): this frame's
 * call-frame information says so, CFA 136 above the stack pointer at
 * entry, so that gdb unwinds through it to the caller (a replay stopped
 * in the recorder).  The stack pointer is aligned here for the C call,
 * whatever the caller's was.
 *
 *   __green_rec_trampoline   (hidden)
 */
#if defined __CET__ && (__CET__ & 1)
#define ENDBR endbr64
#else
#define ENDBR
#endif

	.text
	.globl	__green_rec_trampoline
	.hidden	__green_rec_trampoline
	.type	__green_rec_trampoline, @function
	.p2align 4
__green_rec_trampoline:
	.cfi_startproc
	/* the return address at rsp, the caller's stack pointer 128 above it */
	.cfi_def_cfa rsp, 136
	.cfi_offset 16, -136		/* the return address column */
	ENDBR
	push	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_offset rbp, -144
	mov	%rsp, %rbp
	.cfi_def_cfa_register rbp
	push	%rdi			/* kept for the caller, and where gdb finds them */
	.cfi_offset rdi, -152
	push	%rsi
	.cfi_offset rsi, -160
	push	%rdx
	.cfi_offset rdx, -168
	push	%r10
	.cfi_offset r10, -176
	push	%r8
	.cfi_offset r8, -184
	push	%r9
	.cfi_offset r9, -192
	and	$-16, %rsp
	sub	$8, %rsp
	push	%r9			/* the 7th argument: a6 */
	mov	%r8, %r9		/* a5 */
	mov	%r10, %r8		/* a4 */
	mov	%rdx, %rcx		/* a3 */
	mov	%rsi, %rdx		/* a2 */
	mov	%rdi, %rsi		/* a1 */
	mov	%rax, %rdi		/* the number */
	call	__green_rec_syscall
	mov	-8(%rbp), %rdi
	mov	-16(%rbp), %rsi
	mov	-24(%rbp), %rdx
	mov	-32(%rbp), %r10
	mov	-40(%rbp), %r8
	mov	-48(%rbp), %r9
	.cfi_restore rdi
	.cfi_restore rsi
	.cfi_restore rdx
	.cfi_restore r10
	.cfi_restore r8
	.cfi_restore r9
	leave
	.cfi_def_cfa rsp, 136
	.cfi_restore rbp
	ret
	.cfi_endproc
	.size	__green_rec_trampoline, .-__green_rec_trampoline

	.section .note.GNU-stack,"",@progbits

#if defined __CET__ && (__CET__ & 1)
/* GNU_PROPERTY_X86_FEATURE_1_AND: IBT, as context.S */
	.section .note.gnu.property,"a"
	.p2align 3
	.long	4
	.long	16
	.long	5
	.asciz	"GNU"
	.long	0xc0000002
	.long	4
	.long	1
	.p2align 3
#endif
