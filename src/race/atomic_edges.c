/*
 * atomic_edges.c — the atomic operations of instrumented code (C11
 * <stdatomic.h>, C++ std::atomic, gcc's __atomic and __sync builtins),
 * which gcc turns into calls __tsan_atomicN_OP(addr, ..., order)
 * (docs/race.md), written once for both of their runtimes
 * (src/tsan/atomic-ops.h: how each operation is done).
 *
 * Each one is done inside the detector's no-preempt section, and
 * recorded as an atomic access (two atomic accesses never race; an atomic
 * and a plain one do).  Memory orders give edges through the variable's
 * clock:
 *
 *   acquire (consume, acquire, acq_rel, seq_cst loads and the load half
 *   of read-modify-writes) joins the variable's clock into the thread's;
 *   release (release, acq_rel, seq_cst stores and store halves) joins the
 *   thread's into the variable's.
 *
 * Approximations, each of which can hide a race but never invent one: a
 * release store joins rather than replaces the variable's clock, so a
 * relaxed store by another thread does not end the release sequence;
 * seq_cst is acquire plus release (no single total order is modelled).
 * Fences: a release fence makes the thread's later relaxed stores and
 * read-modify-writes release the clock it had at the fence; an acquire
 * fence acquires what the thread's relaxed loads since its last acquire
 * fence read.  atomic_signal_fence orders nothing between threads.
 */
#include <string.h>
#include "race.h"

#define MO(mo) ((mo) & 7)
#define IS_ACQ(mo) (MO(mo) == 1 || MO(mo) == 2 || MO(mo) == 4 || MO(mo) == 5)
#define IS_REL(mo) (MO(mo) == 3 || MO(mo) == 4 || MO(mo) == 5)

/* The edges and the record of one operation: rd/wr say which halves it
 * has; mo is the order of the halves that happened. */
static void event(const volatile void *a, unsigned size, int rd, int wr, int mo, const void *ret)
{
	struct race_thread *me = race_self();
	struct race_sync *s;
	__race_access(me, (uintptr_t)a, size, wr, 1, RACE_NODE_LAZY, __race_pc(ret));
	if (rd && (s = __race_sync((const void *)a, 0)))
		__race_vc_join(IS_ACQ(mo) ? &me->vc : &me->acq_pending, &s->vc);
	if (wr && IS_REL(mo)) {
		__race_vc_join(&__race_sync((const void *)a, 1)->vc, &me->vc);
		__race_tick(me);
	} else if (wr && me->fenced) {
		__race_vc_join(&__race_sync((const void *)a, 1)->vc, &me->rel_fence);
	}
}

void __tsan_atomic_thread_fence(int mo)
{
	struct race_thread *me;
	race_enter();
	me = race_self();
	if (IS_ACQ(mo)) {
		__race_vc_join(&me->vc, &me->acq_pending);
		me->acq_pending.n = 0;
	}
	if (IS_REL(mo)) {
		__race_vc_copy(&me->rel_fence, &me->vc);
		me->fenced = 1;
		__race_tick(me);
	}
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	race_leave();
}

void __tsan_atomic_signal_fence(int mo)
{
	(void)mo;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

/* the hooks of the shared entry points (src/tsan/atomic-ops.h): the
 * operation and its record in one of the detector's sections */
#define tsan_pre(a, unchanged) ((void)(unchanged), race_enter())
#define tsan_post(a, size, rd, wr, mo, ret) (event((a), (size), (rd), (wr), (mo), (ret)), race_leave())
#include "../tsan/atomic-ops.h"
TSAN_ATOMIC_ENTRY_POINTS
