/*
 * memcpy.S — memcpy for x86_64 with SSE2 moves (every x86_64 CPU has them).
 *
 * musl's x86_64 memcpy is `rep movsq` with single-byte `movsb` steps to
 * align the destination and to finish the last 1-7 bytes.  A string
 * instruction costs tens of cycles to start, so its copies of a few to a
 * few hundred bytes, which are most of what a server's formatting and
 * buffering make (docs/servers.md), cost several times the moves.  This
 * one copies
 *
 *   0-3 bytes      the first, the second and the last byte
 *   4-16           two overlapping words of 4 or 8 bytes (first, last)
 *   17-32          two overlapping 16-byte vectors
 *   33-64          four: two from the start, two from the end
 *   65-2047        the first 16 bytes unaligned, then 64-byte steps of
 *                  aligned stores, and the last 64 bytes (read first)
 *   2048 and up    `rep movsb`, which CPUs with fast strings (ERMS,
 *                  FSRM) run at the speed of the memory
 *
 * Every source byte is read before any byte of the destination is
 * written only within one step, which is all memcpy promises.  memmove
 * (musl's x86_64 memmove.s) copies forwards through __memcpy_fwd, which
 * must be right when the destination lies below an overlapping source:
 * here that is `rep movsb`, which the CPU defines to move byte by byte
 * from the low end.
 *
 * void *memcpy(void *dst (rdi), const void *src (rsi), size_t n (rdx))
 */
	.text
	.globl	memcpy
	.type	memcpy, @function
	.p2align 4
memcpy:
	.cfi_startproc
	mov	%rdi, %rax
	cmp	$16, %rdx
	jbe	.Lupto16
	cmp	$32, %rdx
	ja	.Lover32
	movdqu	(%rsi), %xmm0
	movdqu	-16(%rsi,%rdx), %xmm1
	movdqu	%xmm0, (%rdi)
	movdqu	%xmm1, -16(%rdi,%rdx)
	ret

.Lupto16:
	cmp	$8, %edx
	jb	.Lbelow8
	mov	(%rsi), %rcx
	mov	-8(%rsi,%rdx), %r8
	mov	%rcx, (%rdi)
	mov	%r8, -8(%rdi,%rdx)
	ret
.Lbelow8:
	cmp	$4, %edx
	jb	.Lbelow4
	mov	(%rsi), %ecx
	mov	-4(%rsi,%rdx), %r8d
	mov	%ecx, (%rdi)
	mov	%r8d, -4(%rdi,%rdx)
	ret
.Lbelow4:
	test	%edx, %edx
	jz	.Lret
	movzbl	(%rsi), %ecx
	movzbl	-1(%rsi,%rdx), %r8d
	cmp	$2, %edx
	jb	1f
	movzbl	1(%rsi), %r9d
	mov	%r9b, 1(%rdi)
1:	mov	%cl, (%rdi)
	mov	%r8b, -1(%rdi,%rdx)
.Lret:
	ret

.Lover32:
	cmp	$64, %rdx
	ja	.Lover64
	movdqu	(%rsi), %xmm0
	movdqu	16(%rsi), %xmm1
	movdqu	-32(%rsi,%rdx), %xmm2
	movdqu	-16(%rsi,%rdx), %xmm3
	movdqu	%xmm0, (%rdi)
	movdqu	%xmm1, 16(%rdi)
	movdqu	%xmm2, -32(%rdi,%rdx)
	movdqu	%xmm3, -16(%rdi,%rdx)
	ret

.Lover64:
	cmp	$2048, %rdx
	jae	.Lstring
	movdqu	-64(%rsi,%rdx), %xmm4	/* the last 64 bytes, stored last */
	movdqu	-48(%rsi,%rdx), %xmm5
	movdqu	-32(%rsi,%rdx), %xmm6
	movdqu	-16(%rsi,%rdx), %xmm7
	lea	-64(%rdi,%rdx), %r8	/* where they go */
	movdqu	(%rsi), %xmm0		/* the first 16, unaligned */
	movdqu	%xmm0, (%rdi)
	lea	16(%rdi), %rcx		/* rcx: the first 16-aligned address */
	and	$-16, %rcx		/*      above rdi, 1-16 bytes on */
	sub	%rdi, %rsi		/* rsi: src - dst, so rcx+rsi reads */
	cmp	%r8, %rcx
	jae	2f
1:	movdqu	(%rcx,%rsi), %xmm0
	movdqu	16(%rcx,%rsi), %xmm1
	movdqu	32(%rcx,%rsi), %xmm2
	movdqu	48(%rcx,%rsi), %xmm3
	movdqa	%xmm0, (%rcx)
	movdqa	%xmm1, 16(%rcx)
	movdqa	%xmm2, 32(%rcx)
	movdqa	%xmm3, 48(%rcx)
	add	$64, %rcx
	cmp	%r8, %rcx
	jb	1b
2:	movdqu	%xmm4, (%r8)
	movdqu	%xmm5, 16(%r8)
	movdqu	%xmm6, 32(%r8)
	movdqu	%xmm7, 48(%r8)
	ret

.Lstring:
	mov	%rdx, %rcx
	rep movsb
	ret
	.cfi_endproc
	.size	memcpy, .-memcpy

/* void *__memcpy_fwd(void *dst, const void *src, size_t n): forwards,
 * byte by byte as the CPU defines `rep movsb`, for memmove */
	.globl	__memcpy_fwd
	.hidden	__memcpy_fwd
	.type	__memcpy_fwd, @function
	.p2align 4
__memcpy_fwd:
	.cfi_startproc
	mov	%rdi, %rax
	mov	%rdx, %rcx
	rep movsb
	ret
	.cfi_endproc
	.size	__memcpy_fwd, .-__memcpy_fwd

	.section .note.GNU-stack,"",@progbits
