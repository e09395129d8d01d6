/*
 * aio.c — POSIX asynchronous I/O: the requests.
 *
 * Design
 * ------
 * musl's AIO gives each descriptor a helper thread that makes the
 * blocking call.  Under green that helper is a green thread, so a
 * regular file's pread blocks the whole process, and its completion is
 * announced with an inline kernel futex wake that a green waiter never
 * sees.  Here the kernel does the I/O: io_uring (aio_ring.c) reads,
 * writes and syncs while every green thread keeps running, and one green
 * thread, the reaper, waits for the ring's descriptor like any other
 * descriptor wait and completes requests as the kernel finishes them.
 * Where there is no io_uring (qemu-user, an old kernel, io_uring_disabled,
 * a seccomp filter) or GREEN_AIO=threads, a green worker thread per
 * request makes the plain call (aio_worker.c): on a pipe or a socket it
 * parks only the worker, on a regular file it blocks the process for the
 * disk access, as any read of a file does (docs/io.md).
 *
 * A request's life:
 *
 *   aio_read, aio_write, aio_fsync, lio_listio
 *     checks (EBADF, EINVAL)
 *       └─> HELD ──────────> STARTED ──────────> complete
 *           (an older one     (the ring or a      aiocb's __ret and __err
 *           goes first, or    worker has it)      set, waiters woken,
 *           no room)                              notification made,
 *             └──── aio_cancel, close ──────────> request freed
 *
 * The table (__green_aio_reqs) holds every request not yet complete,
 * oldest first.  A request is held while another on the same
 * descriptor must go first:
 *
 *   - aio_fsync covers the requests queued before it (POSIX), so it
 *     waits for every older request on its descriptor;
 *   - requests at the file position — writes with O_APPEND, and reads
 *     and writes of a pipe, socket or terminal — go one at a time, each
 *     direction on its own, so a read waiting for a reply never holds
 *     back the write that asks for it; appends in the order of the calls
 *     (POSIX), the others by priority (below), in the order of the calls
 *     among equals;
 *
 * or while the ring is full.  Each completion starts what it unblocked.
 *
 * Priorities (_POSIX_PRIORITIZED_IO).  A request's priority is its
 * submitter's scheduling level less aio_reqprio (POSIX: "a base
 * scheduling priority minus aio_reqprio").  Held requests start
 * highest priority first, FIFO among equals: a lower-priority request
 * that waits behind another on its stream, or for room in the ring,
 * goes after a higher one queued later.  What the backend then does
 * with the requests it has is its own: the kernel runs the ring's in
 * the order it chooses (at most 64 there at once), and the workers of
 * aio_worker.c run at their creator's level, FIFO (docs/io.md).
 *
 * Completion happens inside a no-preempt section (in the reaper, a
 * worker, or aio_cancel for a held request): the aiocb's result is set,
 * the waiters on __green_aio_gen (aio_suspend, lio_listio's LIO_WAIT,
 * aio_cancel) are woken, and the notification is queued.  Whoever
 * completed then makes it, outside the section (__green_aio_notify):
 * SIGEV_SIGNAL through green's own signals (deliver.c), with si_code
 * SI_ASYNCIO and the sigevent's value; SIGEV_THREAD by running the
 * function in a new detached green thread made with the sigevent's
 * attributes.  Helper threads (reaper, workers, notifications) run with
 * every signal blocked, so the program's handlers run in its own threads.
 *
 * The aiocb and the buffer are written when the request completes,
 * whichever thread runs then: with copied stacks neither may be on a
 * thread's stack (docs/stacks.md), and a submission that finds one there
 * says so on stderr.
 *
 * The first request starts green, as a first pthread_create would
 * (__green_init): the reaper and the workers are green threads.
 */
#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "fdwait.h"
#include "idlewait.h"
#include "signal/gsignal.h"
#include "stack/gstack.h"
#include "sync/addrwait.h"
#include "base/report.h"
#include "base/gconfig.h"
#include "aio_impl.h"
#include "aio/aioreq.h"
#include "base/valgrind-glue.h"
#include "sched/runq.h"

/* <aio.h> names the 64 variants as macros under _GNU_SOURCE: the
 * aliases below define them as symbols, as musl's members do */
#undef aio_read64
#undef aio_write64
#undef aio_error64
#undef aio_return64
#undef aio_cancel64
#undef aio_fsync64

hidden volatile int __green_aio_gen;
hidden struct aio_req *__green_aio_reqs;
static struct aio_req *newest;
static struct aio_note *notes, *notes_last;   /* to make, oldest first */
static uint64_t serial;
static unsigned cancel_round;

enum { BACKEND_NONE, BACKEND_RING, BACKEND_WORKER };
static int backend;

/* Outside any section: the ring if the kernel has one, else workers. */
static void choose(void)
{
	if (backend) return;
	__green_init();
	if (!__green_config.aio_threads && !__green_aio_ring_open()) backend = BACKEND_RING;
	else backend = BACKEND_WORKER;
}

/* ---- the table (inside GREEN_ENTER) */

static void link_req(struct aio_req *r)
{
	r->next = 0;
	r->prev = newest;
	if (newest) newest->next = r;
	else __green_aio_reqs = r;
	newest = r;
}

static void unlink_req(struct aio_req *r)
{
	if (r->prev) r->prev->next = r->next;
	else __green_aio_reqs = r->next;
	if (r->next) r->next->prev = r->prev;
	else newest = r->prev;
	r->next = r->prev = 0;
}

/* a before b: the higher priority, or the older among equals */
static int goes_before(const struct aio_req *a, const struct aio_req *b)
{
	return a->prio != b->prio ? a->prio > b->prio : a->serial < b->serial;
}

/* Must r wait for another request of its descriptor? */
static int held_back(const struct aio_req *r)
{
	for (const struct aio_req *p = __green_aio_reqs; p; p = p->next) {
		if (p == r || p->fd != r->fd) continue;
		if (r->op >= AIO_OP_FSYNC) {
			if (p->serial < r->serial) return 1;
			continue;
		}
		if (!r->ordered || !p->ordered || p->op != r->op) continue;
		if (p->state == AIO_STARTED) return 1;
		if (r->append || p->append ? p->serial < r->serial : goes_before(p, r)) return 1;
	}
	return 0;
}

static int any_started(void)
{
	for (const struct aio_req *p = __green_aio_reqs; p; p = p->next)
		if (p->state == AIO_STARTED) return 1;
	return 0;
}

/*
 * Hand r to the backend.  This may park (pthread_create, malloc), so r
 * counts as started meanwhile: nobody else starts it, and aio_cancel
 * asks the backend, which finds nothing yet and waits for r to complete.
 * On failure r is held again, unless the caller completes it.
 */
static int start(struct aio_req *r)
{
	int err;

	r->state = AIO_STARTED;
	err = backend == BACKEND_RING ? __green_aio_ring_start(r) : __green_aio_worker_start(r);
	if (err) r->state = AIO_HELD;
	return err;
}

/*
 * Start the held requests that nothing holds back any more, highest
 * priority first, oldest first among equals.  No room (EAGAIN) while others are in progress: they stay held
 * until the next completion.  Any other failure completes the request
 * with that error.  A start may park, and the table change meanwhile: so
 * after each the scan begins again, and a completion that comes while a
 * scan is under way asks for another (release_due).
 */
static int releasing, release_due;

static void release(void)
{
	struct aio_req *r;
	int err;

	if (releasing) {
		release_due = 1;
		return;
	}
	releasing = 1;
	do {
		struct aio_req *best = 0;
		release_due = 0;
		for (r = __green_aio_reqs; r; r = r->next)
			if (r->state == AIO_HELD && (!best || goes_before(r, best)) && !held_back(r)) best = r;
		if (!(r = best)) break;
		err = start(r);
		if (err == EAGAIN && any_started()) break;
		if (err) __green_aio_done(r, -err);
		release_due = 1;
	} while (release_due);
	releasing = 0;
}

hidden void __green_aio_wake(void)
{
	__green_aio_gen++;
	__green_futex_wake(&__green_aio_gen, INT_MAX);
}

/* ---- completion and notification */

hidden void __green_aio_note(struct aio_note *n)
{
	n->next = 0;
	if (notes_last) notes_last->next = n;
	else notes = n;
	notes_last = n;
}

/* Inside GREEN_ENTER: r is complete with res (a count, or -errno). */
hidden void __green_aio_done(struct aio_req *r, long res)
{
	struct aiocb *cb = r->cb;
	struct aio_group *g = r->group;

	unlink_req(r);
	r->complete = 1;
	r->res = res;
	/* the kernel wrote the buffer behind valgrind's back (the ring) */
	if (r->op == AIO_OP_READ && res > 0) GREEN_VG_MAKE_DEFINED((void *)cb->aio_buf, res);
	cb->__ret = res < 0 ? -1 : res;
	cb->__err = res < 0 ? (int)-res : 0;
	__green_aio_note(&r->note);
	if (g) {
		if (res < 0) g->failed = 1;
		if (!--g->left && !g->waiter) __green_aio_note(&g->note);
	}
	__green_aio_wake();
	release();
}

static void signal_note(const struct aio_note *n)
{
	siginfo_t si;

	memset(&si, 0, sizeof si);
	si.si_signo = n->sev.sigev_signo;
	si.si_code = SI_ASYNCIO;
	si.si_value = n->sev.sigev_value;
	si.si_pid = __green_pid;
	si.si_uid = getuid();
	__green_sig_generate(si.si_signo, &si, 0);
}

/* The notification is made: free what it belonged to, unless an
 * aio_cancel still looks at the request (it frees it then). */
static void note_made(struct aio_note *n)
{
	int pinned;

	GREEN_ENTER();
	n->made = 1;
	pinned = n->pins;
	GREEN_LEAVE();
	if (!pinned) free(n->mem);
}

static void note_made_cleanup(void *n)
{
	note_made(n);
}

/* The function may end the thread (pthread_exit, a cancel): the note
 * is let go all the same. */
static void *notify_thread(void *arg)
{
	struct aio_note *n = arg;
	pthread_cleanup_push(note_made_cleanup, n);
	pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, 0);   /* the program's thread now */
	n->sev.sigev_notify_function(n->sev.sigev_value);
	pthread_cleanup_pop(1);
	return 0;
}

/* Outside any section: make the queued notifications, free what they
 * belonged to.  A SIGEV_THREAD thread that cannot be made: the function
 * runs here rather than never. */
hidden void __green_aio_notify(void)
{
	struct aio_note *n;

	for (;;) {
		GREEN_ENTER();
		if ((n = notes) && !(notes = n->next)) notes_last = 0;
		GREEN_LEAVE();
		if (!n) return;
		if (n->sev.sigev_notify == SIGEV_SIGNAL) {
			if (n->sev.sigev_signo) signal_note(n);
		} else if (n->sev.sigev_notify == SIGEV_THREAD) {
			if (!__green_aio_spawn(&n->attr, notify_thread, n, 0)) continue;
			n->sev.sigev_notify_function(n->sev.sigev_value);
		}
		note_made(n);
	}
}

/* A helper thread: detached by the attribute, every signal blocked and
 * cancellation disabled from its first instruction (set before it can
 * run, so no signal is ever directed at it). */
hidden int __green_aio_spawn(const pthread_attr_t *a, void *(*fn)(void *), void *arg, pthread_t *out)
{
	pthread_t t;
	int r;

	GREEN_ENTER();
	if (!(r = pthread_create(&t, a, fn, arg))) {
		gt(t)->sigmask = ~(1ULL << (SIGKILL - 1) | 1ULL << (SIGSTOP - 1));
		gt(t)->cancel_disable = 1;
		if (out) *out = t;
	}
	GREEN_LEAVE();
	return r;
}

hidden int __green_aio_sigevent_ok(const struct sigevent *sev)
{
	int s = sev->sigev_signo;
	switch (sev->sigev_notify) {
	case SIGEV_NONE:
		return 1;
	case SIGEV_SIGNAL:
		/* signal 0 sends nothing: a zeroed aiocb asks for that, as
		 * SIGEV_SIGNAL is 0 */
		return !s || ((unsigned)s - 1 < 64 && !(GREEN_LIBC_SIGS >> (s - 1) & 1));
	case SIGEV_THREAD:
		return sev->sigev_notify_function != 0;
	}
	return 0;
}

hidden void __green_aio_note_init(struct aio_note *n, const struct sigevent *sev, void *mem)
{
	n->mem = mem;
	n->sev.sigev_notify = SIGEV_NONE;
	if (!sev) return;
	n->sev = *sev;
	if (sev->sigev_notify != SIGEV_THREAD) return;
	if (sev->sigev_notify_attributes) n->attr = *sev->sigev_notify_attributes;
	else pthread_attr_init(&n->attr);
	pthread_attr_setdetachstate(&n->attr, PTHREAD_CREATE_DETACHED);
}

/* ---- submission */

static int seekable(int fd)
{
	return __green_fd_never_waits(fd) || lseek(fd, 0, SEEK_CUR) >= 0;
}

/* The checks POSIX lets a submission make, and where the I/O goes.
 * A read or write on a descriptor that is not open, or not for its
 * direction, is accepted and fails as it runs (EBADF as its status, as
 * glibc does): *bad says so.  aio_fsync refuses one at once. */
static int prepare(struct aio_req *r, struct aiocb *cb, int op, int *bad)
{
	int fd = cb->aio_fildes;
	long fl;

	r->cb = cb;
	r->fd = fd;
	r->op = op;
	r->off = -1;
	*bad = 0;
	if (!__green_aio_sigevent_ok(&cb->aio_sigevent)) return EINVAL;
	fl = __syscall(SYS_fcntl, fd, F_GETFL);
	r->prio = green_level(__green_cur) - (cb->aio_reqprio > 0 ? cb->aio_reqprio : 0);
	if (op >= AIO_OP_FSYNC) return fl < 0 ? EBADF : 0;   /* only the descriptor and sigevent count */
	if (cb->aio_reqprio < 0 || cb->aio_nbytes > SSIZE_MAX) return EINVAL;
	if (fl < 0 || (op == AIO_OP_READ ? O_WRONLY : O_RDONLY) == (fl & O_ACCMODE)) {
		*bad = 1;
		return 0;
	}
	if (op == AIO_OP_WRITE && (fl & O_APPEND)) {
		r->ordered = r->append = 1;   /* appends, in the order of the calls */
	} else if (seekable(fd)) {
		if (cb->aio_offset < 0) return EINVAL;
		r->off = cb->aio_offset;
	} else {
		r->ordered = 1;   /* a stream: one at a time */
	}
	return 0;
}

static void warn_copied(const struct aiocb *cb)
{
	const void *p = __green_in_region(cb) ? (const void *)cb :
	                __green_in_region((const void *)cb->aio_buf) ? (const void *)cb->aio_buf : 0;
	if (p)
		__green_say("green: thread %u submits AIO with an aiocb or buffer on its copied stack (%p): "
		            "the kernel writes it when the I/O completes, and cannot while the thread is "
		            "parked and its stack unmapped (docs/stacks.md)\n", __green_cur->id, p);
}

/* 0 with the request queued (its aiocb's error EINPROGRESS), or the
 * errno the call fails with (also left as the aiocb's error status). */
hidden int __green_aio_submit(struct aiocb *cb, int op, struct aio_group *g)
{
	struct aio_req *r;
	int err, bad;

	if (!(r = calloc(1, sizeof *r))) {
		err = EAGAIN;
		goto fail;
	}
	if ((err = prepare(r, cb, op, &bad))) goto fail;
	choose();
	warn_copied(cb);
	__green_aio_note_init(&r->note, &cb->aio_sigevent, r);
	r->group = g;

	GREEN_ENTER();
	r->serial = ++serial;
	cb->__ret = -1;
	cb->__err = EINPROGRESS;
	link_req(r);
	if (g) g->left++;
	if (bad)
		__green_aio_done(r, -EBADF);   /* complete at once, notified as any */
	else if (!held_back(r) && (err = start(r)) == EAGAIN && any_started())
		err = 0;   /* no room now: held until a completion */
	if (err == ECANCELED) {
		/* an aio_cancel came while the start was parked */
		__green_aio_done(r, -ECANCELED);
		err = 0;
	} else if (err) {
		/* refused: the caller is told, nobody is notified; completed
		 * all the same, for an aio_cancel that looked at it meanwhile */
		r->note.sev.sigev_notify = SIGEV_NONE;
		if (g) g->left--, r->group = 0;
		__green_aio_done(r, -err);
	}
	GREEN_LEAVE();
	__green_aio_notify();
	return err;
fail:
	free(r);
	cb->__ret = -1;
	cb->__err = err;
	return err;
}

static int submit_one(struct aiocb *cb, int op)
{
	int err = __green_aio_submit(cb, op, 0);
	if (!err) return 0;
	errno = err;
	return -1;
}

int aio_read(struct aiocb *cb)
{
	return submit_one(cb, AIO_OP_READ);
}

int aio_write(struct aiocb *cb)
{
	return submit_one(cb, AIO_OP_WRITE);
}

int aio_fsync(int op, struct aiocb *cb)
{
	if (op != O_SYNC && op != O_DSYNC) {
		errno = EINVAL;
		return -1;
	}
	return submit_one(cb, op == O_SYNC ? AIO_OP_FSYNC : AIO_OP_DSYNC);
}

/* ---- status */

/*
 * The status when called.  A request in progress makes aio_error a
 * scheduling point, so that a loop polling it lets the reaper (or the
 * worker) run even without time slicing: the multiplexer looks at the
 * descriptors that threads wait on — the ring's only if it has
 * completions (a memory read), a worker's always — and the caller yields.
 */
int aio_error(const struct aiocb *cb)
{
	int err = cb->__err;
	if (err != EINPROGRESS || !backend) return err;
	if (backend == BACKEND_WORKER || __green_aio_ring_pending()) __green_poll_check();
	sched_yield();
	return err;
}

/* The result once complete (POSIX leaves it undefined before: -1). */
ssize_t aio_return(struct aiocb *cb)
{
	return cb->__ret;
}

/* ---- cancellation */

static struct aio_req *newest_held(int fd, const struct aiocb *cb, uint64_t upto)
{
	for (struct aio_req *r = newest; r; r = r->prev)
		if (r->fd == fd && (!cb || r->cb == cb) && r->serial <= upto && r->state == AIO_HELD)
			return r;
	return 0;
}

static struct aio_req *next_started(int fd, const struct aiocb *cb, uint64_t upto, unsigned round)
{
	for (struct aio_req *r = __green_aio_reqs; r; r = r->next)
		if (r->fd == fd && (!cb || r->cb == cb) && r->serial <= upto &&
		    r->state == AIO_STARTED && r->cancel_round != round)
			return r;
	return 0;
}

/*
 * Cancel fd's requests (only cb's, if given) that were queued when the
 * call began.  Held ones, newest first (so that cancelling one never
 * starts another), are completed here with ECANCELED.  Started ones are
 * in progress: aio_cancel leaves them be (AIO_NOTCANCELED, as glibc
 * answers for a request in progress: a write may have sent part of its
 * data); a close (all) asks them of the backend, which waits until each
 * is complete or known not to be cancellable.  While the backend waits, the request is pinned:
 * its notification may run meanwhile, and the program may free the
 * aiocb there (so only the request is looked at), but the request itself
 * is freed only once unpinned.
 */
static int cancel(int fd, const struct aiocb *cb, int all)
{
	struct aio_req *r;
	uint64_t upto;
	unsigned round;
	int canceled = 0, notcanceled = 0, o;

	GREEN_ENTER();
	upto = serial;
	round = ++cancel_round;
	while ((r = newest_held(fd, cb, upto))) {
		__green_aio_done(r, -ECANCELED);
		canceled = 1;
	}
	while ((r = next_started(fd, cb, upto, round))) {
		r->cancel_round = round;
		if (!all) {
			notcanceled = 1;
			continue;
		}
		r->note.pins++;
		o = backend == BACKEND_RING ? __green_aio_ring_cancel(r) : __green_aio_worker_cancel(r);
		if (!--r->note.pins && r->note.made) free(r);
		if (o == AIO_CANCELED) canceled = 1;
		else if (o == AIO_NOTCANCELED) notcanceled = 1;
	}
	GREEN_LEAVE();
	__green_aio_notify();
	return notcanceled ? AIO_NOTCANCELED : canceled ? AIO_CANCELED : AIO_ALLDONE;
}

int aio_cancel(int fd, struct aiocb *cb)
{
	if (__syscall(SYS_fcntl, fd, F_GETFD) < 0) {
		errno = EBADF;
		return -1;
	}
	if (cb && cb->aio_fildes != fd) {
		errno = EINVAL;
		return -1;
	}
	if (!__green_aio_reqs) return AIO_ALLDONE;
	return cancel(fd, cb, 0);
}

/* Inside GREEN_ENTER: does fd have a request that still needs its
 * number — held (not yet handed over), or, with workers, any? */
static int needs_number(int fd)
{
	for (const struct aio_req *r = __green_aio_reqs; r; r = r->next)
		if (r->fd == fd && (r->state == AIO_HELD || backend == BACKEND_WORKER)) return 1;
	return 0;
}

/*
 * close() and fclose() call this first.  POSIX lets a close cancel the
 * descriptor's requests, and asks the others to complete as if the close
 * had not happened.  A pipe's, socket's or terminal's requests may wait
 * for ever: they are cancelled (as musl does).  A regular file's or a
 * block device's end by themselves, and a program that writes and then
 * closes expects its data written: they complete, and the close waits
 * until none needs the number any more — on the ring, until each is in
 * the kernel, which keeps the file open for it; with workers, until each
 * is complete.  A close of the ring's own number moves the ring out of
 * the way.  Never in posix_spawn's vfork child, which must not switch.
 */
hidden int __aio_close(int fd)
{
	if (!backend || green_vfork_child()) return fd;
	if (backend == BACKEND_RING) __green_aio_ring_closing(fd);
	if (!__green_aio_reqs) return fd;
	if (!__green_fd_never_waits(fd)) {
		cancel(fd, 0, 1);
		return fd;
	}
	GREEN_ENTER();
	while (needs_number(fd))
		__green_futex_wait(&__green_aio_gen, __green_aio_gen, GREEN_NO_DEADLINE, GW_AIO);
	GREEN_LEAVE();
	return fd;
}

/*
 * fork: called around the system call (musl's _Fork), in the child with
 * malloc's lock held, so nothing is freed here.  The child has no
 * requests (POSIX): the table is forgotten, its aiocbs stay as they
 * were; the ring is the parent's, so the child closes it unread.
 */
hidden void __aio_atfork(int who)
{
	if (who <= 0 || !backend) return;
	__green_aio_reqs = newest = 0;
	notes = notes_last = 0;
	releasing = release_due = 0;
	if (backend == BACKEND_RING) __green_aio_ring_fork_child();
	backend = BACKEND_NONE;
}

weak_alias(aio_read, aio_read64);
weak_alias(aio_write, aio_write64);
weak_alias(aio_error, aio_error64);
weak_alias(aio_return, aio_return64);
weak_alias(aio_cancel, aio_cancel64);
weak_alias(aio_fsync, aio_fsync64);
