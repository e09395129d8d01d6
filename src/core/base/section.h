/*
 * section.h — no-preempt sections (GREEN_ENTER/GREEN_LEAVE) and the
 * pending work the outermost GREEN_LEAVE does.
 */
#ifndef GREEN_SECTION_H
#define GREEN_SECTION_H
#include "base/seam.h"
#include "base/words.h"

/*
 * No-preempt depth: a plain counter, never a signal mask (Marovich 2.4).
 * The tick handler that finds it non-zero sets a flag of __green_pending
 * and returns; leaving the outermost section acts on the flags.
 *
 * Only the running thread changes the depth.  A handler that interrupts
 * it between the load and the store of a step leaves the depth as it
 * found it (one that switches threads restores it when it switches
 * back), so the step needs no atomic instruction.
 *
 * What the outermost GREEN_LEAVE must do is a byte per kind of work in
 * __green_pending (words.h: each flag's writers and readers), tested
 * with one load of `any`.  A flag is cleared before the work it asks
 * for is done (green_pending_take), so a handler that sets it again
 * meanwhile asks for work that is still to come.
 */
extern hidden int __green_np;
#define green_pending_set(f)   ((void)(__green_pending.flag[f] = 1))
#define green_pending_clear(f) ((void)(__green_pending.flag[f] = 0))
/* A yield satisfies both a pending yield and a used quantum: one store
 * clears the two (a handler that sets either one instruction later asks
 * for a yield still to come, as with a flag cleared alone).  Stored only
 * when one is set, which is rare: the section's end loads all the flags
 * as one word next, and a load that spans a narrower store just made
 * must wait for that store (docs/fastpaths.md). */
_Static_assert(GREEN_PEND_YIELD % 2 == 0 && GREEN_PEND_SLICE == GREEN_PEND_YIELD + 1,
               "the flags a yield clears are one aligned pair");
#define green_pending_clear_yield() do { \
	if (__green_pending.pair[GREEN_PEND_YIELD / 2]) __green_pending.pair[GREEN_PEND_YIELD / 2] = 0; \
} while (0)
#define green_pending_is(f)    (__green_pending.flag[f] != 0)
/* clear flag f, before doing its work; was it set? */
static inline int green_pending_take(int f)
{
	if (!__green_pending.flag[f]) return 0;
	__green_pending.flag[f] = 0;
	return 1;
}
hidden void __green_preempt_now(void);          /* preempt.c: the pending work */
hidden void __green_leave(void);                /* preempt.c: pending work, then a scheduling point */

/*
 * The counter is a plain int (a step is one `addl`/`subl` to memory on
 * x86_64, not a load, an add and a store), ordered by a compiler barrier
 * on each side, inside the section: the barrier makes the compiler store
 * the new depth before the section's first access and after its last,
 * so a handler always reads the depth of the code it interrupted (and
 * leaves it as it found it, above).  The state the section protects
 * cannot move across the barriers either.
 */
#define green_barrier() __asm__ __volatile__("" ::: "memory")
/* bare depth steps: no scheduling point on the way out */
#define green_np_up() do { __green_np++; green_barrier(); } while (0)
#define green_np_down() do { green_barrier(); __green_np--; } while (0)
#define GREEN_ENTER() green_np_up()
/* The end of a section: the depth down, and at the outermost, if work
 * is pending, slow() does it (preempt.c).  GREEN_LEAVE's slow() adds
 * GREEN_SCHED's scheduling point; a yield's end and a new thread's first
 * code, which are scheduling points already, use __green_preempt_now. */
#define green_section_end(slow) do { \
	green_barrier(); \
	if (!--__green_np && __green_pending.any) slow(); \
} while (0)
#define GREEN_LEAVE() green_section_end(__green_leave)

#endif
