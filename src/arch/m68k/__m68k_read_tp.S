/*
 * __m68k_read_tp — the thread pointer, for the compiler's TLS accesses;
 * in place of musl's src/thread/m68k/__m68k_read_tp.s, a system call
 * (get_thread_area).  Here it is a load of the libc's word
 * (__set_thread_area.c), which the switch keeps equal to the running
 * green thread's thread pointer.
 *
 * GCC calls this as an ordinary library function returning a pointer
 * (m68k_call_m68k_read_tp: a "pure" libcall whose value it takes from
 * a0), so the call may clobber d0-d1, a0-a1, fp0-fp1 and the condition
 * codes; this touches d0, a0 and the condition codes only, as the system
 * call version does.  The value goes to both a0 and d0, as musl's does.
 * Absolute addressing, as the rest of the libc: green-cc links static,
 * position-dependent programs.
 */
	.text
	.globl	__m68k_read_tp
	.type	__m68k_read_tp, @function
	.p2align 2
__m68k_read_tp:
	.cfi_startproc
	move.l	__green_tp, %d0
	movea.l	%d0, %a0
	rts
	.cfi_endproc
	.size	__m68k_read_tp, .-__m68k_read_tp

	.section .note.GNU-stack,"",@progbits
