/*
 * gate.S — the system-call gateway of green-record and green-replay
 * (src/core/record/).  While a run is recorded or replayed, Syscall User
 * Dispatch makes every system call made outside [__green_gate_start,
 * __green_gate_end) raise SIGSYS; the recorder's handler makes the call
 * itself, from here.  The signal return of every handler the recorder
 * installs is here too: rt_sigreturn is a system call like any other.
 *
 *   long __green_gate_call(long nr, long a, long b, long c, long d, long e, long f)
 *   __green_gate_sigaction_restore   the sa_restorer of the recorder's handlers
 *                          (gdb finds signal frames by "sigaction" in the name)
 */
	.section .text.green_gate,"ax",@progbits
	.globl __green_gate_start
	.hidden __green_gate_start
	.globl __green_gate_call
	.hidden __green_gate_call
	.type __green_gate_call,@function
	.p2align 4
__green_gate_start:
__green_gate_call:
	mov %rdi, %rax
	mov %rsi, %rdi
	mov %rdx, %rsi
	mov %rcx, %rdx
	mov %r8, %r10
	mov %r9, %r8
	mov 8(%rsp), %r9
	syscall
	ret
	.size __green_gate_call,.-__green_gate_call

/* long __green_gate_clone(flags, stack, ptid, ctid, tls, resume, child_r9):
 * a clone whose child shares the memory and starts on a stack of its own
 * (posix_spawn's): the child resumes where the program asked for the
 * clone, not in the recorder's handler. */
	.globl __green_gate_clone
	.hidden __green_gate_clone
	.type __green_gate_clone,@function
	.p2align 4
__green_gate_clone:
	push %r12
	mov %r9, %r12
	mov 16(%rsp), %r9
	mov %rcx, %r10
	mov $56, %eax
	syscall
	test %eax, %eax
	jnz 1f
	jmp *%r12
1:	pop %r12
	ret
	.size __green_gate_clone,.-__green_gate_clone

	.globl __green_gate_sigaction_restore
	.hidden __green_gate_sigaction_restore
	.type __green_gate_sigaction_restore,@function
	.p2align 4
	nop
__green_gate_sigaction_restore:
	movq $15, %rax  /* SYS_rt_sigreturn, as unwinders expect to find it */
	syscall
	ud2             /* the kernel checks the address after the syscall: inside */
	.size __green_gate_sigaction_restore,.-__green_gate_sigaction_restore
	.globl __green_gate_end
	.hidden __green_gate_end
__green_gate_end:
	.section .note.GNU-stack,"",@progbits
