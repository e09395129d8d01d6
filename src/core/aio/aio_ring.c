/*
 * aio_ring.c — AIO through io_uring: the kernel does the I/O while every
 * green thread runs.
 *
 * One ring per process, made at the first request with raw system calls
 * (no liburing): 64 submission slots, and the kernel's 128 completion
 * slots.  A request is one SQE — IORING_OP_READ or _WRITE at the
 * request's offset, or at the file position (offset -1) for O_APPEND and
 * streams; IORING_OP_FSYNC — submitted at once with io_uring_enter, so a
 * refusal is the caller's error.  Submitting never waits for the I/O:
 * the kernel tries it without blocking and, where it would block, arms a
 * poll (pipes, sockets) or hands it to its own workers (files).  Its
 * user_data is the request's serial number, never reused, so a cancel
 * (IORING_OP_ASYNC_CANCEL, user_data with the top bit set) cannot hit a
 * later request.  At most 64 requests are in the kernel (aio.c holds the
 * rest), which leaves room for cancels: the completion ring never
 * overflows.
 *
 * The reaper is a green thread that exists while anything is in the
 * kernel.  It waits for the ring's descriptor to be readable through the
 * multiplexer (io.c, poll.c), a descriptor wait among the program's, so
 * the idle wait and the tick notice completions as they notice any I/O;
 * it takes every completion from the shared ring, completes the request
 * (aio.c) or records the cancel's answer, and makes the notifications.
 * It is the ring's only reader; aio_error only peeks (a memory read).
 *
 * The ring is used only if the kernel has what this needs: io_uring_setup
 * succeeds (not ENOSYS, as under qemu-user or before Linux 5.1, nor
 * EPERM, as with kernel.io_uring_disabled or a seccomp filter), the probe
 * lists READ, WRITE, FSYNC and ASYNC_CANCEL, and the features include
 * NODROP and RW_CUR_POS (Linux 5.6).  Otherwise aio.c falls back to
 * worker threads (aio_worker.c).
 *
 * The ring takes one descriptor, close-on-exec.  close() of that number
 * by the program moves the ring to another number first (the program
 * closed something it did not open, but must not lose its I/O for it).
 * If the number goes some other way (dup2 over it, close_range), the
 * reaper looks at the ring every few milliseconds instead.  A fork child
 * closes its copy of the ring unread.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "fdwait.h"
#include "sync/addrwait.h"
#include "aio/aioreq.h"

/* ---- the kernel's interface (Linux's include/uapi/linux/io_uring.h) */

struct uring_sqe {
	uint8_t opcode, flags;
	uint16_t ioprio;
	int32_t fd;
	uint64_t off, addr;
	uint32_t len, op_flags;           /* op_flags: fsync_flags for FSYNC */
	uint64_t user_data;
	uint16_t buf_index, personality;
	int32_t file_index;
	uint64_t pad[2];
};

struct uring_cqe {
	uint64_t user_data;
	int32_t res;
	uint32_t flags;
};

struct uring_params {
	uint32_t sq_entries, cq_entries, flags, sq_thread_cpu, sq_thread_idle, features, wq_fd, resv[3];
	struct { uint32_t head, tail, ring_mask, ring_entries, flags, dropped, array, resv1; uint64_t resv2; } sq_off;
	struct { uint32_t head, tail, ring_mask, ring_entries, overflow, cqes, flags, resv1; uint64_t resv2; } cq_off;
};

struct uring_probe {
	uint8_t last_op, ops_len;
	uint16_t resv;
	uint32_t resv2[3];
	struct { uint8_t op, resv; uint16_t flags; uint32_t resv2; } ops[64];
};

_Static_assert(sizeof(struct uring_sqe) == 64, "aio_ring.c: io_uring_sqe is 64 bytes");
_Static_assert(sizeof(struct uring_cqe) == 16, "aio_ring.c: io_uring_cqe is 16 bytes");
_Static_assert(sizeof(struct uring_params) == 120, "aio_ring.c: io_uring_params is 120 bytes");

#define OP_FSYNC         3
#define OP_ASYNC_CANCEL  14
#define OP_READ          22
#define OP_WRITE         23
#define FSYNC_DATASYNC   1u
#define FEAT_NODROP      (1u << 1)
#define FEAT_RW_CUR_POS  (1u << 3)
#define OFF_SQ_RING      0x0
#define OFF_CQ_RING      0x8000000
#define OFF_SQES         0x10000000
#define REGISTER_PROBE   8
#define OP_SUPPORTED     1u

#define ENTRIES     64                 /* submission slots; requests in the kernel at most */
#define MAX_IO      0x7ffff000u        /* the most one read or write moves (Linux's MAX_RW_COUNT) */
#define CANCEL_BIT  (1ULL << 63)

/* ---- the ring: touched inside GREEN_ENTER only */

static int ring = -1;
static int refused;                     /* why there is no ring, once known */
static void *sq_map, *cq_map, *sqe_map;
static size_t sq_len, cq_len, sqe_len;
static uint32_t *sq_head, *sq_tail, *sq_array, sq_mask;
static uint32_t *cq_head, *cq_tail, cq_mask, cq_size;
static struct uring_sqe *sqes;
static struct uring_cqe *cqes;
static unsigned requests;               /* request SQEs in the kernel */
static unsigned in_kernel;              /* every SQE whose completion is not yet taken */
static int reaper;                      /* the reaper thread exists */

/* aio_cancel's questions to the kernel, until answered */
struct cancel_rec {
	struct cancel_rec *next;
	uint64_t target;
	int res, done;
};
static struct cancel_rec *cancels;

static void *map(int fd, size_t len, off_t off)
{
	void *p = mmap(0, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, off);
	return p == MAP_FAILED ? 0 : p;
}

static void unmap(void)
{
	if (sq_map) __syscall(SYS_munmap, sq_map, sq_len);
	if (cq_map) __syscall(SYS_munmap, cq_map, cq_len);
	if (sqe_map) __syscall(SYS_munmap, sqe_map, sqe_len);
	sq_map = cq_map = sqe_map = 0;
}

#ifdef SYS_io_uring_setup
/* Does the kernel know every operation used here? */
static int probe(int fd)
{
	static const uint8_t need[] = { OP_FSYNC, OP_ASYNC_CANCEL, OP_READ, OP_WRITE };
	struct uring_probe p;

	memset(&p, 0, sizeof p);
	if (__syscall(SYS_io_uring_register, fd, REGISTER_PROBE, &p, 64) < 0) return 0;
	for (size_t i = 0; i < sizeof need; i++)
		if (need[i] > p.last_op || !(p.ops[need[i]].flags & OP_SUPPORTED)) return 0;
	return 1;
}

static int open_ring(void)
{
	const uint32_t feats = FEAT_NODROP | FEAT_RW_CUR_POS;
	struct uring_params p;
	long fd;

	memset(&p, 0, sizeof p);
	fd = __syscall(SYS_io_uring_setup, ENTRIES, &p);
	if (fd < 0) return -fd;
	if ((p.features & feats) != feats || !probe(fd)) {
		__syscall(SYS_close, fd);
		return ENOSYS;
	}
	sq_len = p.sq_off.array + p.sq_entries * sizeof(uint32_t);
	cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct uring_cqe);
	sqe_len = p.sq_entries * sizeof(struct uring_sqe);
	if (!(sq_map = map(fd, sq_len, OFF_SQ_RING)) || !(cq_map = map(fd, cq_len, OFF_CQ_RING)) ||
	    !(sqe_map = map(fd, sqe_len, OFF_SQES))) {
		unmap();
		__syscall(SYS_close, fd);
		return ENOMEM;
	}
	sq_head = (uint32_t *)((char *)sq_map + p.sq_off.head);
	sq_tail = (uint32_t *)((char *)sq_map + p.sq_off.tail);
	sq_array = (uint32_t *)((char *)sq_map + p.sq_off.array);
	sq_mask = *(uint32_t *)((char *)sq_map + p.sq_off.ring_mask);
	cq_head = (uint32_t *)((char *)cq_map + p.cq_off.head);
	cq_tail = (uint32_t *)((char *)cq_map + p.cq_off.tail);
	cq_mask = *(uint32_t *)((char *)cq_map + p.cq_off.ring_mask);
	cqes = (struct uring_cqe *)((char *)cq_map + p.cq_off.cqes);
	sqes = sqe_map;
	cq_size = p.cq_entries;
	ring = fd;
	return 0;
}
#else
static int open_ring(void)
{
	return ENOSYS;
}
#endif

/* 0 when a ring is there, else why not (the first answer stays). */
hidden int __green_aio_ring_open(void)
{
	int err;

	if (ring >= 0) return 0;
	if (refused) return refused;
	GREEN_ENTER();
	if (ring < 0 && !refused && (err = open_ring())) refused = err;
	GREEN_LEAVE();
	return ring >= 0 ? 0 : refused;
}

hidden int __green_aio_ring_pending(void)
{
	return ring >= 0 && *cq_head != __atomic_load_n(cq_tail, __ATOMIC_ACQUIRE);
}

/* ---- submission */

static struct uring_sqe *sqe_at_tail(void)
{
	struct uring_sqe *e = &sqes[*sq_tail & sq_mask];
	memset(e, 0, sizeof *e);
	return e;
}

/* Hand the kernel the SQE at the tail: 0, or an errno with the SQE
 * withdrawn.  Whether the kernel took it is told by its head, which has
 * passed the SQE once it was consumed. */
static int submit(void)
{
	uint32_t t = *sq_tail;
	long n;

	sq_array[t & sq_mask] = t & sq_mask;
	__atomic_store_n(sq_tail, t + 1, __ATOMIC_RELEASE);
#ifdef SYS_io_uring_enter
	do n = __syscall(SYS_io_uring_enter, ring, 1, 0, 0, 0, 0);
	while (n == -EINTR && __atomic_load_n(sq_head, __ATOMIC_ACQUIRE) == t);
#else
	n = -ENOSYS;
#endif
	if (__atomic_load_n(sq_head, __ATOMIC_ACQUIRE) != t) {
		in_kernel++;
		return 0;
	}
	__atomic_store_n(sq_tail, t, __ATOMIC_RELEASE);
	return n >= 0 || n == -EBUSY ? EAGAIN : (int)-n;
}

static void *reap(void *);

static int spawn_reaper(void)
{
	pthread_attr_t a;
	pthread_t t;

	reaper = 1;   /* before pthread_create, which may park */
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	if (__green_aio_spawn(&a, reap, 0, &t)) {
		reaper = 0;
		return EAGAIN;
	}
	pthread_setname_np(t, "aio reaper");
	return 0;
}

/* Inside GREEN_ENTER (may park, to make the reaper): 0, EAGAIN when the
 * kernel has as many as it may, ECANCELED when an aio_cancel came while
 * it was parked, or the errno of a refusal. */
hidden int __green_aio_ring_start(struct aio_req *r)
{
	struct aiocb *cb = r->cb;
	struct uring_sqe *e;
	int err;

	if (!reaper && (err = spawn_reaper())) return err;
	if (r->cancel) return ECANCELED;   /* an aio_cancel came while it was parked */
	if (ring < 0 || requests >= ENTRIES) return EAGAIN;
	e = sqe_at_tail();
	e->fd = r->fd;
	e->user_data = r->serial;
	if (r->op >= AIO_OP_FSYNC) {
		e->opcode = OP_FSYNC;
		e->op_flags = r->op == AIO_OP_DSYNC ? FSYNC_DATASYNC : 0;
	} else {
		e->opcode = r->op == AIO_OP_READ ? OP_READ : OP_WRITE;
		e->off = (uint64_t)r->off;
		e->addr = (uintptr_t)cb->aio_buf;
		e->len = cb->aio_nbytes > MAX_IO ? MAX_IO : cb->aio_nbytes;
	}
	if ((err = submit())) return err;
	requests++;
	return 0;
}

/* ---- completion: the reaper */

#define RESUBMITS 100   /* then the request does end with ECANCELED */

static void complete(uint64_t ud, int res)
{
	struct cancel_rec *c;
	struct aio_req *r;

	if (ud & CANCEL_BIT) {
		for (c = cancels; c; c = c->next)
			if (!c->done && c->target == (ud & ~CANCEL_BIT)) {
				c->res = res;
				c->done = 1;
				__green_aio_wake();
				break;
			}
		return;
	}
	requests--;
	for (r = __green_aio_reqs; r; r = r->next)
		if (r->serial == ud) {
			if (res == -ECANCELED && !r->cancel && r->resubmitted < RESUBMITS) {
				/* nobody cancelled it: the kernel dropped it, which
				 * io_uring does to work it hands to its worker threads
				 * when it cannot start one (a signal pending on the
				 * process, such as a time-slice tick, interrupts the
				 * creation).  Submitted again, it starts. */
				r->resubmitted++;
				if (!__green_aio_ring_start(r)) return;
			}
			__green_aio_done(r, res);
			return;
		}
}

/* Inside GREEN_ENTER: take every completion the kernel has posted. */
static void take(void)
{
	uint32_t h = *cq_head;
	struct uring_cqe c;

	while (h != __atomic_load_n(cq_tail, __ATOMIC_ACQUIRE)) {
		c = cqes[h & cq_mask];
		__atomic_store_n(cq_head, ++h, __ATOMIC_RELEASE);
		in_kernel--;
		complete(c.user_data, c.res);
	}
}

static void *reap(void *arg)
{
	unsigned step = 0;
	int fd, last, lost = -1;

	for (;;) {
		GREEN_ENTER();
		if (ring >= 0) take();
		if ((last = !in_kernel || ring < 0)) reaper = 0;
		fd = ring;
		GREEN_LEAVE();
		__green_aio_notify();
		if (last) return 0;
		if (fd == lost)
			__green_retry_wait(GW_RETRY, 0, &step, GREEN_NO_DEADLINE, 0);
		else if (__green_fd_wait(fd, GREEN_IN, GREEN_NO_DEADLINE, GW_FD, 0) == EBADF && fd == ring)
			lost = fd;   /* closed under us, and not by close(): look every few ms */
	}
}

/* ---- aio_cancel of a request the kernel has */

/* Inside GREEN_ENTER, r pinned; parks until the kernel has answered and,
 * if the request is cancelled or already complete, until it is taken. */
hidden int __green_aio_ring_cancel(struct aio_req *r)
{
	struct cancel_rec *c, **p;
	struct uring_sqe *e;
	int res;

	r->cancel = 1;   /* for a start parked before it reached the kernel */
	if (ring < 0 || in_kernel >= cq_size || !(c = calloc(1, sizeof *c))) return AIO_NOTCANCELED;
	c->target = r->serial;
	e = sqe_at_tail();
	e->opcode = OP_ASYNC_CANCEL;
	e->fd = -1;
	e->addr = r->serial;
	e->user_data = r->serial | CANCEL_BIT;
	if (submit()) {
		free(c);
		return AIO_NOTCANCELED;
	}
	c->next = cancels;
	cancels = c;
	while (!c->done) __green_futex_wait(&__green_aio_gen, __green_aio_gen, GREEN_NO_DEADLINE, GW_AIO);
	for (p = &cancels; *p != c; p = &(*p)->next) ;
	*p = c->next;
	res = c->res;
	free(c);
	/* -EALREADY: under way in the kernel's worker, not to be stopped */
	if (res && res != -ENOENT) return AIO_NOTCANCELED;
	/* 0: it completes with ECANCELED; -ENOENT: it was complete already */
	while (!r->complete) __green_futex_wait(&__green_aio_gen, __green_aio_gen, GREEN_NO_DEADLINE, GW_AIO);
	return r->res == -ECANCELED ? AIO_CANCELED : AIO_ALLDONE;
}

/* ---- the descriptor */

/* close() of fd by the program: if it is the ring's, keep the ring on
 * another number (the reaper, woken with EBADF by the close, moves too). */
hidden void __green_aio_ring_closing(int fd)
{
	long nfd;

	GREEN_ENTER();
	if (fd == ring && (nfd = __syscall(SYS_fcntl, ring, F_DUPFD_CLOEXEC, 0)) >= 0) ring = nfd;
	GREEN_LEAVE();
}

/* In a fork child (inside musl's _Fork): the ring is the parent's. */
hidden void __green_aio_ring_fork_child(void)
{
	if (ring < 0) return;
	unmap();
	__syscall(SYS_close, ring);
	ring = -1;
	requests = in_kernel = 0;
	reaper = 0;
	cancels = 0;
}
