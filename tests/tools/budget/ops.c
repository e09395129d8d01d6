/*
 * ops.c — N repetitions of one fast-path operation, for counting its
 * instructions (tests/tools/budget.sh): the count of a run with N = 0 is
 * subtracted from one with N, and the difference divided by N.
 *
 *   ops OPERATION N
 *
 * Every run creates the same helper thread first and leaves it parked on
 * a condition variable, so the library is in its threaded state (the
 * state a server's fast paths run in) and nothing else is runnable.  The
 * operations between two threads run in two created threads while main
 * waits to join them, so that with GREEN_STACKS=copied both are copied
 * and every switch copies a stack.  Built with -DOPS_TLS the program has
 * a __thread variable, and so a TCB per thread (src/core/stack/tls.c).
 * Operations (budgets.txt has a line for each):
 *   mutex       pthread_mutex_lock + pthread_mutex_unlock, uncontended
 *   yield       sched_yield with nothing else runnable
 *   signal      pthread_cond_signal with no waiter
 *   trylock     pthread_mutex_trylock + unlock
 *   sem         sem_post + sem_wait, the value never 0 at the wait
 *   yield2      a round of two threads each yielding once (2 switches)
 *   create      pthread_create + pthread_join of a thread that returns
 *   pingpong    a round of two threads handing a turn over by a
 *               condition variable (2 signals, 2 waits, 2 switches)
 *   futex       a raw futex lock + unlock, uncontended (a lock as
 *               futex(2)'s users write it: one compare-and-swap each way)
 *   futexpp     pingpong with that lock and a raw futex word for the
 *               condition: 2 FUTEX_WAKEs, 2 FUTEX_WAITs, 2 switches
 *   echo        a round trip of one byte over a socket pair between
 *               two threads: each writes once and reads once; the
 *               writes wake the other end's reader itself, the client's
 *               handing it the CPU (src/sysio/peer.c: 2 writes, 3
 *               reads, 1 wait, 2 switches)
 *   echok       the same over ends green does not know as a pair (dups
 *               of them): each reader is woken by the multiplexer's
 *               round, on the backend green picks for so few waiters
 *   echoloop    the echo's yardstick: the same round trips made by one
 *               thread with a level-triggered epoll loop, as a
 *               hand-written event loop makes them (write, epoll_wait,
 *               read on each side), for budget.sh's system-call ratio;
 *               its instructions are an event loop's under green
 *   ewait       an epoll_wait that finds its one event ready (a byte
 *               left unread), in one thread: an event loop's usual wait
 *   pready      a poll of one descriptor that finds it ready, in one
 *               thread: a poll loop's usual wait
 *   sready      the same with select
 *   prw         rw on a pipe: a write of one byte and a read of it
 *   frw         a write of one byte to a regular file, an lseek back
 *               and a read of it
 *   pfrw        a pwrite of one byte to a regular file and a pread of
 *               it, at offset 0
 *   rw          a write of one byte that fits and a read of one byte
 *               that finds it, on a socket pair, in one thread
 *   rawrw       the same two system calls made in line (x86_64): what
 *               rw costs above them is the library's
 *   sr          rw with send and recv (MSG_NOSIGNAL and no flags), as
 *               servers write them
 * The futex operations make their system calls with syscall(), as
 * libraries with synchronisation of their own do (docs/kernel.md).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/epoll.h>
#include <poll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sched.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t park_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t park_c = PTHREAD_COND_INITIALIZER;
static int park_done;

static void *parked(void *arg)
{
	pthread_mutex_lock(&park_m);
	while (!park_done) pthread_cond_wait(&park_c, &park_m);
	pthread_mutex_unlock(&park_m);
	return arg;
}

static long n;
#ifdef OPS_TLS
static __thread volatile int tls_probe;
#endif
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static long turn;

static void *yielder(void *arg)
{
	for (long i = 0; i < n; i++) sched_yield();
	return arg;
}

/* odd: 0 passes the turn on even counts, 1 on odd ones */
static void *player(void *odd)
{
	pthread_mutex_lock(&m);
	for (long i = 0; i < n; i++) {
		while ((turn & 1) != (odd != 0)) pthread_cond_wait(&c, &m);
		turn++;
		pthread_cond_signal(&c);
	}
	pthread_mutex_unlock(&m);
	return odd;
}

/* ---- the raw futex lock (0 free, 1 held, 2 held with waiters) and a
 * condition word, private to the process */
#define FUTEX_WAIT_PRIVATE 128
#define FUTEX_WAKE_PRIVATE 129
static atomic_int fm, fc;

static void flock(atomic_int *w)
{
	int v = 0;
	if (atomic_compare_exchange_strong(w, &v, 1)) return;
	if (v != 2) v = atomic_exchange(w, 2);
	while (v) {
		syscall(SYS_futex, w, FUTEX_WAIT_PRIVATE, 2, 0);
		v = atomic_exchange(w, 2);
	}
}

static void funlock(atomic_int *w)
{
	if (atomic_fetch_sub(w, 1) != 1) {
		atomic_store(w, 0);
		syscall(SYS_futex, w, FUTEX_WAKE_PRIVATE, 1);
	}
}

static void *fplayer(void *odd)
{
	flock(&fm);
	for (long i = 0; i < n; i++) {
		while ((turn & 1) != (odd != 0)) {
			int seq = fc;
			funlock(&fm);
			syscall(SYS_futex, &fc, FUTEX_WAIT_PRIVATE, seq, 0);
			flock(&fm);
		}
		turn++;
		fc++;
		syscall(SYS_futex, &fc, FUTEX_WAKE_PRIVATE, 1);
	}
	funlock(&fm);
	return odd;
}

static int sp[2];

static void *echoer(void *odd)
{
	int fd = sp[odd != 0];
	char b = 'x';
	for (long i = 0; i < n; i++) {
		if (!odd && write(fd, &b, 1) != 1) return odd;
		if (read(fd, &b, 1) != 1) return odd;
		if (odd && write(fd, &b, 1) != 1) return odd;
	}
	return odd;
}

/* echoloop: one thread, both ends of the socket pair, one epoll set;
 * each side writes, waits for the other end to be readable, reads */
static int echoloop(void)
{
	struct epoll_event ev = { .events = EPOLLIN }, got;
	char b = 'x';
	int ep = epoll_create1(0);

	if (ep < 0 || socketpair(AF_UNIX, SOCK_STREAM, 0, sp)) return 1;
	for (int k = 0; k < 2; k++) {
		ev.data.fd = sp[k];
		if (epoll_ctl(ep, EPOLL_CTL_ADD, sp[k], &ev)) return 1;
	}
	for (long i = 0; i < n; i++)
		for (int k = 0; k < 2; k++) {
			if (write(sp[k], &b, 1) != 1) return 1;
			if (epoll_wait(ep, &got, 1, -1) != 1 || got.data.fd != sp[!k]) return 1;
			if (read(sp[!k], &b, 1) != 1) return 1;
		}
	return 0;
}

/* a system call in line, without the libc: rawrw's yardstick */
static long raw3(long nr, long a, long b, long c)
{
#ifdef __x86_64__
	long r;
	__asm__ volatile ("syscall" : "=a"(r) : "a"(nr), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
	return r;
#else
	return syscall(nr, a, b, c);
#endif
}

static int pair(void *(*fn)(void *))
{
	pthread_t a, b;
	if (pthread_create(&a, 0, fn, (void *)0) || pthread_create(&b, 0, fn, (void *)1)) return 1;
	return pthread_join(a, 0) || pthread_join(b, 0);
}

static void *nothing(void *arg) { return arg; }

int main(int argc, char **argv)
{
	pthread_t helper, t;
	const char *op;
	sem_t s;

#ifdef OPS_TLS
	tls_probe = 1;
#endif
	if (argc != 3) {
		fprintf(stderr, "usage: ops OPERATION N\n");
		return 2;
	}
	op = argv[1];
	n = atol(argv[2]);
	if (pthread_create(&helper, 0, parked, 0)) return 1;
	sched_yield();   /* the helper parks */

	if (!strcmp(op, "mutex")) {
		for (long i = 0; i < n; i++) {
			pthread_mutex_lock(&m);
			pthread_mutex_unlock(&m);
		}
	} else if (!strcmp(op, "yield")) {
		for (long i = 0; i < n; i++) sched_yield();
	} else if (!strcmp(op, "signal")) {
		for (long i = 0; i < n; i++) pthread_cond_signal(&c);
	} else if (!strcmp(op, "trylock")) {
		for (long i = 0; i < n; i++) {
			if (pthread_mutex_trylock(&m)) return 1;
			pthread_mutex_unlock(&m);
		}
	} else if (!strcmp(op, "sem")) {
		sem_init(&s, 0, 1);
		for (long i = 0; i < n; i++) {
			sem_post(&s);
			sem_wait(&s);
		}
	} else if (!strcmp(op, "yield2")) {
		if (pair(yielder)) return 1;
	} else if (!strcmp(op, "create")) {
		for (long i = 0; i < n; i++) {
			if (pthread_create(&t, 0, nothing, 0)) return 1;
			pthread_join(t, 0);
		}
	} else if (!strcmp(op, "pingpong")) {
		if (pair(player)) return 1;
	} else if (!strcmp(op, "futex")) {
		for (long i = 0; i < n; i++) {
			flock(&fm);
			funlock(&fm);
		}
	} else if (!strcmp(op, "futexpp")) {
		if (pair(fplayer)) return 1;
	} else if (!strcmp(op, "echo") || !strcmp(op, "echok")) {
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sp)) return 1;
		for (int k = 0; op[4] == 'k' && k < 2; k++) {   /* the pair forgotten */
			int d = dup(sp[k]);
			if (d < 0 || close(sp[k])) return 1;
			sp[k] = d;
		}
		if (pair(echoer)) return 1;
	} else if (!strcmp(op, "echoloop")) {
		if (echoloop()) return 1;
	} else if (!strcmp(op, "ewait")) {
		struct epoll_event ev = { .events = EPOLLIN }, got;
		int ep = epoll_create1(0);
		char b = 'x';
		if (ep < 0 || socketpair(AF_UNIX, SOCK_STREAM, 0, sp) || write(sp[0], &b, 1) != 1) return 1;
		if (epoll_ctl(ep, EPOLL_CTL_ADD, sp[1], &ev)) return 1;
		for (long i = 0; i < n; i++)
			if (epoll_wait(ep, &got, 1, -1) != 1) return 1;
	} else if (!strcmp(op, "prw")) {
		char b = 'x';
		if (pipe(sp)) return 1;
		for (long i = 0; i < n; i++)
			if (write(sp[1], &b, 1) != 1 || read(sp[0], &b, 1) != 1) return 1;
	} else if (!strcmp(op, "frw")) {
		char b = 'x', path[] = "/tmp/ops-frw-XXXXXX";
		int fd = mkstemp(path);
		if (fd < 0 || unlink(path)) return 1;
		for (long i = 0; i < n; i++)
			if (write(fd, &b, 1) != 1 || lseek(fd, -1, SEEK_CUR) < 0 || read(fd, &b, 1) != 1) return 1;
	} else if (!strcmp(op, "pfrw")) {
		char b = 'x', path[] = "/tmp/ops-pfrw-XXXXXX";
		int fd = mkstemp(path);
		if (fd < 0 || unlink(path)) return 1;
		for (long i = 0; i < n; i++)
			if (pwrite(fd, &b, 1, 0) != 1 || pread(fd, &b, 1, 0) != 1) return 1;
	} else if (!strcmp(op, "sready")) {
		char b = 'x';
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sp) || write(sp[0], &b, 1) != 1) return 1;
		for (long i = 0; i < n; i++) {
			fd_set r;
			FD_ZERO(&r);
			FD_SET(sp[1], &r);
			if (select(sp[1] + 1, &r, 0, 0, 0) != 1 || !FD_ISSET(sp[1], &r)) return 1;
		}
	} else if (!strcmp(op, "pready")) {
		struct pollfd pf = { .events = POLLIN };
		char b = 'x';
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sp) || write(sp[0], &b, 1) != 1) return 1;
		pf.fd = sp[1];
		for (long i = 0; i < n; i++)
			if (poll(&pf, 1, -1) != 1) return 1;
	} else if (!strcmp(op, "rw") || !strcmp(op, "rawrw")) {
		int raw = op[0] == 'r' && op[1] == 'a';
		char b = 'x';
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sp)) return 1;
		for (long i = 0; i < n; i++) {
			if (raw ? raw3(SYS_write, sp[0], (long)&b, 1) != 1 : write(sp[0], &b, 1) != 1) return 1;
			if (raw ? raw3(SYS_read, sp[1], (long)&b, 1) != 1 : read(sp[1], &b, 1) != 1) return 1;
		}
	} else if (!strcmp(op, "sr")) {
		char b = 'x';
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sp)) return 1;
		for (long i = 0; i < n; i++) {
			if (send(sp[0], &b, 1, MSG_NOSIGNAL) != 1) return 1;
			if (recv(sp[1], &b, 1, 0) != 1) return 1;
		}
	} else {
		fprintf(stderr, "ops: no operation '%s'\n", op);
		return 2;
	}

	pthread_mutex_lock(&park_m);
	park_done = 1;
	pthread_cond_signal(&park_c);
	pthread_mutex_unlock(&park_m);
	pthread_join(helper, 0);
	return 0;
}
