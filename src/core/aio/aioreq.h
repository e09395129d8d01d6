/*
 * aioreq.h — what the POSIX AIO files share: a request, the group of one
 * lio_listio call, and the two ways a request's I/O is done.
 *
 *   aio.c          the requests: checks, order, completion, notification,
 *                  aio_error, aio_return, aio_cancel, close and fork
 *   aio_ring.c     io_uring: the kernel does the I/O (the default)
 *   aio_worker.c   a green thread per request does it (no io_uring)
 *   aio_suspend.c  waiting for one of a list
 *   lio_listio.c   lists of requests
 *
 * Everything here is touched by the running thread inside a no-preempt
 * section (GREEN_ENTER), like the rest of the core.
 */
#ifndef GREEN_AIOREQ_H
#define GREEN_AIOREQ_H

#include <aio.h>
#include <signal.h>
#include <pthread.h>
#include "base/seam.h"

enum { AIO_OP_READ, AIO_OP_WRITE, AIO_OP_FSYNC, AIO_OP_DSYNC };   /* aio_req.op */
enum { AIO_HELD, AIO_STARTED };                                      /* aio_req.state */

/*
 * What to do once a request (or a list) is complete: its notification,
 * then free `mem`.  Completion happens inside a no-preempt section, where
 * neither a signal handler nor pthread_create may run, so the note is
 * queued and made afterwards by whoever completed it (__green_aio_notify).
 */
struct aio_note {
	struct aio_note *next;
	struct sigevent sev;           /* SIGEV_NONE: only free mem */
	pthread_attr_t attr;           /* a copy of *sigev_notify_attributes */
	void *mem;
	int pins;                      /* aio_cancel calls still looking at it */
	int made;                      /* the notification is made: free when unpinned */
};

/* One lio_listio call. */
struct aio_group {
	struct aio_note note;          /* LIO_NOWAIT: the list's sigevent */
	int left;                      /* its requests not yet complete */
	int failed;                    /* one of them ended in error (LIO_WAIT: EIO) */
	int waiter;                    /* LIO_WAIT: the caller still waits for it */
};

struct aio_req {
	struct aio_note note;          /* the aiocb's sigevent; mem is the request */
	struct aiocb *cb;
	struct aio_req *prev, *next;   /* the table of requests, oldest first */
	struct aio_group *group;       /* lio_listio's, or null */
	uint64_t serial;               /* unique: the ring's name for it */
	off_t off;                     /* -1: at the file position (O_APPEND, a stream) */
	int fd, op, state;
	unsigned char ordered;         /* one at a time among the fd's others of its op */
	unsigned char append;          /* ... and in the order of the calls (O_APPEND) */
	int prio;                      /* the submitter's level less aio_reqprio */
	unsigned char cancel;          /* aio_cancel asked: a start that parked gives up */
	unsigned char resubmitted;     /* times the kernel dropped it uncancelled (aio_ring.c) */
	unsigned char complete;        /* done, with res; the aiocb may be gone */
	long res;                      /* the result: a count, or -errno */
	unsigned char running;         /* worker backend: the worker is in the call */
	unsigned cancel_round;         /* the aio_cancel call that last asked for it */
	pthread_t worker;
};

/* ---- aio.c */
extern hidden volatile int __green_aio_gen;   /* bumped at each completion: waiters' word */
extern hidden struct aio_req *__green_aio_reqs;   /* the table, oldest first */
hidden int __green_aio_submit(struct aiocb *, int op, struct aio_group *);
hidden void __green_aio_done(struct aio_req *, long res);
hidden void __green_aio_wake(void);                 /* bump the word, wake its waiters */
hidden void __green_aio_note(struct aio_note *);
hidden void __green_aio_notify(void);
hidden int __green_aio_spawn(const pthread_attr_t *, void *(*)(void *), void *, pthread_t *);
hidden int __green_aio_sigevent_ok(const struct sigevent *);
hidden void __green_aio_note_init(struct aio_note *, const struct sigevent *, void *mem);

/* ---- aio_ring.c: 0 when the kernel takes requests, else an errno */
hidden int __green_aio_ring_open(void);
hidden int __green_aio_ring_start(struct aio_req *);   /* 0, EAGAIN (full: hold it), errno */
hidden int __green_aio_ring_cancel(struct aio_req *);  /* AIO_CANCELED, AIO_NOTCANCELED, AIO_ALLDONE */
hidden int __green_aio_ring_pending(void);            /* completions not yet taken */
hidden void __green_aio_ring_closing(int fd);         /* the program closes this number */
hidden void __green_aio_ring_fork_child(void);

/* ---- aio_worker.c */
hidden int __green_aio_worker_start(struct aio_req *);
hidden int __green_aio_worker_cancel(struct aio_req *);

#endif
