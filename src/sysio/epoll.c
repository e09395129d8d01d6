/*
 * epoll.c — the epoll backend of the multiplexer: registrations kept
 * across waits, so an idle round costs O(ready), not O(waiters).
 *
 * select and poll are told the whole wait set at every round, and the
 * kernel and poll.c both walk it.  Here each descriptor is registered in
 * one epoll instance when a thread first waits on it, and stays
 * registered after the wait: a thread that reads, finds nothing and waits
 * again on the same socket (every connection thread of a server) makes no
 * system call to say so.  A round is one epoll_pwait2, and each event
 * leads through a table indexed by descriptor number to the threads
 * waiting on that descriptor.
 *
 * Who waits where.  Every wait on the kernel (io.c) comes with nodes: a
 * single-descriptor wait uses the one in its thread (green_thread.io_node),
 * a poll()/select() set one per entry, in the set's heap copy; never on a
 * stack, which copied stacks move.  A waiter links its nodes onto the
 * lists of their descriptors before it parks (with select and poll too,
 * for peer.c) and unlinks them when it runs again, but for a thread's
 * own node after the usual wait (io.h), which stays for the next; a
 * woken thread that has not run yet is still linked, and its interest
 * still counts.
 *
 * Level-triggered, lazily narrowed.  A registration asks for the union
 * of what the descriptor's waiters ever wanted since it was last
 * narrowed, and is widened (EPOLL_CTL_MOD) when a waiter wants more.  It
 * is narrowed only when the kernel reports an event nobody linked wants
 * (EPOLL_CTL_MOD to what is still wanted, or EPOLL_CTL_DEL when nobody is
 * linked): a descriptor whose thread went away costs one event and one
 * call, and a busy descriptor costs nothing per wait.  EPOLLONESHOT
 * would need an EPOLL_CTL_MOD to re-arm at every wait, one system call
 * per wait more than this.  Edge-triggered registrations would lose an
 * edge that arrived while nobody was linked.
 *
 * Keeping registrations means knowing when a number stops naming the
 * file registered under it.  The kernel forgets a registration only when
 * the open file itself goes, not when one of its numbers is closed: after
 * close(n) of a descriptor that was also dup'ed, or inherited by a child,
 * the instance would report events of the old file as n for ever.  So:
 *
 *   close, dup2, dup3 over n (green's hooks, before the call): the
 *       registration is deleted while n still names the file, and n's
 *       waiters are woken (EBADF; 0 for sets, whose retry sees POLLNVAL);
 *   close, close_range, dup2, dup3 made with syscall(), after the call:
 *       n is marked unregistered and its waiters woken to retry;
 *   anything else (inline assembly): each registration carries a serial
 *       number in its event data, and an event whose serial is not the
 *       one recorded for its number is stale; the instance is then
 *       rebuilt (closed, created, every waiter's descriptor registered
 *       again), the one way to be rid of a registration whose number no
 *       longer names its file.
 *
 * The instance's own descriptor is close-on-exec.  The program may close
 * it by number (a daemon's closefrom loop): through close, dup2, dup3 or
 * syscall() the backend lets the number go and makes a new instance at
 * the next wait; an epoll_pwait2 that fails with EBADF or EINVAL (the
 * number closed some other way, or reused) does the same.  A fork child
 * shares the parent's instance, so any change it made would change the
 * parent's: it closes its copy and makes its own when a thread of it
 * waits (__green_epoll_reset, with the rest of the child's reset).
 *
 * epoll refuses a regular file or a directory (EPERM): such a descriptor
 * is always ready, as select and poll report it, so the waiter retries
 * at once.  A descriptor that is not open (EBADF) is the waiter's error.
 * When the kernel cannot take more (ENOMEM, ENOSPC for
 * max_user_watches, EMFILE for the instance), the backend answers
 * ENOSYS and poll.c goes on with poll.
 *
 * A descriptor's registration and its list of waiters are fields of its
 * entry in the table of descriptors (fdtab.h), beside what fdkind.c
 * knows of it, so a read's fast path and a wait look at one entry.  A
 * number beyond the table cannot be registered: the backend gives way to
 * poll.  The fields are valid only for the current generation: a fork
 * child's lists of ghost threads and an abandoned instance's
 * registrations are forgotten by a bump, without a pass over the table.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE      /* POLLRDHUP */
#endif
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
/* <sys/epoll.h> brings musl's <endian.h>, whose byte-swap helpers GCC's
 * -Wparentheses dislikes (musl's headers are not system headers here) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wparentheses"
#include <sys/epoll.h>
#pragma GCC diagnostic pop
#include <sys/mman.h>
#include "base/gthread.h"
#include "sched/gsched.h"
#include "base/gconfig.h"
#include "sched/runq.h"
#include "fdtab.h"
#include "io.h"
#include "ioq.h"

#ifndef SYS_epoll_pwait2
#define SYS_epoll_pwait2 441      /* Linux 5.11; the same number on every port */
#endif

/* The instance's number (-1: none), its generation (every entry whose
 * inst is not this one is unregistered: no entry's is once the number is
 * lost) and the lists' generation: io.h reads them for the usual wait. */
hidden int __green_epoll_fd = -1;
hidden unsigned __green_epoll_inst = 1, __green_epoll_lists = 1;
#define epfd __green_epoll_fd
#define instance __green_epoll_inst
#define lists __green_epoll_lists
static unsigned serial;

#define EVENTS 256
#define ALWAYS (EPOLLERR | EPOLLHUP)   /* the kernel reports these unasked */

static struct green_io_node *head(const struct green_fd *e)
{
	return e->lgen == lists ? e->head : 0;
}

static int registered(const struct green_fd *e)
{
	return green_epoll_registered(e);
}

/* Every descriptor of the nodes has an entry (fdtab.h): a number beyond
 * the table cannot be registered, and the backend gives way to poll. */
static int in_table(const struct green_io_node *n, size_t k)
{
	for (size_t i = 0; i < k; i++)
		if (n[i].fd >= 0 && !green_fd(n[i].fd)) return 0;
	return 1;
}

/* The number is not ours any more (closed or replaced by the program):
 * forget it and every registration, never close it. */
static void lost(void)
{
	epfd = -1;
	instance++;
}

static long ctl(int op, int fd, unsigned events, unsigned ser)
{
	struct epoll_event ev = { .events = events, .data.u64 = (unsigned)fd | (uint64_t)ser << 32 };
	return __syscall(SYS_epoll_ctl, epfd, op, fd, &ev);
}

/* Register fd for mask (a first registration, or a change).  0 or an
 * errno. */
static int set(int fd, struct green_fd *e, unsigned mask)
{
	long r;

	if (registered(e)) {
		r = ctl(EPOLL_CTL_MOD, fd, mask, e->serial);
		if (r != -ENOENT) goto done;
		/* the kernel forgot it: the file was closed behind our back */
	}
	e->serial = ++serial;
	r = ctl(EPOLL_CTL_ADD, fd, mask, e->serial);
	if (r == -EEXIST)       /* the same file under the same number, from before */
		r = ctl(EPOLL_CTL_MOD, fd, mask, e->serial);
done:
	if (r) {
		e->inst = 0;
		return -r;
	}
	e->inst = instance;
	e->reg = mask;
	return 0;
}

static void unregister(int fd, struct green_fd *e)
{
	if (!registered(e)) return;
	__syscall(SYS_epoll_ctl, epfd, EPOLL_CTL_DEL, fd, &(struct epoll_event){ 0 });
	e->inst = 0;
}

static void node_link(struct green_io_node *n)
{
	green_epoll_link(n, &__green_fds[n->fd]);
}

static void node_unlink(struct green_io_node *n)
{
	green_epoll_unlink(n, &__green_fds[n->fd]);
}

hidden void __green_epoll_unpark(struct green_io_node *n, size_t k)
{
	for (size_t i = 0; i < k; i++) {
		if (n[i].linked) node_unlink(&n[i]);
		n[i].waiting = 0;
	}
}

/* Take every node off e's list (its descriptor closed or forgotten): the
 * waiters among them were woken; the others stayed after a usual wait. */
static void drop_list(struct green_fd *e)
{
	struct green_io_node *n = head(e), *next;

	for (; n; n = next) {
		next = n->next;
		green_io_unlist(n);   /* io.h */
	}
	e->head = 0;
}

/* A thread exits (create.c): its node off the list it stayed on. */
hidden void __green_io_thread_exit(struct green_thread *t)
{
	if (t->io_node.linked) node_unlink(&t->io_node);
}

/* Link one waiter's nodes and make its descriptors' registrations cover
 * what it waits for.  0, or an errno (the nodes are then unlinked). */
static int arm(struct green_io_node *n, size_t k)
{
	int r = 0, ready = 0, bad = 0;

	for (size_t i = 0; i < k && !r; i++) {
		struct green_fd *e;
		unsigned want;
		if (n[i].fd < 0) continue;
		e = &__green_fds[n[i].fd];
		node_link(&n[i]);
		green_fd_used(n[i].fd);
		want = n[i].events;
		if (registered(e) && (e->reg & want) == want) continue;
		switch (set(n[i].fd, e, registered(e) ? e->reg | want : want)) {
		case 0: break;
		case EPERM: ready = 1; break;       /* a regular file: always ready */
		case EBADF: bad = 1; break;
		default: r = ENOSYS; break;         /* ENOMEM, ENOSPC: the kernel is full */
		}
	}
	if (!r && !ready && !bad) return 0;
	__green_epoll_unpark(n, k);
	return r ? r : ready ? EAGAIN : EBADF;
}

static int create(void)
{
	long fd = __syscall(SYS_epoll_create1, EPOLL_CLOEXEC);
	if (fd < 0) return ENOSYS;
	epfd = fd;
	instance++;
	return 0;
}

static void thread_nodes(struct green_thread *t, struct green_io_node **n, size_t *k)
{
	if (t->wait == GW_POLL) {
		const struct io_set *s = t->wait_obj;
		*n = s->nodes;
		*k = s->n;
	} else {
		*n = &t->io_node;
		*k = 1;
	}
}

/* Register t's descriptors again; one always ready or closed wakes it
 * to retry.  0 or ENOSYS. */
static int rearm(struct green_thread *t)
{
	struct green_io_node *n;
	size_t k;
	int r;

	thread_nodes(t, &n, &k);
	for (size_t i = 0; i < k; i++)   /* unlinked, still waiting */
		if (n[i].linked) node_unlink(&n[i]);
	r = arm(n, k);
	if (r == ENOSYS) return r;
	if (r) __green_wake(t, t->wait == GW_POLL ? 0 : r == EBADF ? EBADF : 0);
	return 0;
}

/* Register what every parked thread waits for (a new instance, or the
 * backend just switched on).  The usual waits are on no queue: the list
 * of all threads finds them (a rebuild is rare). */
static int register_all(void)
{
	for (struct green_thread *t = __green_io_q.head, *next; t; t = next) {
		next = t->q_next;
		if (rearm(t)) return ENOSYS;
	}
	for (struct green_thread *t = __green_all; t; t = t->all_next)
		if (green_in_usual_wait(t) && rearm(t)) return ENOSYS;
	return 0;
}

hidden void __green_epoll_wake_usual(void)
{
	for (struct green_thread *t = __green_all; t; t = t->all_next)
		if (green_in_usual_wait(t)) __green_wake(t, 0);
}

/* A new instance with every waiter registered: at the first wait, after
 * the number was lost, or to be rid of a stale registration. */
static int rebuild(void)
{
	if (epfd >= 0) __syscall(SYS_close, epfd);
	lost();
	if (create()) return ENOSYS;
	return register_all();
}

hidden int __green_epoll_start(void)
{
	for (struct green_thread *t = __green_io_q.head; t; t = t->q_next) {
		struct green_io_node *n;
		size_t k;
		thread_nodes(t, &n, &k);
		if (!in_table(n, k)) return ENOSYS;
	}
	return rebuild();
}

hidden int __green_epoll_park(struct green_io_node *n, size_t k)
{
	if (!in_table(n, k)) return ENOSYS;
	if (epfd < 0 && rebuild()) return ENOSYS;
	return arm(n, k);
}

hidden void __green_epoll_stop(void)
{
	if (epfd >= 0) __syscall(SYS_close, epfd);
	lost();
}

/* A linked node's thread in its wait now: the node waiting (a thread's
 * own node stays linked between waits), the thread not yet woken (a
 * woken one is waiting until it runs). */
static int wants(const struct green_io_node *n)
{
	return n->waiting && n->t->state == GS_BLOCKED;
}

/* One event: wake the waiters it concerns; narrow the registration if
 * it reported what nobody linked wants. */
static void dispatch(int fd, struct green_fd *e, unsigned got)
{
	unsigned want = 0;
	struct green_io_node *n;

	for (n = head(e); n; n = n->next) {
		if (!n->waiting) continue;
		want |= n->events;
		if ((got & (n->events | ALWAYS)) && n->t->state == GS_BLOCKED)
			green_wake_sleeper(n->t);   /* runq.h, in line */
	}
	/* nobody waits: a descriptor that stays ready (or in error, which
	 * the kernel reports unasked) would end every round at once */
	if (!want) unregister(fd, e);
	else if (got & ~(want | ALWAYS) && set(fd, e, want)) unregister(fd, e);
}

static int no_pwait2;   /* the kernel has no epoll_pwait2 (before Linux 5.11) */

static int kwait(struct epoll_event *ev, long long *kts, const uint64_t *mask)
{
	long r;
	int ms = -1;

	if (!no_pwait2) {
		r = __syscall(SYS_epoll_pwait2, epfd, ev, EVENTS, kts, mask, _NSIG / 8);
		if (r != -ENOSYS) return r;
		no_pwait2 = 1;
	}
	/* before Linux 5.11: milliseconds, rounded up so as not to wake early */
	if (kts) ms = kts[0] > 1000000 ? 1000000000 : kts[0] * 1000 + (kts[1] + 999999) / 1000000;
	return __syscall(SYS_epoll_pwait, epfd, ev, EVENTS, ms, mask, _NSIG / 8);
}

/* Can the idle wait go without a signal mask (poll.c)?  Not when the
 * wait takes its timeout in a register. */
hidden int __green_epoll_maskless(void)
{
	return !no_pwait2;
}

hidden int __green_epoll_round(long long *kts, const uint64_t *mask)
{
	struct epoll_event ev[EVENTS];
	int n, stale = 0;

	if (epfd < 0 && rebuild()) return -ENOSYS;
	n = kwait(ev, kts, mask);
	if (n == -EBADF || n == -EINVAL) {
		/* the number was closed or reused behind our back */
		lost();
		return rebuild() ? -ENOSYS : -EINTR;
	}
	for (int i = 0; i < n; i++) {
		uint64_t d = ev[i].data.u64;
		int fd = (int)(uint32_t)d;
		unsigned got = ev[i].events;
		struct green_fd *e = green_fd(fd);
		struct green_io_node *w;
		if (!e || !registered(e) || e->serial != (unsigned)(d >> 32)) {
			stale = 1;
			continue;
		}
		/* the usual event: one node, waiting for what came */
		w = head(e);
		if (w && !w->next && w->waiting && !(got & ~(w->events | ALWAYS))) {
			green_wake_sleeper(w->t);   /* runq.h, in line */
			continue;
		}
		dispatch(fd, e, got);
	}
	if (stale && rebuild()) return -ENOSYS;
	return n;
}

/* Wake fd's waiters: sets with 0 (the retry reports POLLNVAL), single
 * waits with why. */
static void wake_all(struct green_fd *e, int why)
{
	for (struct green_io_node *n = head(e); n; n = n->next)
		if (wants(n)) __green_wake(n->t, n->t->wait == GW_POLL ? 0 : why);
}

hidden int __green_epoll_closing(int fd)
{
	struct green_fd *e;

	if (__green_io_mode != GREEN_IO_EPOLL) return 0;
	if (fd == epfd) {
		lost();           /* the program's close closes it */
		return 0;         /* not the number anyone waits on */
	}
	if ((e = green_fd(fd))) {
		unregister(fd, e);
		wake_all(e, EBADF);
		drop_list(e);
	}
	return 1;
}

hidden void __green_epoll_forget(unsigned first, unsigned last)
{
	if (epfd >= 0 && (unsigned)epfd >= first && (unsigned)epfd <= last) lost();
	for (unsigned fd = first; fd < __green_fds_end && fd <= last; fd++) {
		struct green_fd *e = &__green_fds[fd];
		e->inst = 0;
		wake_all(e, 0);
		drop_list(e);
	}
}

/* fork child: the instance is the parent's, the waiters are gone. */
hidden void __green_epoll_reset(void)
{
	__green_epoll_stop();
	lists++;
	__green_cur->io_node.linked = 0;   /* its list is gone with the others */
}
