/*
 * queue.c — queues of threads, linked through the threads.
 *
 * A thread is on at most one queue at a time (the run queue or the queue
 * of the one object it waits on), so one pair of links in the descriptor
 * serves them all, and every wait record lives in the descriptor — never
 * on a thread's stack, which for a copied-stack thread is not at its
 * address while the thread is parked.
 *
 * Wait queues are ordered by scheduling level (runq.h), FIFO within a
 * level: the highest-priority waiter of a mutex, condition variable,
 * semaphore or rwlock is woken first.  Insertion walks back from the
 * tail past lower levels only, so with equal priorities (the usual
 * case) a push is O(1) and the queue is plain FIFO.
 */
#include "base/gthread.h"
#include "sched/gsched.h"
#include "sched/runq.h"

/* t into q right after p (at the head when p is null). */
static void insert_after(struct gq *q, struct green_thread *p, struct green_thread *t)
{
	t->q = q;
	t->q_prev = p;
	t->q_next = p ? p->q_next : q->head;
	if (t->q_next) t->q_next->q_prev = t;
	else q->tail = t;
	if (p) p->q_next = t;
	else q->head = t;
}

/* __gq_push's general case (gsched.h): walk back from the tail past the
 * waiters of lower levels. */
hidden void __gq_insert(struct gq *q, struct green_thread *t)
{
	int l = green_level(t);
	struct green_thread *p = q->tail;

	while (p && green_level(p) < l) p = p->q_prev;
	insert_after(q, p, t);
}

/* t joins q ahead of the threads of its own level (behind higher ones):
 * a mutex waiter that was woken and lost the mutex goes back first. */
hidden void __gq_push_first(struct gq *q, struct green_thread *t)
{
	int l = green_level(t);
	struct green_thread *n = q->head;

	while (n && green_level(n) > l) n = n->q_next;
	insert_after(q, n ? n->q_prev : q->tail, t);
}

/* The first waiter, off the queue (__gq_pop, gsched.h, in line while
 * the head is a live thread).  A fork child's queues may still hold the
 * parent's other threads, which do not exist there (fork.c: magic 0):
 * they are dropped, never returned. */
hidden struct green_thread *__gq_pop_any(struct gq *q)
{
	struct green_thread *t;
	do {
		if (!q->head) return 0;
		t = gq_take_head(q);
	} while (!t->magic);
	return t;
}

hidden void __gq_remove(struct green_thread *t)
{
	if (t->q) gq_unlink(t);
}
