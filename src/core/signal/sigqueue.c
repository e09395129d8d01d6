/*
 * sigqueue.c — pending signals with their siginfo, queued as Linux does.
 *
 * A pending set (one per thread, one for the process, one for signals
 * caught inside a no-preempt section) is a bit mask, bit s-1 for signal
 * s, plus a FIFO of instances, each with its siginfo:
 *
 *   standard signal   pending at most once: sent again while pending, it
 *                     is merged into the pending one (its first info stays);
 *   real-time signal  every instance queues (signals 32..64, the kernel's
 *                     SIGRTMIN up), up to RLIMIT_SIGPENDING instances in
 *                     all; past that a sigqueue()/pthread_kill() fails with
 *                     EAGAIN, while a kill()'s (SI_USER) is only marked
 *                     pending, without its info — both as Linux does.
 *
 * Taking signal s takes its oldest instance; s stays pending while
 * instances are left.  Which signal to take (the lowest number) is the
 * caller's choice.
 *
 * The catcher queues from inside a signal handler, where malloc is not
 * safe: nodes come from a free list refilled by mmap, a chunk at a time,
 * and are never unmapped.
 */
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include "base/gthread.h"
#include "signal/gsignal.h"

#define FIRST_RT 32
#define CHUNK 256

static struct green_signode *free_nodes;

/* The signals made pending since sigaction last looked (a superset of
 * those pending anywhere): setting SIG_IGN walks the threads to drop
 * pending instances only for these, so that 10,000 threads each ignoring
 * SIGPIPE do not walk 10,000 threads each (sigcalls.c). */
hidden uint64_t __green_sigpend_seen;
static unsigned long queued, limit;

static struct green_signode *node_get(void)
{
	struct green_signode *n;
	struct rlimit rl;

	if (!limit) {
		limit = getrlimit(RLIMIT_SIGPENDING, &rl) || rl.rlim_cur == RLIM_INFINITY ||
		        rl.rlim_cur > (1UL << 30) ? 1UL << 30 : rl.rlim_cur;
	}
	if (queued >= limit) return 0;
	if (!free_nodes) {
		n = mmap(0, CHUNK * sizeof *n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (n == MAP_FAILED) return 0;
		for (int i = 0; i < CHUNK; i++) {
			n[i].next = free_nodes;
			free_nodes = &n[i];
		}
	}
	n = free_nodes;
	free_nodes = n->next;
	n->next = 0;
	queued++;
	return n;
}

static void node_put(struct green_signode *n)
{
	n->next = free_nodes;
	free_nodes = n;
	queued--;
}

/* Inside GREEN_ENTER (or the catcher).  0, or EAGAIN when a real-time
 * signal found the queue full and was not a kill()'s. */
hidden int __green_sigq_put(uint64_t *set, struct green_sigl *l, const siginfo_t *si)
{
	int s = si->si_signo;
	struct green_signode *n;

	if (s < FIRST_RT && (*set & BIT(s))) return 0;       /* merged */
	if (!(n = node_get())) {
		if (s >= FIRST_RT && si->si_code != SI_USER) return EAGAIN;
		*set |= BIT(s);
		__green_sigpend_seen |= BIT(s);
		return 0;
	}
	n->si = *si;
	if (l->tail) l->tail->next = n;
	else l->head = n;
	l->tail = n;
	*set |= BIT(s);
	__green_sigpend_seen |= BIT(s);
	return 0;
}

/* Inside GREEN_ENTER: take the oldest instance of s (pending in *set). */
hidden void __green_sigq_take(uint64_t *set, struct green_sigl *l, int s, siginfo_t *si)
{
	struct green_signode **p = &l->head, *n, *prev = 0;

	while ((n = *p) && n->si.si_signo != s) {
		prev = n;
		p = &n->next;
	}
	if (n) {
		*p = n->next;
		if (l->tail == n) l->tail = prev;
		*si = n->si;
		node_put(n);
		for (n = *p; n && n->si.si_signo != s; n = n->next) ;
	} else {
		/* queued without its info (the queue was full) */
		memset(si, 0, sizeof *si);
		si->si_signo = s;
		si->si_code = SI_USER;
	}
	if (!n) *set &= ~BIT(s);   /* no instance left */
}

/* Inside GREEN_ENTER: discard every instance of the signals in which. */
hidden void __green_sigq_drop(uint64_t *set, struct green_sigl *l, uint64_t which)
{
	struct green_signode **p = &l->head, *n;

	*set &= ~which;
	l->tail = 0;
	while ((n = *p)) {
		if (which & BIT(n->si.si_signo)) {
			*p = n->next;
			node_put(n);
		} else {
			l->tail = n;
			p = &n->next;
		}
	}
}
