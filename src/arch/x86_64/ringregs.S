/*
 * ringregs.S — the registers of a ring's checkpoint (src/core/record/ring.c):
 * green-record --last forks a checkpoint that later writes its memory
 * into the trace; a replay restores that memory and resumes in the
 * checkpoint's call to __green_ring_save, which then returns 1.
 *
 *   long __green_ring_save(long ctx[8])   rbx rbp r12-r15, the caller's
 *                                         rsp and return address; 0
 *   void __green_ring_jump(const long ctx[8])   back into that call: 1
 */
	.text
	.globl __green_ring_save
	.hidden __green_ring_save
	.type __green_ring_save,@function
__green_ring_save:
	mov %rbx, (%rdi)
	mov %rbp, 8(%rdi)
	mov %r12, 16(%rdi)
	mov %r13, 24(%rdi)
	mov %r14, 32(%rdi)
	mov %r15, 40(%rdi)
	lea 8(%rsp), %rdx
	mov %rdx, 48(%rdi)
	mov (%rsp), %rdx
	mov %rdx, 56(%rdi)
	xor %eax, %eax
	ret
	.size __green_ring_save, .-__green_ring_save

	.globl __green_ring_jump
	.hidden __green_ring_jump
	.type __green_ring_jump,@function
__green_ring_jump:
	mov (%rdi), %rbx
	mov 8(%rdi), %rbp
	mov 16(%rdi), %r12
	mov 24(%rdi), %r13
	mov 32(%rdi), %r14
	mov 40(%rdi), %r15
	mov 56(%rdi), %rdx
	mov 48(%rdi), %rsp
	mov $1, %eax
	jmp *%rdx
	.size __green_ring_jump, .-__green_ring_jump

	.section .note.GNU-stack,"",@progbits
