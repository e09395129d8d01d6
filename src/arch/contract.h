/*
 * The CPU contract: everything the core asks of a CPU port.
 *
 * A port lives in src/arch/<cpu>/ and provides context.S with the
 * two functions below plus arch.h with a handful of constants.  Nothing
 * else in green is CPU-specific; no #ifdef on a CPU appears outside
 * src/arch/.
 *
 * A context is just a saved stack pointer.  Switching pushes the
 * callee-saved registers (and the floating-point control state the ABI
 * says a callee must preserve) onto the current stack, stores the stack
 * pointer, loads the other one and pops the other thread's registers:
 * every other register is caller-saved by the C calling convention, so
 * the compiler has already spilled anything live across the call.
 */
#ifndef GREEN_ARCH_CONTRACT_H
#define GREEN_ARCH_CONTRACT_H

#include <stddef.h>
#include <stdint.h>

/*
 * Save the running context on its own stack, store its stack pointer in
 * *save, then resume the context whose stack pointer is load.  Returns
 * when some other thread switches back to *save.
 */
void __green_arch_switch(void **save, void *load);

/*
 * Prepare a fresh stack whose highest usable address is top (exclusive)
 * so that the first __green_arch_switch to the returned stack pointer
 * calls entry(arg) with a correctly aligned, unwind-terminated frame.
 * entry must never return; if it does, the trampoline traps.
 */
void *__green_arch_make(void *top, void (*entry)(void *), void *arg);

/*
 * arch.h also provides, as static inline functions:
 *
 *   struct green_arch_fp               the floating-point control state a
 *   __green_arch_fp_get(struct green_arch_fp *)   new thread inherits from
 *   __green_arch_fp_set(const struct green_arch_fp *)   its creator (POSIX):
 *                                      rounding, precision, exception masks;
 *                                      never the sticky exception flags
 *   __green_arch_tp_init(on_valgrind)  once, before the first of these:
 *   __green_arch_set_tp(void *tp)      move the thread pointer (per-thread
 *                                      TLS, core/stack/tls.c); valgrind may not
 *                                      emulate a user-mode instruction for it
 */
#include "arch.h"

/*
 * GREEN_ARCH_WAITS_ON_STACK, at file scope in a file whose functions
 * block in line (src/members/read.c, recvfrom.c; src/core/sched/sched.c,
 * switch.c), may reserve the
 * callee-saved registers there: the compiler then keeps what a wait
 * needs after its switch in the wait's stack frame, and the switch saves
 * the caller's registers once (a wait that used them pushed the
 * caller's in its prologue, and the switch pushed the wait's own).  A
 * port that leaves it undefined loses nothing.
 */
#ifndef GREEN_ARCH_WAITS_ON_STACK
#define GREEN_ARCH_WAITS_ON_STACK
#endif

/*
 * Compare *w with old and, if equal, store new; true if it stored.  It
 * need only be atomic against a signal handler on the same CPU (there is
 * one kernel thread: docs/sync.md), which any single instruction is; a
 * port whose compiler makes this one instruction without a bus lock
 * needs nothing here.  x86_64 does (arch.h): GCC's is `lock cmpxchg`.
 */
#ifndef GREEN_ARCH_HAS_CAS
static inline int __green_arch_cas(volatile uintptr_t *w, uintptr_t old, uintptr_t new)
{
	return __atomic_compare_exchange_n(w, &old, new, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}
#endif

/* A saved stack pointer minus its bias is the address it points at
 * (sparc64's %sp is 2047 below it); zero elsewhere. */
#ifndef GREEN_ARCH_STACK_BIAS
#define GREEN_ARCH_STACK_BIAS 0
#endif

/* Does the third argument of an SA_SIGINFO handler point at a ucontext_t
 * whose uc_sigmask the kernel restores at sigreturn?  (Not on SPARC.) */
#ifndef GREEN_ARCH_UC_HAS_MASK
#define GREEN_ARCH_UC_HAS_MASK 1
#endif

/*
 * The preemption entry is the SIGALRM handler (core/sched/tick.c), plain C on
 * every CPU.  A port built for the glibc overlay also defines
 * GREEN_ARCH_UC_PC(uc): the interrupted pc, from the third argument of an
 * SA_SIGINFO handler, so that a tick can tell the program's code from the
 * libc's (src/overlay/glibc.c).
 */

#endif
