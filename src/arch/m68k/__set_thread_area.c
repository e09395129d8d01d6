/*
 * __set_thread_area.c — where green's libc keeps the m68k thread pointer,
 * in place of musl's src/thread/__set_thread_area.c.
 *
 * Stock musl on m68k keeps the thread pointer in the kernel's thread area
 * and asks for it with a system call on every read.  All green threads run
 * on one kernel thread, so one word of the libc serves instead: whatever
 * the switch last stored there is the running thread's thread pointer
 * (__green_arch_set_tp, arch.h).  musl's __get_tp (musl/pthread_arch.h)
 * and the compiler's __m68k_read_tp (__m68k_read_tp.S) both load it.
 *
 * musl calls this once, from __init_tp at start-up, before anything reads
 * the thread pointer (static_init_tls, inside __libc_start_main and so
 * before green's init hook and main).  The kernel is told too, so that
 * whatever asks it directly (a debugger, code that makes the system call
 * itself) sees the initial thread's TCB; nothing in the libc asks.  A
 * fork child inherits the word with the rest of memory.
 */
#include "pthread_impl.h"

#ifndef GREEN_TP_WORD
#error "compile with -iquote src/arch/m68k/musl (musl.am): musl's own pthread_arch.h was found"
#endif

hidden uintptr_t __green_tp;

int __set_thread_area(void *p)
{
	__green_tp = (uintptr_t)p;
	__syscall(SYS_set_thread_area, p);
	return 0;
}
