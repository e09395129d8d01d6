/*
 * aio_worker.c — AIO without io_uring: a green thread per request makes
 * the call.
 *
 * Where the kernel has no usable io_uring (qemu-user, Linux before 5.6,
 * kernel.io_uring_disabled, a seccomp filter; aio_ring.c) or the program
 * runs with GREEN_AIO=threads, each started request gets a detached
 * green thread with every signal blocked that makes the call through the
 * libc: pread/pwrite at the offset, read/write at the file position,
 * fsync/fdatasync.  Those reach __syscall_cp like any thread's calls
 * (docs/io.md): on a pipe, socket or terminal the worker parks and the
 * other threads run; on a regular file the call blocks the whole process
 * for the disk access, as any read of a file does.
 *
 * aio_cancel of a started request: if its worker has not begun the call,
 * it finds `cancel` set and completes the request with ECANCELED; if it
 * has, it is cancelled with pthread_cancel.  Cancellation is enabled
 * around the call only, which is a cancellation point, and a cleanup
 * handler completes the request with ECANCELED.  A cancel that comes once
 * the call has returned finds cancellation disabled again, and the
 * request completes with the call's result.  Either way aio_cancel waits
 * for the worker, so every started request ends before it returns.
 *
 * A worker runs at its request's priority (aio.c: the submitter's level
 * less aio_reqprio), SCHED_FIFO at that level when it is above 0, else
 * SCHED_OTHER: of the workers ready at once, the highest-priority
 * request's makes its call first, FIFO among equals.
 */
#include <errno.h>
#include <sched.h>
#include <unistd.h>
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "sync/addrwait.h"
#include "aio/aioreq.h"

static void canceled(void *arg)
{
	GREEN_ENTER();
	__green_aio_done(arg, -ECANCELED);
	GREEN_LEAVE();
	__green_aio_notify();
}

static long call(const struct aio_req *r)
{
	void *buf = (void *)r->cb->aio_buf;
	size_t n = r->cb->aio_nbytes;
	long k;

	switch (r->op) {
	case AIO_OP_READ:
		k = r->off < 0 ? read(r->fd, buf, n) : pread(r->fd, buf, n, r->off);
		break;
	case AIO_OP_WRITE:
		k = r->off < 0 ? write(r->fd, buf, n) : pwrite(r->fd, buf, n, r->off);
		break;
	case AIO_OP_FSYNC:
		k = fsync(r->fd);
		break;
	default:
		k = fdatasync(r->fd);
	}
	return k < 0 ? -errno : k;
}

static void *work(void *arg)
{
	struct aio_req *r = arg;
	long res = -ECANCELED;
	int go;

	GREEN_ENTER();
	go = r->running = !r->cancel;
	GREEN_LEAVE();
	if (go) {
		pthread_cleanup_push(canceled, r);
		pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, 0);
		res = call(r);
		pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, 0);
		pthread_cleanup_pop(0);
	}
	GREEN_ENTER();
	__green_aio_done(r, res);
	GREEN_LEAVE();
	__green_aio_notify();
	return 0;
}

/* Inside GREEN_ENTER (may park): 0, or EAGAIN when no thread can be made. */
hidden int __green_aio_worker_start(struct aio_req *r)
{
	pthread_attr_t a;

	r->running = 0;   /* `cancel` stays: an aio_cancel may have asked already */
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
	if (r->prio > 0) {
		struct sched_param sp = { .sched_priority = r->prio };
		pthread_attr_setschedpolicy(&a, SCHED_FIFO);
		pthread_attr_setschedparam(&a, &sp);
	}
	if (__green_aio_spawn(&a, work, r, &r->worker)) return EAGAIN;
	pthread_setname_np(r->worker, "aio worker");
	return 0;
}

/* Inside GREEN_ENTER, r pinned; parks until the request is complete. */
hidden int __green_aio_worker_cancel(struct aio_req *r)
{
	if (r->running) pthread_cancel(r->worker);
	else r->cancel = 1;
	while (!r->complete) __green_futex_wait(&__green_aio_gen, __green_aio_gen, GREEN_NO_DEADLINE, GW_AIO);
	return r->res == -ECANCELED ? AIO_CANCELED : AIO_ALLDONE;
}
