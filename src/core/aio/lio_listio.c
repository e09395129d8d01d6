/*
 * lio_listio — submit a list of reads and writes; with LIO_WAIT, wait
 * for all of them; with LIO_NOWAIT, notify once all are complete.
 *
 * The list's requests share a group (aioreq.h) that counts those not yet
 * complete.  The call itself holds one count while it submits, so the
 * group cannot end, nor notify, before every request is in.  Each entry
 * is submitted as aio_read or aio_write would be, with the aiocb's own
 * sigevent honoured; one that cannot be (a bad opcode: EINVAL; no room:
 * EAGAIN) has that as its error status and the others go ahead.  A bad
 * descriptor is no such entry: it is queued, and fails as it runs.  The call then fails with EAGAIN if an entry lacked
 * resources, else with EIO if an entry failed, at submission or (with
 * LIO_WAIT) when it completed.
 *
 * LIO_WAIT parks on the completion word (aio.c) until the count reaches
 * zero; a signal handler ends the wait with EINTR, and the group is then
 * left to its requests, the last of which frees it.  Not a cancellation
 * point (POSIX allows either).
 */
#include <aio.h>
#include <errno.h>
#include <stdlib.h>
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "sync/addrwait.h"
#include "aio/aioreq.h"

#undef lio_listio64

static int entry(struct aiocb *cb, struct aio_group *g)
{
	switch (cb->aio_lio_opcode) {
	case LIO_READ:
		return __green_aio_submit(cb, AIO_OP_READ, g);
	case LIO_WRITE:
		return __green_aio_submit(cb, AIO_OP_WRITE, g);
	}
	cb->__ret = -1;
	cb->__err = EINVAL;
	return EINVAL;
}

/* LIO_WAIT: 0 when every request is complete, or EINTR. */
static int wait_all(struct aio_group *g)
{
	int r = 0, left;

	GREEN_ENTER();
	while ((left = g->left) && !r)
		r = __green_futex_wait(&__green_aio_gen, __green_aio_gen, GREEN_NO_DEADLINE, GW_AIO);
	if (left) g->waiter = 0;   /* the last request frees it */
	GREEN_LEAVE();
	return left ? EINTR : 0;
}

int lio_listio(int mode, struct aiocb *restrict const list[restrict], int n, struct sigevent *restrict sev)
{
	struct aio_group *g;
	int err, again = 0, failed = 0, queued = 0;

	if ((mode != LIO_WAIT && mode != LIO_NOWAIT) || n < 0) {
		errno = EINVAL;
		return -1;
	}
	if (mode == LIO_WAIT) sev = 0;   /* ignored (POSIX) */
	if (sev && !__green_aio_sigevent_ok(sev)) {
		errno = EINVAL;
		return -1;
	}
	if (!(g = calloc(1, sizeof *g))) {
		errno = EAGAIN;
		return -1;
	}
	__green_aio_note_init(&g->note, sev, g);
	g->waiter = mode == LIO_WAIT;
	g->left = 1;   /* this call's own hold */
	for (int i = 0; i < n; i++) {
		if (!list[i] || list[i]->aio_lio_opcode == LIO_NOP) continue;
		if (!(err = entry(list[i], g))) queued++;
		else if (err == EAGAIN) again = 1;
		else failed = 1;
	}
	/* a list that queued nothing and failed notifies nobody */
	if (!queued && (again || failed)) g->note.sev.sigev_notify = SIGEV_NONE;
	GREEN_ENTER();
	if (!--g->left && !g->waiter) __green_aio_note(&g->note);
	GREEN_LEAVE();
	__green_aio_notify();

	if (mode == LIO_WAIT) {
		if (wait_all(g)) {
			errno = EINTR;
			return -1;
		}
		failed |= g->failed;
		free(g);
	}
	if (again || failed) {
		errno = again ? EAGAIN : EIO;
		return -1;
	}
	return 0;
}

weak_alias(lio_listio, lio_listio64);
