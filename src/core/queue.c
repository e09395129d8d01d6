/*
 * queue.c — FIFO queues of threads, linked through the threads.
 *
 * A thread is on at most one queue at a time (the run queue or the queue
 * of the one object it waits on), so one pair of links in the descriptor
 * serves them all, and every wait record lives in the descriptor — never
 * on a thread's stack, which for a copied-stack thread is not at its
 * address while the thread is parked.
 */
#include "green.h"

hidden void __gq_push(struct gq *q, struct green_thread *t)
{
	t->q = q;
	t->q_next = 0;
	t->q_prev = q->tail;
	if (q->tail) q->tail->q_next = t;
	else q->head = t;
	q->tail = t;
}

hidden struct green_thread *__gq_pop(struct gq *q)
{
	struct green_thread *t = q->head;
	if (!t) return 0;
	q->head = t->q_next;
	if (q->head) q->head->q_prev = 0;
	else q->tail = 0;
	t->q = 0;
	t->q_next = t->q_prev = 0;
	return t;
}

hidden void __gq_remove(struct green_thread *t)
{
	struct gq *q = t->q;
	if (!q) return;
	if (t->q_prev) t->q_prev->q_next = t->q_next;
	else q->head = t->q_next;
	if (t->q_next) t->q_next->q_prev = t->q_prev;
	else q->tail = t->q_prev;
	t->q = 0;
	t->q_next = t->q_prev = 0;
}
