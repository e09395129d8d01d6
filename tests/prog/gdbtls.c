/*
 * gdbtls.c — threads with `__thread` variables of their own, for
 * tests/prog/gdb.sh (green-print, $green_tls: docs/debugging.md).
 *
 * Four workers each set every thread-local variable to values derived
 * from their number, print the addresses and values as "tls N NAME ADDR
 * VALUE", and park on a mutex main holds.  Then main sets its own, prints
 * them too, and calls stop_here(), where the test's breakpoint is; it
 * releases the workers and prints "done".  The variables cover .tdata
 * and .tbss, several sizes and alignments, among them a page-aligned
 * object and a function-local `static __thread`, so that gdb's address
 * of each can be compared with the program's own.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

struct point {
	int x, y;
	char tag[8];
};

__thread int tls_id = -1;                        /* .tdata */
__thread char tls_c;                             /* .tbss, 1 byte */
__thread long tls_long = 0x1234;                 /* .tdata */
__thread double tls_d __attribute__((aligned(64)));
__thread struct point tls_pt = { 1, 2, "init" };
__thread char tls_page[8192] __attribute__((aligned(4096)));
static __thread short tls_static;                /* file scope, internal */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static volatile int parked;

static int *counter(void)
{
	static __thread int tls_local = 100;     /* function scope */
	return &tls_local;
}

static void set_all(int n)
{
	tls_id = n;
	tls_c = 'a' + n;
	tls_long = 1000000L * n + 7;
	tls_d = n + 0.25;
	tls_pt.x = 10 * n;
	tls_pt.y = -10 * n;
	snprintf(tls_pt.tag, sizeof tls_pt.tag, "pt%d", n);
	snprintf(tls_page, sizeof tls_page, "page of %d", n);
	tls_page[sizeof tls_page - 1] = 'A' + n;
	tls_static = 300 + n;
	*counter() += n;
}

static void show(int n)
{
	printf("tls %d tls_id %p %d\n", n, (void *)&tls_id, tls_id);
	printf("tls %d tls_c %p %d\n", n, (void *)&tls_c, tls_c);
	printf("tls %d tls_long %p %ld\n", n, (void *)&tls_long, tls_long);
	printf("tls %d tls_d %p %g\n", n, (void *)&tls_d, tls_d);
	printf("tls %d tls_pt %p %d\n", n, (void *)&tls_pt, tls_pt.x);
	printf("tls %d tls_page %p %s\n", n, (void *)tls_page, tls_page);
	printf("tls %d tls_static %p %d\n", n, (void *)&tls_static, tls_static);
	printf("tls %d tls_local %p %d\n", n, (void *)counter(), *counter());
	fflush(stdout);
}

__attribute__((noinline)) void *worker(void *arg)
{
	int n = (int)(long)arg;
	set_all(n);
	show(n);
	parked++;
	pthread_mutex_lock(&lock);
	pthread_mutex_unlock(&lock);
	return (void *)(long)(tls_id + *counter());
}

/* the debugger stops here, with every worker parked */
__attribute__((noinline)) void stop_here(int n)
{
	__asm__ volatile ("" ::: "memory");
	printf("parked %d\n", n);
	fflush(stdout);
}

int main(void)
{
	pthread_t t[4];
	void *r;
	int bad = 0;

	pthread_mutex_lock(&lock);
	for (long i = 0; i < 4; i++)
		if (pthread_create(&t[i], 0, worker, (void *)(i + 2))) return 1;
	while (parked < 4) sched_yield();
	set_all(1);
	show(1);
	stop_here(parked);
	pthread_mutex_unlock(&lock);
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], &r);
		bad |= (long)r != 2 * (i + 2) + 100;
	}
	puts(bad ? "wrong" : "done");
	return bad;
}
