/*
 * poll.c — the multiplexer: waiting for the kernel when no thread can run.
 *
 * The scheduler calls __green_poll_wait(deadline) only when the run
 * queue is empty, with the nearest timer deadline; the tick calls
 * __green_poll_check() (the same with a zero timeout).  Nothing here runs
 * on a switch or a yield: a busy yield makes no system call.
 *
 * With select or poll, one round gathers what every thread on the
 * kernel-wait queue (io.c) and every thread in the usual wait (io.h:
 * on no queue, found on the list of every linked node) waits for into
 * one array of struct pollfd — the union of all waits, one entry per
 * descriptor and waiter — asks a
 * backend to wait on it, and wakes each thread with at least one ready
 * entry.  A woken thread retries its call; it never trusts the readiness.
 *
 *   select   pselect6 over three fd_sets.  It cannot name a descriptor
 *            >= FD_SETSIZE, nor a wait for hang-up alone, and fails as
 *            a whole (EBADF) when one descriptor was closed under its
 *            waiter.  In those cases the round is handed to
 *   poll     which handles any descriptor number and marks a closed one
 *            POLLNVAL.  So descriptors >= FD_SETSIZE work, through poll.
 *   epoll    keeps registrations across waits (epoll.c): a round is one
 *            wait and costs O(ready); nothing is gathered.
 *
 * The default is select, switching to epoll for good once the wait set
 * is large (AUTO_EPOLL_AT, below); GREEN_IO names one instead.
 *
 * The arrays are grown by waiters as they park, in the same no-preempt
 * section: the multiplexer never allocates, so the tick may call it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE      /* POLLRDHUP */
#endif
#include <poll.h>
#include <signal.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/mman.h>
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "fdwait.h"
#include "idlewait.h"
#include "sync/addrwait.h"
#include "sched/cputime.h"
#include "base/gconfig.h"
#include "sched/runq.h"
#include "io.h"
#include "ioq.h"
#include "base/ktime.h"

/* a backend's wait: at most kts (a timespec as the kernel takes it, two
 * 64-bit words: the *_time64 calls' on 32-bit CPUs, every call's on
 * 64-bit ones; 0: forever), with the signal mask `mask` while it waits
 * (0: the mask stays as it is) */
typedef int backend_fn(struct pollfd *, size_t, long long *kts, const uint64_t *mask);
_Static_assert(sizeof(long) == 4 || sizeof(struct timespec) == 2 * sizeof(long long),
               "poll.c: a 64-bit CPU's timespec is two 64-bit words");

static struct pollfd *set;
static struct green_thread **owner;
static size_t cap;
hidden size_t __green_io_room;   /* io.h's usual wait: see lean_room() */
static void lean_room(void);

/*
 * Inside GREEN_ENTER, so the room cannot change between this check and
 * the waiter's `__green_io_nfds += n`.  The arrays grow by mmap, never
 * malloc: a malloc here may park the caller on malloc's lock, and a second
 * waiter could then realloc the same old block.
 */
hidden int __green_io_reserve(size_t n)
{
	size_t c = cap ? cap : 64;
	char *p;

	if (n <= cap) return 0;
	while (c < n) c *= 2;
	p = mmap(0, c * (sizeof *set + sizeof *owner), PROT_READ | PROT_WRITE,
	         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) return ENOMEM;
	if (cap) {
		memcpy(p, set, cap * sizeof *set);
		memcpy(p + c * sizeof *set, owner, cap * sizeof *owner);
		munmap(set, cap * (sizeof *set + sizeof *owner));
	}
	set = (struct pollfd *)p;
	owner = (struct green_thread **)(p + c * sizeof *set);
	cap = c;
	lean_room();
	return 0;
}

/* Threads wait on the kernel: on __green_io_q, or in the usual wait
 * (io.c), which counts its descriptor in __green_io_nfds alone. */
static int io_waiting(void)
{
	return __green_io_nfds || !gq_empty(&__green_io_q);
}

hidden int __green_poll_waiters(void)
{
	return io_waiting();
}

static short key_events(int ev)
{
	return (ev & GREEN_IN ? POLLIN : 0) | (ev & GREEN_OUT ? POLLOUT : 0) |
	       (ev & GREEN_PRI ? POLLPRI : 0);
}

static size_t add(size_t n, int fd, short events, struct green_thread *t)
{
	if (fd < 0 || n == cap) return n;
	set[n].fd = fd;
	set[n].events = events;
	set[n].revents = 0;
	owner[n] = t;
	return n + 1;
}

/* The union of all kernel waits: the kernel-wait queue's, then the
 * usual waits (io.h), which queue on nothing, from the list of every
 * linked node (a thread's own node stays there between its waits). */
static size_t gather(void)
{
	struct green_thread *t;
	size_t n = 0;

	for (t = __green_io_q.head; t; t = t->q_next) {
		if (t->wait == GW_POLL) {
			const struct io_set *s = t->wait_obj;
			for (unsigned long i = 0; i < s->n; i++)
				n = add(n, s->fds[i].fd, s->fds[i].events, t);
		} else {
			n = add(n, io_key_fd(t->wait_obj), key_events(io_key_ev(t->wait_obj)), t);
		}
	}
	for (struct green_io_node *l = __green_io_linked; l; l = l->lnext) {
		t = l->t;
		if (l == &t->io_node && green_in_usual_wait(t))
			n = add(n, io_key_fd(t->wait_obj), key_events(io_key_ev(t->wait_obj)), t);
	}
	return n;
}

#define RD (POLLIN | POLLRDNORM | POLLRDBAND | POLLRDHUP)
#define WR (POLLOUT | POLLWRNORM | POLLWRBAND)

/* The words of an fd_set that name descriptors below nfds: the kernel
 * reads and writes no others (the FD_SETSIZE bits are 16 words on a
 * 64-bit CPU, and zeroing all three sets was 192 instructions of every
 * round that waits on a few low numbers) */
#define SET_WORD_BITS (8 * sizeof(unsigned long))
#define SET_WORDS(nfds) (((size_t)(nfds) + SET_WORD_BITS - 1) / SET_WORD_BITS)

static void zero_words(fd_set *s, size_t words)
{
	unsigned long *b = (unsigned long *)s;   /* an fd_set is an array of longs */
	for (size_t i = 0; i < words; i++) b[i] = 0;
}

static int select_wait(struct pollfd *p, size_t n, long long *kts, const uint64_t *mask)
{
	fd_set r, w, e;
	int max = -1, k;
	size_t i, words;

	for (i = 0; i < n; i++) {
		if (p[i].fd >= FD_SETSIZE || !(p[i].events & (RD | WR | POLLPRI)))
			return -ERANGE;
		if (p[i].fd > max) max = p[i].fd;
	}
	words = SET_WORDS(max + 1);
	zero_words(&r, words);
	zero_words(&w, words);
	zero_words(&e, words);
	for (i = 0; i < n; i++) {
		if (p[i].events & RD) FD_SET(p[i].fd, &r);
		if (p[i].events & WR) FD_SET(p[i].fd, &w);
		if (p[i].events & POLLPRI) FD_SET(p[i].fd, &e);
	}
	k = __syscall(GREEN_SYS_PSELECT6, max + 1, &r, &w, &e, kts,
	              mask ? ((long[]){ (long)mask, _NSIG / 8 }) : 0);
	if (k <= 0) return k;
	for (i = 0; i < n; i++)
		p[i].revents = (FD_ISSET(p[i].fd, &r) ? POLLIN : 0) |
		               (FD_ISSET(p[i].fd, &w) ? POLLOUT : 0) |
		               (FD_ISSET(p[i].fd, &e) ? POLLPRI : 0);
	return k;
}

static int poll_wait(struct pollfd *p, size_t n, long long *kts, const uint64_t *mask)
{
	return __syscall(GREEN_SYS_PPOLL, p, n, kts, mask, _NSIG / 8);
}

static backend_fn *const backend[] = { select_wait, poll_wait };

/*
 * The backend in use: GREEN_IO's (config.c), or select switching to
 * epoll for good when a wait would bring the wait set (descriptors over
 * all waiters) to AUTO_EPOLL_AT.  The figure is the crossover measured
 * by bench/iomux.c (docs/io.md#choosing-a-backend).  The m68k and SPARC
 * ports never switch by themselves.
 */
#ifdef GREEN_ARCH_AUTO_EPOLL_AT
#define AUTO_EPOLL_AT GREEN_ARCH_AUTO_EPOLL_AT
#else
#define AUTO_EPOLL_AT 0
#endif
static const size_t auto_epoll_at = AUTO_EPOLL_AT;   /* 0: never by itself */
hidden int __green_io_mode;
static int io_auto = -1;
static void give_up_epoll(void);

static void choose(void)
{
	int c = __green_config.io_backend;
	__green_io_mode = c == GREEN_IO_AUTO ? GREEN_IO_SELECT : c;
	io_auto = c == GREEN_IO_AUTO && auto_epoll_at;
	if (c == GREEN_IO_EPOLL && __green_epoll_start()) give_up_epoll();
	lean_room();
}

/* How many descriptors the usual wait (io.h) may bring the wait set to
 * with select or poll: as many as the arrays hold, short of the size
 * that switches to epoll; none before a backend is chosen. */
static void lean_room(void)
{
	size_t r = cap;
	if (io_auto < 0) r = 0;
	else if (io_auto && r > auto_epoll_at - 1) r = auto_epoll_at - 1;
	__green_io_room = r;
}

/* No epoll (the kernel refused an instance or a registration): poll,
 * which names any descriptor, for good.  The waiters parked meanwhile
 * made no room in poll's arrays (a round may not allocate, and this
 * may be the tick's): they are woken to retry their calls, and make it
 * as they wait again. */
static void give_up_epoll(void)
{
	__green_epoll_stop();
	__green_io_mode = GREEN_IO_POLL;
	io_auto = 0;
	lean_room();
	for (struct green_thread *t = __green_io_q.head, *next; t; t = next) {
		next = t->q_next;
		__green_wake(t, 0);
	}
	__green_epoll_wake_usual();
}

hidden int __green_io_arm(struct green_io_node *n, size_t k)
{
	int r;

	if (io_auto < 0) choose();
	if (io_auto && __green_io_nfds + k >= auto_epoll_at) {
		io_auto = 0;
		lean_room();
		__green_io_mode = GREEN_IO_EPOLL;
		if (__green_epoll_start()) give_up_epoll();
	}
	if (__green_io_mode == GREEN_IO_EPOLL) {
		r = __green_epoll_park(n, k);
		if (r != ENOSYS) return r;
		give_up_epoll();
	}
	/* select and poll: room in the round's arrays; the nodes on their
	 * descriptors' lists, where a peer's write finds them (peer.c) */
	if ((r = __green_io_reserve(__green_io_nfds + k))) return r;
	for (size_t i = 0; i < k; i++)
		if (green_fd(n[i].fd)) {
			green_epoll_link(&n[i], &__green_fds[n[i].fd]);
			green_fd_used(n[i].fd);
		}
	return 0;
}

static void wake_ready(size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (set[i].revents) green_wake_sleeper(owner[i]);   /* runq.h */
}

/* One round: wait at most kts (0: forever), with mask as a backend's,
 * and wake the ready. */
hidden unsigned long __green_io_rounds;

static int mux_round(long long *kts, const uint64_t *mask)
{
	size_t n;
	int r = -ERANGE;

	GREEN_ENTER();
	__green_io_rounds++;
	if (__green_io_mode == GREEN_IO_EPOLL) {
		r = __green_epoll_round(kts, mask);
		if (r != -ENOSYS) goto out;
		give_up_epoll();
	}
	n = gather();
	for (size_t b = __green_io_mode == GREEN_IO_POLL; b < sizeof backend / sizeof *backend; b++) {
		r = backend[b](set, n, kts, mask);
		if (r != -ERANGE && r != -EBADF) break;
	}
	if (r > 0) wake_ready(n);
out:
	GREEN_LEAVE();
	return r;
}

hidden void __green_poll_check(void)
{
	long long zero[2] = { 0, 0 };
	if (io_waiting()) mux_round(zero, 0);
}

static int idle_wait(uint64_t deadline, const uint64_t *mask);

/* Idle: what the wait costs is charged to no thread (cputime.c). */
hidden int __green_poll_wait(uint64_t deadline, const uint64_t *mask)
{
	int r;
	if (green_cpu_on()) __green_cpu_charge();
	r = idle_wait(deadline, mask);
	if (green_cpu_on()) __green_cpu_skip();
	return r;
}

static int idle_wait(uint64_t deadline, const uint64_t *mask)
{
	long long kts[2] = { 1 << 30, 0 }, *kp = mask ? 0 : kts;   /* none: about 34 years */
	int r;

	if (deadline != GREEN_NO_DEADLINE) {
		uint64_t now = __green_now();
		uint64_t d = deadline > now ? deadline - now : 0;
		kts[0] = d / 1000000000u;
		kts[1] = d % 1000000000u;
		kp = kts;
	}
	if (!io_waiting() && __green_pshared_waiting())
		return __green_pshared_idle(deadline, mask);  /* pshared.c: always with a mask */
	if (!mask) {
		/* no mask to swap in: the handler of a signal that comes from
		 * here on cuts the timeout to 0 (green_idle_cut, gsched.h), and the
		 * last look at the caught signals is after it can */
		__green_idle_kts = kts;
		green_barrier();
		if (green_pending_is(GREEN_PEND_SIG)) {
			__green_idle_kts = 0;
			return -EINTR;
		}
	}
	if (!io_waiting()) r = __syscall(GREEN_SYS_PPOLL, 0, 0, kp, mask, _NSIG / 8);
	else r = mux_round(kp, mask);
	__green_idle_kts = 0;
	return r;
}

/* Can the idle wait go without a signal mask (sched.c)?  Not with only
 * shared words to wait on (a futex wait takes no timeout to cut), nor
 * with an epoll whose wait counts milliseconds in a register. */
hidden int __green_poll_maskless(void)
{
	if (!io_waiting()) return !__green_pshared_waiting();
	return __green_io_mode != GREEN_IO_EPOLL || __green_epoll_maskless();
}
