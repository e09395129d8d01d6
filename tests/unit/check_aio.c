/*
 * check_aio.c — Check suite: POSIX asynchronous I/O.
 *
 * A request in flight never holds up the other threads: a thread waits
 * in aio_suspend for a pipe read while another computes and only then
 * writes the data; a loop polling aio_error lets the writer run; a
 * submission only queues its request (cooperatively, it is still in
 * progress when the call returns).  Then what POSIX asks of the
 * interface, in both modes, most of it on requests that complete only
 * after their waiter parked: a file's round trip at offsets, appends in
 * the order of the calls, aio_fsync after the writes it covers,
 * lio_listio with LIO_WAIT and LIO_NOWAIT (errors per entry, EIO,
 * EINVAL), aio_cancel (AIO_CANCELED, AIO_ALLDONE, EBADF), aio_suspend's
 * timeout (EAGAIN) and EINTR, SIGEV_SIGNAL (SI_ASYNCIO and the value)
 * and SIGEV_THREAD (a new thread, with the attributes given), more
 * requests than the kernel ring holds, close of a descriptor with a
 * request in flight, and fork and exit with requests outstanding.
 *
 * The aiocbs and buffers a thread other than the test's own uses live in
 * the test's frame or in static storage, never on that thread's stack:
 * with copied stacks (the copied mode, tests/unit/modes.txt) a parked thread's stack is not at
 * its address (docs/stacks.md).  Every wait is bounded, so that a request
 * that never completes fails the test instead of hanging the run (under
 * valgrind every test shares one process and Check's timeout does not
 * apply); every test leaves no request outstanding.
 */
#include "testutil.h"
#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define LOAD(p) __atomic_load_n((p), __ATOMIC_SEQ_CST)
#define STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_SEQ_CST)
#define LONG_WAIT 20                /* seconds: "never", for a bounded wait */

/* ---- helpers */

/* A regular file in /tmp, already unlinked, opened O_RDWR | flags. */
static int temp_file(int flags)
{
	char name[] = "/tmp/green-aio-XXXXXX";
	int fd = mkstemp(name), again;
	ck_assert_int_ge(fd, 0);
	if (flags) {
		again = open(name, O_RDWR | flags);
		close(fd);
		fd = again;
		ck_assert_int_ge(fd, 0);
	}
	unlink(name);
	return fd;
}

static void fill(struct aiocb *cb, int fd, volatile void *buf, size_t n, off_t off)
{
	memset(cb, 0, sizeof *cb);
	cb->aio_fildes = fd;
	cb->aio_buf = buf;
	cb->aio_nbytes = n;
	cb->aio_offset = off;
	cb->aio_sigevent.sigev_notify = SIGEV_NONE;
}

/* aio_suspend until cb is complete (a handler's EINTR is no failure) */
static void await(struct aiocb *cb)
{
	const struct aiocb *list[1] = { cb };
	struct timespec ts = { LONG_WAIT, 0 };
	while (aio_error(cb) == EINPROGRESS)
		ck_assert_msg(!aio_suspend(list, 1, &ts) || errno == EINTR,
		              "aio_suspend: %s", strerror(errno));
}

/* cb is complete with n bytes (or 0 for a sync) */
static void done_with(struct aiocb *cb, ssize_t n)
{
	await(cb);
	ck_assert_int_eq(aio_error(cb), 0);
	ck_assert_int_eq(aio_return(cb), n);
}

/* Cancel cb, a pipe read on fd, and see it end: a read in progress is
 * not cancelled (green), and ends with a byte written to wfd. */
static void cancel_all(int fd, struct aiocb *cb, int wfd)
{
	int r = aio_cancel(fd, cb);
	ck_assert_int_ne(r, -1);
	if (r == AIO_NOTCANCELED) ck_assert_int_eq(write(wfd, "", 1), 1);
	await(cb);
}

/* Without time slicing nothing else runs between a submission and this
 * thread's next call: a request that the submission only queued is still
 * in progress.  (musl's AIO under green had a helper thread do the I/O
 * before aio_read or aio_write returned, blocking the process.) */
static void queued_only(const struct aiocb *cb)
{
	if (cooperative() && !explored()) ck_assert_int_eq(aio_error(cb), EINPROGRESS);
}

/* A thread that writes to a pipe once the others have had their turn:
 * without time slicing, only when the test's thread waits. */
struct later {
	pthread_t t;
	int fd;
	const char *data;
};

static void *write_later(void *arg)
{
	struct later *l = arg;
	for (int i = 0; i < 3; i++) sched_yield();
	ck_assert_int_eq(write(l->fd, l->data, strlen(l->data)), (ssize_t)strlen(l->data));
	return 0;
}

static void later_start(struct later *l, int fd, const char *data)
{
	l->fd = fd;
	l->data = data;
	SPAWN(&l->t, write_later, l);
}

/* After AIO_CANCELED the status is ECANCELED (POSIX).  Stock musl sets
 * it a moment after aio_cancel returns: 1:1 waits for it. */
static void settle(struct aiocb *cb)
{
	if (!GREEN_MODE) await(cb);
}

/* The submission fails with err, at once or as the request's status
 * (POSIX allows either). */
static void fails_with(int (*submit)(struct aiocb *), struct aiocb *cb, int err)
{
	int r = submit(cb);
	if (r == -1) {
		ck_assert_int_eq(errno, err);
		return;
	}
	ck_assert_int_eq(r, 0);
	await(cb);
	ck_assert_int_eq(aio_error(cb), err);
	ck_assert_int_eq(aio_return(cb), -1);
}

/* ---- signals: the handler posts, the test waits on the semaphore */

static sem_t handled;
static siginfo_t handled_info;
static volatile int nhandled;

static void on_siginfo(int s, siginfo_t *si, void *uc)
{
	handled_info = *si;
	__atomic_add_fetch(&nhandled, 1, __ATOMIC_SEQ_CST);
	sem_post(&handled);
}

static void on_signal(int s)
{
	__atomic_add_fetch(&nhandled, 1, __ATOMIC_SEQ_CST);
}

static void set_handler(int s, int flags)
{
	struct sigaction sa = { .sa_flags = flags };
	if (flags & SA_SIGINFO) sa.sa_sigaction = on_siginfo;
	else sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	ck_assert_int_eq(sigaction(s, &sa, 0), 0);
}

static void await_handled(void)
{
	struct timespec limit = abs_in_ms(LONG_WAIT * 1000);
	int r;
	while ((r = sem_timedwait(&handled, &limit)) && errno == EINTR) ;
	ck_assert_msg(!r, "the notification's handler did not run within %d s", LONG_WAIT);
}

static void setup(void)
{
	sem_init(&handled, 0, 0);
	nhandled = 0;
	memset(&handled_info, 0, sizeof handled_info);
}

static void teardown(void)
{
	sigset_t none;
	signal(SIGUSR1, SIG_DFL);
	signal(SIGUSR2, SIG_DFL);
	sigemptyset(&none);
	pthread_sigmask(SIG_SETMASK, &none, 0);
	sem_destroy(&handled);
}

/* ---- a thread waits in aio_suspend; another runs, then releases it */

struct waiter {
	pthread_t t;
	int fd, entered, done, r;
	struct aiocb cb;
	char buf[64];
};

static void *suspend_reader(void *arg)
{
	struct waiter *w = arg;
	const struct aiocb *list[1] = { &w->cb };
	struct timespec ts = { LONG_WAIT, 0 };

	fill(&w->cb, w->fd, w->buf, sizeof w->buf, 0);
	ck_assert_int_eq(aio_read(&w->cb), 0);
	STORE(&w->entered, 1);
	w->r = aio_suspend(list, 1, &ts);
	STORE(&w->done, 1);
	return 0;
}

static unsigned long compute(void)
{
	volatile unsigned long x = 0;
	for (unsigned long i = 0; i < 20000000; i++) x += i ^ (x >> 3);
	return x;
}

START_TEST(suspend_pipe_others_run)
{
	struct waiter w = { 0 };
	int p[2];

	ck_assert_int_eq(pipe(p), 0);
	w.fd = p[0];
	SPAWN(&w.t, suspend_reader, &w);
	while (!LOAD(&w.entered)) sched_yield();
	for (int i = 0; i < 3; i++) sched_yield();
	/* the waiter is parked: this thread computes to the end */
	compute();
	ck_assert_int_eq(LOAD(&w.done), 0);
	ck_assert_int_eq(aio_error(&w.cb), EINPROGRESS);
	ck_assert_int_eq(write(p[1], "hello", 5), 5);
	JOIN(w.t, 0);
	ck_assert_msg(w.r == 0, "aio_suspend was not woken by the completion");
	ck_assert_int_eq(aio_error(&w.cb), 0);
	ck_assert_int_eq(aio_return(&w.cb), 5);
	ck_assert_int_eq(memcmp(w.buf, "hello", 5), 0);
	close(p[0]);
	close(p[1]);
}
END_TEST

/* ---- polling aio_error lets the writer run (cooperative mode too) */

static int poll_fd;

static void *late_writer(void *arg)
{
	for (int i = 0; i < 5; i++) sched_yield();
	ck_assert_int_eq(write(poll_fd, "xyz", 3), 3);
	return 0;
}

START_TEST(poll_aio_error)
{
	static struct aiocb cb;
	static char buf[8];
	uint64_t t0 = now_ns();
	pthread_t t;
	int p[2];

	ck_assert_int_eq(pipe(p), 0);
	poll_fd = p[1];
	fill(&cb, p[0], buf, sizeof buf, 0);
	ck_assert_int_eq(aio_read(&cb), 0);
	SPAWN(&t, late_writer, 0);
	while (aio_error(&cb) == EINPROGRESS)
		ck_assert_msg(now_ns() - t0 < LONG_WAIT * 1000000000ull, "aio_error still EINPROGRESS");
	ck_assert_int_eq(aio_return(&cb), 3);
	JOIN(t, 0);
	close(p[0]);
	close(p[1]);
}
END_TEST

/* ---- a regular file: write at offsets, read back */

START_TEST(file_round_trip)
{
	struct aiocb w1, w2, r;
	char buf[32] = { 0 };
	int fd = temp_file(0);

	fill(&w1, fd, "0123456789", 10, 0);
	fill(&w2, fd, "abcdef", 6, 20);
	ck_assert_int_eq(aio_write(&w1), 0);
	queued_only(&w1);
	ck_assert_int_eq(aio_write(&w2), 0);
	done_with(&w1, 10);
	done_with(&w2, 6);
	ck_assert_int_eq(lseek(fd, 0, SEEK_END), 26);

	fill(&r, fd, buf, sizeof buf, 5);
	ck_assert_int_eq(aio_read(&r), 0);
	done_with(&r, 21);
	ck_assert_int_eq(memcmp(buf, "56789", 5), 0);
	for (int i = 5; i < 15; i++) ck_assert_int_eq(buf[i], 0);   /* the hole */
	ck_assert_int_eq(memcmp(buf + 15, "abcdef", 6), 0);

	/* at the end of the file: 0 bytes */
	fill(&r, fd, buf, sizeof buf, 100);
	ck_assert_int_eq(aio_read(&r), 0);
	done_with(&r, 0);
	close(fd);
}
END_TEST

/* n writes of len bytes to fd at the file position (an offset is
 * ignored), chunk i made from i by fmt; only queued when they return */
static void write_chunks(struct aiocb *cb, char (*chunk)[8], int n, int fd, const char *fmt, size_t len)
{
	for (int i = 0; i < n; i++) {
		snprintf(chunk[i], sizeof chunk[i], fmt, i);
		fill(&cb[i], fd, chunk[i], len, 0);
		ck_assert_int_eq(aio_write(&cb[i]), 0);
	}
	queued_only(&cb[n - 1]);
}

/* ---- O_APPEND: appended in the order of the calls */

START_TEST(append_in_order)
{
	enum { N = 40 };
	static struct aiocb cb[N];
	static char chunk[N][8];
	char got[N * 8];
	int fd = temp_file(O_APPEND);

	ck_assert_int_eq(write(fd, "HEAD", 4), 4);
	write_chunks(cb, chunk, N, fd, "<%05d>", 7);
	for (int i = 0; i < N; i++) done_with(&cb[i], 7);
	ck_assert_int_eq(pread(fd, got, 4, 0), 4);
	ck_assert_int_eq(memcmp(got, "HEAD", 4), 0);
	ck_assert_int_eq(pread(fd, got, N * 7, 4), N * 7);
	for (int i = 0; i < N; i++) ck_assert_int_eq(memcmp(got + 7 * i, chunk[i], 7), 0);
	close(fd);
}
END_TEST

/* ---- a pipe: writes arrive in the order of the calls */

START_TEST(pipe_writes_in_order)
{
	enum { N = 20 };
	static struct aiocb cb[N];
	static char chunk[N][8];
	char got[N * 6];
	int p[2];
	size_t have = 0;

	ck_assert_int_eq(pipe(p), 0);
	write_chunks(cb, chunk, N, p[1], "[%04d]", 6);
	while (have < sizeof got) {
		ssize_t k = read(p[0], got + have, sizeof got - have);
		ck_assert_int_gt(k, 0);
		have += k;
	}
	for (int i = 0; i < N; i++) {
		done_with(&cb[i], 6);
		ck_assert_int_eq(memcmp(got + 6 * i, chunk[i], 6), 0);
	}
	close(p[0]);
	close(p[1]);
}
END_TEST

/* ---- aio_fsync covers the writes queued before it */

START_TEST(fsync_after_writes)
{
	static struct aiocb w[8], s, d;
	static char data[8][512];
	int fd = temp_file(0);

	for (int i = 0; i < 8; i++) {
		memset(data[i], 'a' + i, sizeof data[i]);
		fill(&w[i], fd, data[i], sizeof data[i], i * 512);
		ck_assert_int_eq(aio_write(&w[i]), 0);
	}
	fill(&s, fd, 0, 0, 0);
	ck_assert_int_eq(aio_fsync(O_SYNC, &s), 0);
	queued_only(&s);
	done_with(&s, 0);
	for (int i = 0; i < 8; i++) ck_assert_int_ne(aio_error(&w[i]), EINPROGRESS);
	for (int i = 0; i < 8; i++) done_with(&w[i], 512);

	fill(&d, fd, 0, 0, 0);
	ck_assert_int_eq(aio_fsync(O_DSYNC, &d), 0);
	done_with(&d, 0);

	/* neither O_SYNC nor O_DSYNC */
	errno = 0;
	ck_assert_int_eq(aio_fsync(0, &d), -1);
	ck_assert_int_eq(errno, EINVAL);
	close(fd);
}
END_TEST

/* ---- lio_listio, LIO_WAIT: a thread waits for a list that ends with a
 * pipe read; this thread computes, then writes the data.  One entry
 * fails when it runs (a write to a read-only descriptor): EIO, its own
 * status says why, and the others complete. */

struct lio_waiter {
	pthread_t t;
	struct aiocb *list[6];
	int r, err, done;
};

static void *lio_wait_thread(void *arg)
{
	struct lio_waiter *v = arg;
	v->r = lio_listio(LIO_WAIT, v->list, 6, 0);
	v->err = errno;
	STORE(&v->done, 1);
	return 0;
}

START_TEST(lio_wait)
{
	static struct aiocb w, r, nop, bad, pr;
	static char buf[16], pbuf[8];
	struct lio_waiter v = { .list = { &w, 0, &nop, &r, &bad, &pr } };
	struct timespec pace = { 0, 1000000 };
	uint64_t t0;
	int fd = temp_file(0), ro = open("/dev/null", O_RDONLY), p[2];

	ck_assert_int_eq(pipe(p), 0);
	ck_assert_int_eq(pwrite(fd, "0123456789", 10, 0), 10);
	fill(&w, fd, "WXYZ", 4, 20);
	w.aio_lio_opcode = LIO_WRITE;
	fill(&r, fd, buf, 6, 2);
	r.aio_lio_opcode = LIO_READ;
	fill(&nop, fd, buf, 1, 0);
	nop.aio_lio_opcode = LIO_NOP;
	fill(&bad, ro, "x", 1, 0);
	bad.aio_lio_opcode = LIO_WRITE;
	fill(&pr, p[0], pbuf, sizeof pbuf, 0);
	pr.aio_lio_opcode = LIO_READ;
	SPAWN(&v.t, lio_wait_thread, &v);
	/* the last entry is in: let the waiter reach its wait */
	while (aio_error(&pr) != EINPROGRESS) sched_yield();
	for (int i = 0; i < 3; i++) sched_yield();
	compute();
	ck_assert_int_eq(LOAD(&v.done), 0);   /* the pipe read holds it */
	ck_assert_int_eq(write(p[1], "pipe", 4), 4);
	for (t0 = now_ns(); !LOAD(&v.done) && now_ns() - t0 < LONG_WAIT * 1000000000ull;)
		nanosleep(&pace, 0);
	ck_assert_msg(LOAD(&v.done), "lio_listio(LIO_WAIT) did not return");
	JOIN(v.t, 0);
	ck_assert_int_eq(v.r, -1);
	ck_assert_int_eq(v.err, EIO);
	/* all complete when it returns */
	ck_assert_int_eq(aio_error(&bad), EBADF);
	ck_assert_int_eq(aio_error(&w), 0);
	ck_assert_int_eq(aio_return(&w), 4);
	ck_assert_int_eq(aio_error(&r), 0);
	ck_assert_int_eq(aio_return(&r), 6);
	ck_assert_int_eq(memcmp(buf, "234567", 6), 0);
	ck_assert_int_eq(aio_error(&pr), 0);
	ck_assert_int_eq(aio_return(&pr), 4);
	ck_assert_int_eq(memcmp(pbuf, "pipe", 4), 0);
	ck_assert_int_eq(pread(fd, buf, 4, 20), 4);
	ck_assert_int_eq(memcmp(buf, "WXYZ", 4), 0);
	/* nothing at all; and all well */
	ck_assert_int_eq(lio_listio(LIO_WAIT, v.list, 0, 0), 0);
	ck_assert_int_eq(lio_listio(LIO_WAIT, v.list, 4, 0), 0);
	close(ro);
	close(p[0]);
	close(p[1]);
	close(fd);
}
END_TEST

/* ---- lio_listio, LIO_NOWAIT with a signal when all are complete */

START_TEST(lio_nowait_signal)
{
	enum { N = 6 };
	static struct aiocb cb[N], pr;
	static char buf[N][4], pbuf[4];
	struct aiocb *list[N + 1];
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR2 };
	int fd = temp_file(0), p[2];

	set_handler(SIGUSR2, SA_SIGINFO);
	ck_assert_int_eq(pipe(p), 0);
	ck_assert_int_eq(pwrite(fd, "abcdefghijklmnopqrstuvwx", 24, 0), 24);
	for (int i = 0; i < N; i++) {
		fill(&cb[i], fd, buf[i], 4, 4 * i);
		cb[i].aio_lio_opcode = LIO_READ;
		list[i] = &cb[i];
	}
	fill(&pr, p[0], pbuf, 4, 0);
	pr.aio_lio_opcode = LIO_READ;
	list[N] = &pr;
	sev.sigev_value.sival_int = 4711;
	ck_assert_int_eq(lio_listio(LIO_NOWAIT, list, N + 1, &sev), 0);
	/* returned at once: the pipe read cannot be complete */
	ck_assert_int_eq(aio_error(&pr), EINPROGRESS);
	ck_assert_int_eq(write(p[1], "last", 4), 4);
	await_handled();
	ck_assert_int_eq(aio_error(&pr), 0);
	ck_assert_int_eq(aio_return(&pr), 4);
	ck_assert_int_eq(handled_info.si_signo, SIGUSR2);
	ck_assert_int_eq(handled_info.si_code, SI_ASYNCIO);
	ck_assert_int_eq(handled_info.si_value.sival_int, 4711);
	/* the signal comes once all are complete */
	for (int i = 0; i < N; i++) {
		ck_assert_int_eq(aio_error(&cb[i]), 0);
		ck_assert_int_eq(aio_return(&cb[i]), 4);
		ck_assert_int_eq(memcmp(buf[i], "abcdefghijklmnopqrstuvwx" + 4 * i, 4), 0);
	}
	ck_assert_int_eq(LOAD(&nhandled), 1);
	close(p[0]);
	close(p[1]);
	close(fd);
}
END_TEST

/* ---- lio_listio's errors (stock musl skips an entry with a bad opcode
 * and accepts a bad mode: green only) */

START_TEST(lio_bad_entries)
{
	static struct aiocb good, bad;
	static char buf[8];
	struct aiocb *list[] = { &good, &bad };
	int fd = temp_file(0);

	ck_assert_int_eq(pwrite(fd, "12345678", 8, 0), 8);
	fill(&good, fd, buf, 8, 0);
	good.aio_lio_opcode = LIO_READ;
	fill(&bad, fd, buf, 8, 0);
	bad.aio_lio_opcode = 42;

	/* a bad entry: EIO, and its own status says why; the other completes */
	errno = 0;
	ck_assert_int_eq(lio_listio(LIO_WAIT, list, 2, 0), -1);
	ck_assert_int_eq(errno, EIO);
	ck_assert_int_eq(aio_error(&bad), EINVAL);
	ck_assert_int_eq(aio_error(&good), 0);
	ck_assert_int_eq(aio_return(&good), 8);

	errno = 0;
	ck_assert_int_eq(lio_listio(LIO_NOWAIT, list, 2, 0), -1);
	ck_assert_int_eq(errno, EIO);
	done_with(&good, 8);

	/* neither mode */
	errno = 0;
	ck_assert_int_eq(lio_listio(7, list, 1, 0), -1);
	ck_assert_int_eq(errno, EINVAL);
	close(fd);
}
END_TEST

/* ---- aio_cancel */

START_TEST(cancel_pipe_read)
{
	static struct aiocb a, b;
	static char buf[2][8];
	/* green: the first read is in progress, which glibc's and green's
	 * aio_cancel leave be; the second waits behind it, and is cancelled.
	 * Stock musl cancels both. */
	int inprog = GREEN_MODE ? AIO_NOTCANCELED : AIO_CANCELED, p[2];

	ck_assert_int_eq(pipe(p), 0);
	fill(&a, p[0], buf[0], 8, 0);
	ck_assert_int_eq(aio_read(&a), 0);
	fill(&b, p[0], buf[1], 8, 0);
	ck_assert_int_eq(aio_read(&b), 0);
	ck_assert_int_eq(aio_cancel(p[0], &b), AIO_CANCELED);
	settle(&b);
	ck_assert_int_eq(aio_error(&b), ECANCELED);
	ck_assert_int_eq(aio_return(&b), -1);
	ck_assert_int_eq(aio_cancel(p[0], &a), inprog);
	if (GREEN_MODE) ck_assert_int_eq(aio_error(&a), EINPROGRESS);

	/* every request of the descriptor */
	ck_assert_int_eq(aio_read(&b), 0);
	ck_assert_int_eq(aio_cancel(p[0], 0), inprog);
	settle(&b);
	ck_assert_int_eq(aio_error(&b), ECANCELED);

	/* the pipe still works, and its data went to nobody cancelled */
	ck_assert_int_eq(write(p[1], "left", 4), 4);
	if (GREEN_MODE) {
		done_with(&a, 4);
		ck_assert_int_eq(memcmp(buf[0], "left", 4), 0);
	} else {
		settle(&a);
		ck_assert_int_eq(aio_error(&a), ECANCELED);
		ck_assert_int_eq(read(p[0], buf[0], 8), 4);
	}
	close(p[0]);
	close(p[1]);
}
END_TEST

START_TEST(cancel_done_and_errors)
{
	static struct aiocb cb;
	static char buf[4];
	int fd = temp_file(0), p[2];

	fill(&cb, fd, "data", 4, 0);
	ck_assert_int_eq(aio_write(&cb), 0);
	done_with(&cb, 4);
	ck_assert_int_eq(aio_cancel(fd, &cb), AIO_ALLDONE);
	ck_assert_int_eq(aio_cancel(fd, 0), AIO_ALLDONE);
	ck_assert_int_eq(aio_error(&cb), 0);   /* untouched */

	errno = 0;
	ck_assert_int_eq(aio_cancel(-1, 0), -1);
	ck_assert_int_eq(errno, EBADF);
	if (GREEN_MODE) {   /* stock musl: AIO_ALLDONE for a closed one */
		ck_assert_int_eq(pipe(p), 0);
		close(p[0]);
		close(p[1]);
		errno = 0;
		ck_assert_int_eq(aio_cancel(p[0], 0), -1);
		ck_assert_int_eq(errno, EBADF);
	}

	/* a descriptor with nothing of its own in flight */
	ck_assert_int_eq(pipe(p), 0);
	fill(&cb, p[0], buf, 4, 0);
	ck_assert_int_eq(aio_read(&cb), 0);
	ck_assert_int_eq(aio_cancel(fd, 0), AIO_ALLDONE);
	ck_assert_int_eq(aio_error(&cb), EINPROGRESS);
	cancel_all(p[0], &cb, p[1]);
	close(p[0]);
	close(p[1]);
	close(fd);
}
END_TEST

/* ---- aio_suspend: timeout, EINTR, the list */

START_TEST(suspend_timeout)
{
	static struct aiocb cb;
	static char buf[4];
	const struct aiocb *list[] = { 0, &cb };
	struct timespec ts = { 0, 50000000 };
	uint64_t t0;
	int p[2];

	ck_assert_int_eq(pipe(p), 0);
	fill(&cb, p[0], buf, 4, 0);
	ck_assert_int_eq(aio_read(&cb), 0);
	t0 = now_ns();
	errno = 0;
	ck_assert_int_eq(aio_suspend(list, 2, &ts), -1);
	ck_assert_int_eq(errno, EAGAIN);
	ck_assert_slept(t0, 50000000u);
	ck_assert_int_eq(aio_error(&cb), EINPROGRESS);

	/* one already complete: at once */
	ck_assert_int_eq(write(p[1], "ab", 2), 2);
	await(&cb);
	ck_assert_int_eq(aio_suspend(list, 2, &ts), 0);
	ck_assert_int_eq(aio_return(&cb), 2);

	/* a bad timeout (stock musl looks at it only when it must wait) */
	if (GREEN_MODE) {
		errno = 0;
		ts.tv_nsec = 1000000000;
		ck_assert_int_eq(aio_suspend(list, 2, &ts), -1);
		ck_assert_int_eq(errno, EINVAL);
	}
	close(p[0]);
	close(p[1]);
}
END_TEST

struct intr {
	struct aiocb cb;
	char buf[4];
	int fd, r, err, done;
	pthread_t waiter;
};

static void *suspend_until_signal(void *arg)
{
	struct intr *v = arg;
	const struct aiocb *list[] = { &v->cb };
	struct timespec ts = { LONG_WAIT, 0 };
	v->r = aio_suspend(list, 1, &ts);
	v->err = errno;
	STORE(&v->done, 1);
	return 0;
}

START_TEST(suspend_eintr)
{
	struct intr v = { 0 };
	struct timespec pace = { 0, 1000000 };
	int p[2];

	set_handler(SIGUSR1, 0);   /* no SA_RESTART */
	ck_assert_int_eq(pipe(p), 0);
	fill(&v.cb, p[0], v.buf, 4, 0);
	ck_assert_int_eq(aio_read(&v.cb), 0);
	SPAWN(&v.waiter, suspend_until_signal, &v);
	/* a signal that comes before the wait starts interrupts nothing:
	 * send until the wait has ended */
	while (!LOAD(&v.done)) {
		ck_assert_int_eq(pthread_kill(v.waiter, SIGUSR1), 0);
		nanosleep(&pace, 0);
	}
	JOIN(v.waiter, 0);
	ck_assert_int_eq(v.r, -1);
	ck_assert_int_eq(v.err, EINTR);
	ck_assert_int_ge(LOAD(&nhandled), 1);
	ck_assert_int_eq(aio_error(&v.cb), EINPROGRESS);
	cancel_all(p[0], &v.cb, p[1]);
	close(p[0]);
	close(p[1]);
}
END_TEST

/* ---- notification */

/* The waiter blocks the signal, so only the completion can end its wait;
 * the writer runs the handler. */
static void *write_then_catch(void *arg)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	pthread_sigmask(SIG_UNBLOCK, &set, 0);
	write_later(arg);
	await_handled();
	return 0;
}

START_TEST(sigev_signal)
{
	static struct aiocb cb;
	static char buf[8];
	struct later l = { 0 };
	sigset_t set;
	int p[2];

	set_handler(SIGUSR1, SA_SIGINFO);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	ck_assert_int_eq(pthread_sigmask(SIG_BLOCK, &set, 0), 0);
	ck_assert_int_eq(pipe(p), 0);
	fill(&cb, p[0], buf, 8, 0);
	cb.aio_sigevent.sigev_notify = SIGEV_SIGNAL;
	cb.aio_sigevent.sigev_signo = SIGUSR1;
	cb.aio_sigevent.sigev_value.sival_ptr = &cb;
	ck_assert_int_eq(aio_read(&cb), 0);
	l.fd = p[1];
	l.data = "notified";
	SPAWN(&l.t, write_then_catch, &l);
	await(&cb);
	JOIN(l.t, 0);
	ck_assert_int_eq(handled_info.si_signo, SIGUSR1);
	ck_assert_int_eq(handled_info.si_code, SI_ASYNCIO);
	ck_assert_ptr_eq(handled_info.si_value.sival_ptr, &cb);
	ck_assert_int_eq(aio_error(&cb), 0);
	ck_assert_int_eq(aio_return(&cb), 8);
	ck_assert_int_eq(memcmp(buf, "notified", 8), 0);
	close(p[0]);
	close(p[1]);
}
END_TEST

static struct {
	pthread_t self;
	size_t stack;
	int value, status, detached;
} notified;
static sem_t notify_done;

static void on_complete(union sigval v)
{
	pthread_attr_t a;
	struct aiocb *cb = v.sival_ptr;
	notified.self = pthread_self();
	notified.status = aio_error(cb);
	if (!pthread_getattr_np(pthread_self(), &a)) {
		int ds;
		pthread_attr_getstacksize(&a, &notified.stack);
		pthread_attr_getdetachstate(&a, &ds);
		notified.detached = ds == PTHREAD_CREATE_DETACHED;
		pthread_attr_destroy(&a);
	}
	sem_post(&notify_done);
}

START_TEST(sigev_thread)
{
	static struct aiocb cb;
	static char buf[4];
	struct timespec limit;
	pthread_attr_t attr;
	struct later l;
	int p[2], r;

	sem_init(&notify_done, 0, 0);
	memset(&notified, 0, sizeof notified);
	ck_assert_int_eq(pipe(p), 0);
	pthread_attr_init(&attr);
	ck_assert_int_eq(pthread_attr_setstacksize(&attr, 1 << 20), 0);
	fill(&cb, p[0], buf, 4, 0);
	cb.aio_sigevent.sigev_notify = SIGEV_THREAD;
	cb.aio_sigevent.sigev_notify_function = on_complete;
	cb.aio_sigevent.sigev_notify_attributes = &attr;
	cb.aio_sigevent.sigev_value.sival_ptr = &cb;
	ck_assert_int_eq(aio_read(&cb), 0);
	pthread_attr_destroy(&attr);   /* read when submitted, not later */
	later_start(&l, p[1], "abcd");
	await(&cb);
	limit = abs_in_ms(LONG_WAIT * 1000);
	while ((r = sem_timedwait(&notify_done, &limit)) && errno == EINTR) ;
	ck_assert_msg(!r, "the notification function did not run");
	ck_assert(!pthread_equal(notified.self, pthread_self()));
	ck_assert_int_eq(notified.status, 0);   /* complete before it runs */
	ck_assert_uint_ge(notified.stack, 1 << 20);
	ck_assert_int_eq(notified.detached, 1);
	ck_assert_int_eq(aio_return(&cb), 4);
	ck_assert_int_eq(memcmp(buf, "abcd", 4), 0);
	JOIN(l.t, 0);
	sem_destroy(&notify_done);
	close(p[0]);
	close(p[1]);
}
END_TEST

/* ---- more requests than the kernel ring holds */

START_TEST(many_requests)
{
	enum { N = 300 };
	static struct aiocb cb[N];
	static struct aiocb *list[N];
	static unsigned got[N];
	static unsigned data[N];
	int fd = temp_file(0);

	for (unsigned i = 0; i < N; i++) data[i] = i * 2654435761u;
	ck_assert_int_eq(pwrite(fd, data, sizeof data, 0), (ssize_t)sizeof data);
	for (int i = 0; i < N; i++) {
		fill(&cb[i], fd, &got[N - 1 - i], sizeof *got, (N - 1 - i) * sizeof *got);
		cb[i].aio_lio_opcode = LIO_READ;
		list[i] = &cb[i];
	}
	ck_assert_int_eq(lio_listio(LIO_NOWAIT, list, N, 0), 0);
	queued_only(&cb[N - 1]);
	for (int i = 0; i < N; i++) done_with(&cb[i], sizeof *got);
	ck_assert_int_eq(memcmp(got, data, sizeof data), 0);

	/* single submissions beyond the ring, writes this time */
	for (int i = 0; i < N; i++) {
		fill(&cb[i], fd, &data[i], sizeof *data, (N + i) * sizeof *data);
		ck_assert_int_eq(aio_write(&cb[i]), 0);
	}
	for (int i = 0; i < N; i++) done_with(&cb[i], sizeof *data);
	ck_assert_int_eq(pread(fd, got, sizeof got, sizeof data), (ssize_t)sizeof got);
	ck_assert_int_eq(memcmp(got, data, sizeof data), 0);
	close(fd);
}
END_TEST

/* ---- submission errors */

static int fsync_sync(struct aiocb *cb)
{
	return aio_fsync(O_SYNC, cb);
}

START_TEST(submit_errors)
{
	static struct aiocb cb;
	static char buf[4];
	int fd = temp_file(0), ro = open("/dev/null", O_RDONLY), wo = open("/dev/null", O_WRONLY);

	fill(&cb, -1, buf, 4, 0);
	fails_with(aio_read, &cb, EBADF);
	fill(&cb, ro, "x", 1, 0);
	fails_with(aio_write, &cb, EBADF);
	fill(&cb, wo, buf, 1, 0);
	fails_with(aio_read, &cb, EBADF);
	fill(&cb, fd, buf, 4, -1);
	fails_with(aio_read, &cb, EINVAL);
	if (GREEN_MODE) {   /* stock musl ignores aio_reqprio */
		fill(&cb, fd, buf, 4, 0);
		cb.aio_reqprio = -1;
		fails_with(aio_read, &cb, EINVAL);
	}
	fill(&cb, 12345, 0, 0, 0);
	fails_with(fsync_sync, &cb, EBADF);
	close(ro);
	close(wo);
	close(fd);
}
END_TEST

/* ---- a descriptor that is not open, or not for the direction: the
 * request is accepted and fails with EBADF as it runs, its status and
 * result saying so (as glibc does; stock musl refuses a closed one at
 * submission: green only) */

START_TEST(bad_descriptor_accepted)
{
	static struct aiocb cb;
	static char buf[4];
	int ro = open("/dev/null", O_RDONLY), wo = open("/dev/null", O_WRONLY);

	fill(&cb, -1, buf, 4, 0);
	ck_assert_int_eq(aio_read(&cb), 0);
	await(&cb);
	ck_assert_int_eq(aio_error(&cb), EBADF);
	ck_assert_int_eq(aio_return(&cb), -1);
	fill(&cb, ro, "x", 1, 0);
	ck_assert_int_eq(aio_write(&cb), 0);
	await(&cb);
	ck_assert_int_eq(aio_error(&cb), EBADF);
	ck_assert_int_eq(aio_return(&cb), -1);
	fill(&cb, wo, buf, 1, 0);
	ck_assert_int_eq(aio_read(&cb), 0);
	await(&cb);
	ck_assert_int_eq(aio_error(&cb), EBADF);
	close(ro);
	close(wo);
}
END_TEST

/* lio_listio(LIO_NOWAIT) with an entry on a closed descriptor: the call
 * succeeds, the good entry runs, the bad one alone has EBADF */
START_TEST(lio_bad_descriptor_entry)
{
	static struct aiocb good, bad;
	static char buf[8];
	struct aiocb *list[] = { &bad, &good };
	int fd = temp_file(0);

	ck_assert_int_eq(pwrite(fd, "12345678", 8, 0), 8);
	fill(&good, fd, buf, 8, 0);
	good.aio_lio_opcode = LIO_READ;
	fill(&bad, -1, buf, 8, 0);
	bad.aio_lio_opcode = LIO_WRITE;
	ck_assert_int_eq(lio_listio(LIO_NOWAIT, list, 2, 0), 0);
	done_with(&good, 8);
	await(&bad);
	ck_assert_int_eq(aio_error(&bad), EBADF);
	ck_assert_int_eq(aio_return(&bad), -1);
	close(fd);
}
END_TEST

/* aio_cancel of a socket write that has begun and waits for room is
 * AIO_NOTCANCELED (part of its data may be sent already), as glibc says
 * of every request in progress; it completes once the reader drains the
 * socket.  Stock musl cancels it: green only. */
START_TEST(cancel_started_socket_write)
{
	static struct aiocb cb;
	static char big[1 << 20], sink[1 << 16];
	int sv[2], size = 4096;

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
	while (send(sv[0], big, sizeof sink, MSG_DONTWAIT) > 0) ;
	fill(&cb, sv[0], big, sizeof big, 0);
	ck_assert_int_eq(aio_write(&cb), 0);
	for (int i = 0; i < 10; i++) sched_yield();   /* the reaper or a worker has it */
	ck_assert_int_eq(aio_error(&cb), EINPROGRESS);
	ck_assert_int_eq(aio_cancel(sv[0], &cb), AIO_NOTCANCELED);
	ck_assert_int_eq(aio_cancel(sv[0], 0), AIO_NOTCANCELED);
	/* drain without blocking: the last read may find nothing left while
	 * the write's completion is still to be reaped */
	while (aio_error(&cb) == EINPROGRESS) recv(sv[1], sink, sizeof sink, MSG_DONTWAIT);
	await(&cb);
	ck_assert_int_eq(aio_error(&cb), 0);
	ck_assert_int_gt(aio_return(&cb), 0);   /* complete, not cancelled */
	close(sv[0]);
	close(sv[1]);
}
END_TEST

/* ---- close with a read in flight: no hang */

START_TEST(close_in_flight)
{
	static struct aiocb cb;
	static char buf[4];
	int p[2];

	ck_assert_int_eq(pipe(p), 0);
	fill(&cb, p[0], buf, 4, 0);
	ck_assert_int_eq(aio_read(&cb), 0);
	ck_assert_int_eq(close(p[0]), 0);
	/* cancelled by the close, or (POSIX allows it) done as if the close
	 * had not been: then the data completes it (stock musl cancels, and
	 * sets the status a moment later: the write may find no reader) */
	signal(SIGPIPE, SIG_IGN);
	if (aio_error(&cb) == EINPROGRESS) write(p[1], "ab", 2);
	await(&cb);
	ck_assert(aio_error(&cb) == ECANCELED || aio_return(&cb) == 2);
	if (GREEN_MODE) ck_assert_int_eq(aio_error(&cb), ECANCELED);
	signal(SIGPIPE, SIG_DFL);
	close(p[1]);
}
END_TEST

/* A file's write is not lost to the close that follows it at once (green
 * lets it complete; stock musl may cancel it, which POSIX allows too) */
START_TEST(close_file_in_flight)
{
	static struct aiocb w[4];
	char name[] = "/tmp/green-aio-XXXXXX", got[16];
	int fd = mkstemp(name), again;

	ck_assert_int_ge(fd, 0);
	again = open(name, O_RDONLY);
	unlink(name);
	for (int i = 0; i < 4; i++) {
		fill(&w[i], fd, "abcd" + i, 1, i);
		ck_assert_int_eq(aio_write(&w[i]), 0);
	}
	queued_only(&w[3]);   /* the close comes with the writes in flight */
	ck_assert_int_eq(close(fd), 0);
	for (int i = 0; i < 4; i++) {
		await(&w[i]);
		if (!GREEN_MODE && aio_error(&w[i]) == ECANCELED) continue;
		ck_assert_int_eq(aio_error(&w[i]), 0);
		ck_assert_int_eq(aio_return(&w[i]), 1);
	}
	if (GREEN_MODE) {
		ck_assert_int_eq(pread(again, got, sizeof got, 0), 4);
		ck_assert_int_eq(memcmp(got, "abcd", 4), 0);
	}
	close(again);
}
END_TEST

/* ---- fork: the child has no requests; exit with requests in flight */

START_TEST(fork_and_exit)
{
	static struct aiocb cb, c2;
	static char buf[4], b2[4];
	int p[2], st, fd = temp_file(0);
	pid_t pid;

	ck_assert_int_eq(pwrite(fd, "kid!", 4, 0), 4);
	ck_assert_int_eq(pipe(p), 0);
	fill(&cb, p[0], buf, 4, 0);
	ck_assert_int_eq(aio_read(&cb), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		const struct aiocb *list[] = { &c2 };
		struct timespec ts = { 5, 0 };
		/* none of the parent's: nothing to cancel */
		if (aio_cancel(p[0], 0) != AIO_ALLDONE) _exit(2);
		/* its own requests work */
		fill(&c2, fd, b2, 4, 0);
		if (aio_read(&c2) || aio_suspend(list, 1, &ts) || aio_return(&c2) != 4 ||
		    memcmp(b2, "kid!", 4))
			_exit(3);
		/* and exit does not wait for one that never completes */
		fill(&c2, p[0], b2, 4, 0);
		if (aio_read(&c2)) _exit(4);
		exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), 0);
	/* the parent's read is still there, and the child took no data */
	ck_assert_int_eq(aio_error(&cb), EINPROGRESS);
	ck_assert_int_eq(write(p[1], "par", 3), 3);
	done_with(&cb, 3);
	close(p[0]);
	close(p[1]);
	close(fd);
}
END_TEST

/* ---- a thread's requests while other threads use other descriptors */

struct pair {
	int in, out, n;
	pthread_t t;
	struct aiocb rd, wr;
	char buf[16];
};

static void *echo(void *arg)
{
	struct pair *e = arg;
	for (int i = 0; i < e->n; i++) {
		fill(&e->rd, e->in, e->buf, sizeof e->buf, 0);
		ck_assert_int_eq(aio_read(&e->rd), 0);
		await(&e->rd);
		ssize_t k = aio_return(&e->rd);
		ck_assert_int_gt(k, 0);
		fill(&e->wr, e->out, e->buf, k, 0);
		ck_assert_int_eq(aio_write(&e->wr), 0);
		done_with(&e->wr, k);
	}
	return 0;
}

START_TEST(echo_threads)
{
	enum { T = 4, N = 50 };
	struct pair e[T];
	int to[T][2], from[T][2];
	char b[16];

	for (int t = 0; t < T; t++) {
		ck_assert_int_eq(pipe(to[t]), 0);
		ck_assert_int_eq(pipe(from[t]), 0);
		e[t] = (struct pair){ .in = to[t][0], .out = from[t][1], .n = N };
		SPAWN(&e[t].t, echo, &e[t]);
	}
	for (int i = 0; i < N; i++)
		for (int t = 0; t < T; t++) {
			int len = snprintf(b, sizeof b, "%d:%d", t, i);
			ck_assert_int_eq(write(to[t][1], b, len), len);
			char r[16] = { 0 };
			ck_assert_int_eq(read(from[t][0], r, sizeof r), len);
			ck_assert_int_eq(memcmp(r, b, len), 0);
		}
	for (int t = 0; t < T; t++) {
		JOIN(e[t].t, 0);
		close(to[t][0]);
		close(to[t][1]);
		close(from[t][0]);
		close(from[t][1]);
	}
}
END_TEST

/* ---- aio_reqprio: held requests start by priority (green) */

/* Four one-byte reads of a pipe, queued while it is empty: the first
 * starts, the others wait for it (a stream: one at a time).  Then the
 * pipe gets "abcd": the waiting ones start highest priority first
 * (aio_reqprio lowers it), FIFO among equals. */
START_TEST(reqprio_order)
{
	static struct aiocb cb[4];
	static char got[4];
	static const int reqprio[4] = { 0, 3, 0, 1 };
	static const char want[4] = { 'a', 'd', 'b', 'c' };
	int p[2];

	ck_assert_int_eq(pipe(p), 0);
	for (int i = 0; i < 4; i++) {
		fill(&cb[i], p[0], &got[i], 1, 0);
		cb[i].aio_reqprio = reqprio[i];
		ck_assert_int_eq(aio_read(&cb[i]), 0);
	}
	ck_assert_int_eq(write(p[1], "abcd", 4), 4);
	for (int i = 0; i < 4; i++) {
		done_with(&cb[i], 1);
		ck_assert_msg(got[i] == want[i], "read %d (aio_reqprio %d) got '%c', want '%c'",
		              i, reqprio[i], got[i], want[i]);
	}
	close(p[0]);
	close(p[1]);
}
END_TEST

Suite *suite_aio(void)
{
	Suite *s = suite_create("aio");
	TCase *tc = tcase_create("aio");
	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, setup, teardown);
	/* the waiter cannot finish before this thread releases it, so these
	 * hold with kernel threads too; stock musl cancels a helper blocked
	 * in a read with pthread_cancel, which faults on m68k: the tests
	 * that need it are left out there (tests/testutil.h) */
	tcase_add_test(tc, suspend_pipe_others_run);
	tcase_add_test(tc, poll_aio_error);
	tcase_add_test(tc, file_round_trip);
	tcase_add_test(tc, append_in_order);
	tcase_add_test(tc, pipe_writes_in_order);
	tcase_add_test(tc, fsync_after_writes);
	tcase_add_test(tc, lio_wait);
	tcase_add_test(tc, lio_nowait_signal);
	if (GREEN_MODE) tcase_add_test(tc, lio_bad_entries);
	tcase_add_cp_cancel_test(tc, cancel_pipe_read);
	tcase_add_cp_cancel_test(tc, cancel_done_and_errors);
	tcase_add_test(tc, suspend_timeout);
	tcase_add_cp_cancel_test(tc, suspend_eintr);
	tcase_add_test(tc, sigev_signal);
	tcase_add_test(tc, sigev_thread);
	tcase_add_test(tc, many_requests);
	tcase_add_test(tc, submit_errors);
	if (GREEN_MODE) {
		tcase_add_test(tc, reqprio_order);   /* _POSIX_PRIORITIZED_IO: green's */
		tcase_add_test(tc, bad_descriptor_accepted);
		tcase_add_test(tc, lio_bad_descriptor_entry);
		tcase_add_test(tc, cancel_started_socket_write);
	}
	tcase_add_cp_cancel_test(tc, close_in_flight);
	tcase_add_cp_cancel_test(tc, close_file_in_flight);   /* musl cancels its writers */
	/* qemu-user cannot start a thread in the child of a process whose
	 * other thread is in a system call: stock musl's helpers (1:1) do */
	if (GREEN_MODE || !emulated()) tcase_add_test(tc, fork_and_exit);
	else fprintf(stderr, "SKIP: fork_and_exit (1:1 under an emulator: qemu-user fails a thread in the child)\n");
	tcase_add_test(tc, echo_threads);
	suite_add_tcase(s, tc);
	return s;
}
