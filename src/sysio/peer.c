/*
 * peer.c — both ends of a pipe or socket pair in one process: a write
 * wakes the reader itself.
 *
 * A thread that waits to read a pipe is woken when the multiplexer
 * (poll.c) next asks the kernel, at an idle wait or a tick.  When the
 * write that fills the pipe is this process's own, the writer already
 * knows what the kernel would say: pipe(), pipe2() and socketpair()
 * (src/members/) record each end as the other's peer in the table of
 * descriptors (fdtab.h), and a write that put data in (green_peer_wrote,
 * peer.h: write.c, fdio.c) wakes the threads waiting to read the peer.
 * (A read that makes room for the peer's writer does not: a writer
 * waits for a full pipe, a rarer wait, which the multiplexer ends as
 * before.)  Two threads that talk through a socket pair
 * then run in turn with no idle wait between them: an echo's round trip
 * is its four reads and writes, where the kernel's report was two
 * `pselect6` or `epoll_pwait2` calls more and their rounds
 * (docs/fastpaths.md, "The I/O path").
 *
 * The wake is a hint, as every wake of a descriptor's waiter is (io.c):
 * the woken thread tries its call again, and waits again if another
 * thread took the data first.  So a peer that is not the file it was
 * (a number closed and reused by a way green does not see) costs a
 * retry, never a lost wake-up: the waiters are registered with the
 * backend as before, and a write from anywhere else (another process
 * after fork, a dup'ed number, a raw system call) wakes them as before.
 *
 * Whose list.  Waiters are on the peer's list of nodes (fdtab.h): a
 * thread's own node stays there between its usual waits (io.h), and the
 * nodes of any other wait are linked for its length (epoll.c, poll.c),
 * so that the wake walks the peer's waiters alone.  A number's peer is
 * forgotten with the number (fdkind.c), on both ends.
 *
 * The hand-off.  A request after a reply hands the CPU to the thread
 * that will answer it: when the wake finds one reader, the only node on
 * the list, woken the usual way, nothing else runnable (level 0's queue
 * empty, no gate of the pick up: block.h), and the written end read
 * since a write there last came here (its turn byte, fdtab.h), the
 * writer joins the empty run queue and switches to the reader
 * (hand_off), which runs before the write returns.  The writer's own
 * read then usually finds the reply: one wait per round trip, not two.
 * A producer's end is never read and a second request follows no read,
 * so those writes wake as before and the reader runs at the writer's
 * next wait; and no thread runnable before the reader is passed.
 * (docs/io.md, "Pairs made here".)
 *
 *   writer                          reader (parked in read, on p's list)
 *   read(w) finds data: turn 1
 *   write(w) -> wake: turn 0, one
 *     plain reader, queue empty  ->  runs: its read, its reply, its
 *     (writer queued, RUNNABLE)       next read parks: the writer runs
 *   write returns; read(w) finds the reply: turn 1 ...
 */
/* <sys/epoll.h> brings musl's <endian.h>, whose byte-swap helpers GCC's
 * -Wparentheses dislikes (musl's headers are not system headers here) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wparentheses"
#include <sys/epoll.h>
#pragma GCC diagnostic pop
#include "base/gthread.h"
#include "base/section.h"
#include "sched/runq.h"
#include "sched/block.h"
#include "io.h"
#include "peer.h"

/* the hand-off's values across its switch in its frame (src/arch/contract.h) */
GREEN_ARCH_WAITS_ON_STACK

hidden void __green_fd_pair(int a, int b)
{
	struct green_fd *fa = green_fd(a), *fb = green_fd(b);

	if (!fa || !fb) return;
	fa->peer = (int)((char *)fb - (char *)fa);   /* a pipe2 or socketpair's ends: never one number */
	fb->peer = -fa->peer;
	fa->turn = fb->turn = 0;   /* neither end read yet */
	green_fd_used(a);
	green_fd_used(b);
}

/* Does node n wait to read? */
static inline int reading(const struct green_io_node *n)
{
	return (n->waiting & EPOLLIN) && n->t->state == GS_BLOCKED;   /* waiting: gthread.h */
}

static long hand_off(struct green_thread *t, long r);

/* May the wake of the thread reading on node n, woken the usual way,
 * hand it the CPU?  (The hand-off, above: the written end read since its
 * last write, n the last node on the list, nothing else runnable, no
 * gate of the pick up; tail: level 0's.) */
static inline int handing_off(const struct green_io_node *n, int turn, const struct green_thread *tail)
{
	return turn && !tail && !n->next && !(__green_yield_gate.any & GREEN_GATE_PICK);
}

/* The wake from node n on, any of its threads needing more than the
 * usual wake below (turn: the written end's, a hand-off may be made);
 * then the section's end.  Out of line, where calls are made, so that
 * the usual wake makes none and keeps no registers. */
static __attribute__((noinline)) long wake_rest(struct green_io_node *n, long r, int turn)
{
	for (; n; n = n->next) {
		if (!reading(n)) continue;
		if (green_sleeper_plain(n->t) && handing_off(n, turn, __green_runq.lv[0].tail)) {
			if (!__green_ticking) __green_tick_arm();   /* two threads may run: runq_ready's */
			return hand_off(n->t, r);
		}
		green_wake_sleeper(n->t);   /* runq.h */
	}
	GREEN_LEAVE();
	return r;
}

/* GREEN_LEAVE's slow call (section.h), r kept: __green_peer_wake ends its
 * section as GREEN_LEAVE does, with this call a jump, so that the usual
 * wake keeps no register for r across it */
static __attribute__((noinline)) long leave(long r)
{
	__green_leave();
	return r;
}

/* GREEN_LEAVE with r kept */
static inline long section_end(long r)
{
	green_barrier();
	if (!--__green_np && __green_pending.any) return leave(r);
	return r;
}

/* The writer hands the CPU to t, the one reader its write woke, and
 * runs again when t stops: it joins level 0, which is empty, and t runs
 * at once (its wait over with 0, as the usual wake leaves it).  Then the
 * section's end, r kept. */
__attribute__((optimize("no-tree-slp-vectorize")))
static __attribute__((noinline)) long hand_off(struct green_thread *t, long r)
{
	struct green_thread *self = __green_cur;

	green_sleeper_unwait_parked(t);   /* runq.h: its wait over, runnable */
	self->state = GS_RUNNABLE;
	runq_push_behind_unlinked(self, 0, &__green_runq.lv[0], 0);   /* running: links 0 */
	green_switch(self, t);   /* switch.h */
	return section_end(r);
}

/* r passes through, so that a write's fast path ends with a jump here
 * (write.c).  The usual wake, in line: a thread runq.h calls plain (level
 * 0, no deadline, in the usual wait: on no queue), while ticks run and
 * no preempted thread is at the tail, joins level 0's tail as
 * green_wake_sleeper would put it; every other goes to wake_rest.  Not
 * vectorized: the queue's head and tail are two plain stores, where GCC
 * made a vector of t and stored it, three instructions. */
__attribute__((optimize("no-tree-slp-vectorize")))
hidden long __green_peer_wake(struct green_fd *p, struct green_fd *w, long r)
{
	struct gq *q = &__green_runq.lv[0];
	int turn;

	if (p->lgen != __green_epoll_lists) return r;   /* its list is from before a fork */
	turn = w->turn;   /* read since its last write: a request after a reply */
	w->turn = 0;
	GREEN_ENTER();
	if (__builtin_expect(!__green_ticking, 0)) return wake_rest(p->head, r, turn);   /* the ticks to start */
	for (struct green_io_node *n = p->head; n; n = n->next) {
		struct green_thread *t = n->t, *tail = q->tail;

		if (!reading(n)) continue;
		if (__builtin_expect(!green_sleeper_plain(t) || (tail && tail->computing), 0))
			return wake_rest(n, r, 0);   /* no hand-off: t not plain, or others runnable */
		if (handing_off(n, turn, tail)) return hand_off(t, r);
		green_sleeper_unwait_parked(t);   /* runq.h: blocked, so its wake is its park's 0 */
		runq_push_behind_unlinked(t, 0, q, tail);   /* on no queue: links 0 */
	}
	return section_end(r);
}
