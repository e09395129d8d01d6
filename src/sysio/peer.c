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
 * so that the wake walks the peer's waiters alone.  A number's peer is forgotten with the number (fdkind.c), on
 * both ends.
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
#include "io.h"
#include "peer.h"

hidden void __green_fd_pair(int a, int b)
{
	struct green_fd *fa = green_fd(a), *fb = green_fd(b);

	if (!fa || !fb) return;
	fa->peer = (unsigned)b + 1;
	fb->peer = (unsigned)a + 1;
	green_fd_used(a);
	green_fd_used(b);
}

/* Does node n wait to read? */
static inline int reading(const struct green_io_node *n)
{
	return (n->waiting & EPOLLIN) && n->t->state == GS_BLOCKED;   /* waiting: gthread.h */
}

/* The wake from node n on, any of its threads needing more than the
 * usual wake below; then the section's end.  Out of line, where calls
 * are made, so that the usual wake makes none and keeps no registers. */
static __attribute__((noinline)) long wake_rest(struct green_io_node *n, long r)
{
	for (; n; n = n->next)
		if (reading(n)) green_wake_sleeper(n->t);   /* runq.h */
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

/* r passes through, so that a write's fast path ends with a jump here
 * (write.c).  The usual wake, in line: a thread runq.h calls plain (level
 * 0, no deadline, in the usual wait: on no queue), while ticks run and
 * no preempted thread is at the tail, joins level 0's tail as
 * green_wake_sleeper would put it; every other goes to wake_rest.  Not
 * vectorized: the queue's head and tail are two plain stores, where GCC
 * made a vector of t and stored it, three instructions. */
__attribute__((optimize("no-tree-slp-vectorize")))
hidden long __green_peer_wake(struct green_fd *p, long r)
{
	struct gq *q = &__green_runq.lv[0];

	if (p->lgen != __green_epoll_lists) return r;   /* its list is from before a fork */
	GREEN_ENTER();
	if (__builtin_expect(!__green_ticking, 0)) return wake_rest(p->head, r);   /* the ticks to start */
	for (struct green_io_node *n = p->head; n; n = n->next) {
		struct green_thread *t = n->t, *tail = q->tail;

		if (!reading(n)) continue;
		if (__builtin_expect(!green_sleeper_plain(t) || (tail && tail->computing), 0))
			return wake_rest(n, r);
		green_sleeper_unwait_parked(t);   /* runq.h: blocked, so its wake is its park's 0 */
		runq_push_behind_unlinked(t, 0, q, tail);   /* on no queue: links 0 */
	}
	green_barrier();
	if (!--__green_np && __green_pending.any) return leave(r);
	return r;
}
