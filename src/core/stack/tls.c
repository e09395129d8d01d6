/*
 * tls.c — one thread control block per green thread.
 *
 * Design
 * ------
 * The libc keeps its per-thread state in a thread control block (TCB)
 * that the CPU's thread pointer addresses (%fs on x86_64; on m68k a
 * word of green's libc, src/arch/m68k/arch.h), and a program's
 * `__thread`/`_Thread_local` variables live in the static TLS block
 * laid out beside it.  Kernel threads each have their own; on one
 * kernel thread green provides them in one of two ways, chosen once,
 * when threads start (__green_tls_init):
 *
 *   shared    the program has no TLS segment.  Every green thread runs on
 *             the initial thread's TCB, and the fields the libc's inline
 *             code reads per thread (errno, the FILE-lock owner id, the
 *             locale) are bound shallowly: saved into the outgoing
 *             thread's descriptor and loaded from the incoming one's on
 *             every switch (green_tls_save/green_tls_load, the libc
 *             seam).  The per-thread state that only green's members
 *             reach (h_errno, the flockfile list, the dlerror message)
 *             lives in the descriptor in both ways, bound never.  A
 *             program without `__thread` pays nothing for the other way.
 *
 *   private   the program has a TLS segment.  Each green thread gets its
 *             own TCB and static TLS block, laid out exactly as the libc
 *             lays out a kernel thread's (musl: __copy_tls, .tdata copied,
 *             .tbss zero, the segment's alignment honoured), in the same
 *             allocation as its descriptor: at the top of its stack
 *             mapping for a separate stack, in the descriptor's heap block
 *             for a copied stack (never in its stack slot, so a
 *             `__thread` variable costs no page while its thread is
 *             parked and its stack unmapped).  The switch moves the thread pointer
 *             (__green_arch_set_tp: wrfsbase or arch_prctl on x86_64, a
 *             store on m68k) and binds nothing: every per-thread field
 *             of the libc is per thread by construction.
 *
 * The two are the same to the program: in both, errno and the rest are
 * per thread; only `__thread` needs the second.  gettid() keeps
 * answering the one kernel thread's id in both.
 *
 * A thread's descriptor records its TCB (t->tcb) and the thread-pointer
 * value that addresses it (t->tp); in shared mode both are the initial
 * thread's.  The switch tells the modes apart by __green_switch_kind
 * (gthread.h), which __green_tls_init sets once: one test per switch.
 *
 * An object loaded at run time (dlopen, green's libc.so) may bring TLS
 * of its own: dtv.c gives each thread its instance, in both modes.
 *
 * The glibc overlay cannot give a thread a TCB of glibc's without
 * writing into glibc's private state: there green_tls_bytes() refuses
 * a program with a TLS segment at its first pthread_create (docs/ports.md).
 */
#include "base/gthread.h"
#include "base/words.h"
#include "stack/gstack.h"
#include "base/valgrind-glue.h"

hidden size_t __green_tls_bytes;     /* a thread's TCB and TLS block; 0 when shared */

/* Threads start: choose the mode; the initial thread keeps the TCB the
 * libc set up for it.  0, or an error number (the overlay's refusal). */
hidden int __green_tls_init(void)
{
	int err = 0;
	__green_tls_bytes = green_tls_bytes(&err);
	__green_main.tcb = green_tcb_self();
	__green_main.tp = green_tp_of(__green_main.tcb);
	if (__green_tls_bytes) {
		__green_arch_tp_init(GREEN_ON_VALGRIND());
		__green_switch_kind |= GREEN_SWITCH_TP;   /* every switch moves the thread pointer */
	}
#ifdef GREEN_SHARED
	__green_dtv_init();   /* objects loaded from now on: dtv.c */
#endif
	return err;
}

/*
 * A new thread's own TCB, in the __green_tls_bytes of zeroed memory at
 * mem that its allocator reserved (green_tls_make, gstack.h, has the
 * shared case in line).
 */
hidden void __green_tls_make_own(struct green_thread *t, void *mem, struct green_thread *creator)
{
	t->tcb = green_tcb_make(mem, t, creator->tcb);
	t->tp = green_tp_of(t->tcb);
}
