/*
 * gdbstops.c — the places where a debugger stops a program, with threads
 * parked in each kind of wait, for tests/prog/gdb-stops.sh.  Built at -O2.
 *
 * Four threads park first: on a mutex main holds ("mutex-waiter"), in a
 * condition wait ("cond-waiter"), in read() on an empty pipe ("reader")
 * and in sleep() ("sleeper").  Then, by the argument:
 *
 *   assert    a fifth thread ("asserter") fails an assert: SIGABRT
 *   main      main reaches the line marked for the breakpoint of the test
 *   inline    main calls report(), where inlined_stop() is inlined
 *   deadlock  (no reader, no sleeper: they could still be woken) main
 *             and a fifth thread ("locker") take two mutexes in opposite
 *             orders: the deadlock report, then abort
 *   hang      main reads the empty pipe too; a child process sends the
 *             program SIGINT once the others are parked, as Ctrl-C would
 */
#define _GNU_SOURCE
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t main_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t cv_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t second = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int pipefd[2];
static volatile int parked, go, holds_second, stop_line;
static volatile unsigned long sink;

__attribute__((noinline)) void *in_mutex(void *arg)
{
	parked++;
	pthread_mutex_lock(&main_lock);
	pthread_mutex_unlock(&main_lock);
	return arg;
}

__attribute__((noinline)) void *in_cond(void *arg)
{
	pthread_mutex_lock(&cv_lock);
	parked++;
	while (!go) pthread_cond_wait(&cv, &cv_lock);
	pthread_mutex_unlock(&cv_lock);
	return arg;
}

__attribute__((noinline)) void *in_read(void *arg)
{
	char c = 0;
	parked++;
	if (read(pipefd[0], &c, 1) != 1) c = 0;
	return (void *)(long)c;
}

__attribute__((noinline)) void *in_sleep(void *arg)
{
	parked++;
	sleep(600);
	return arg;
}

__attribute__((noinline)) void *asserter(void *arg)
{
	long n = (long)arg;
	assert(n == 4);
	return arg;
}

__attribute__((noinline)) void *locker(void *arg)
{
	pthread_mutex_lock(&second);
	holds_second = 1;
	pthread_mutex_lock(&main_lock);
	return arg;
}

static inline __attribute__((always_inline)) void inlined_stop(int n)
{
	sink += n;
	__asm__ volatile ("" ::: "memory");
}

__attribute__((noinline)) void report(int n)
{
	inlined_stop(n);
	printf("parked %d\n", n);
	fflush(stdout);
}

static void start(void *(*fn)(void *), const char *name, long arg)
{
	pthread_t t;
	if (pthread_create(&t, 0, fn, (void *)arg)) _exit(3);
	pthread_setname_np(t, name);
}

int main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "assert";
	int waits = 4;

	if (pipe(pipefd)) return 3;
	pthread_mutex_lock(&main_lock);
	start(in_mutex, "mutex-waiter", 0);
	start(in_cond, "cond-waiter", 0);
	if (!strcmp(how, "deadlock")) {
		waits = 2;
	} else {
		start(in_read, "reader", 0);
		start(in_sleep, "sleeper", 0);
	}
	while (parked < waits) sched_yield();
	sched_yield();          /* the last one to count parks after counting */
	printf("parked %d\n", waits);
	fflush(stdout);

	if (!strcmp(how, "assert")) {
		start(asserter, "asserter", 3);
		sched_yield();
	} else if (!strcmp(how, "main")) {
		stop_line = 1;          /* gdb-stops.sh: break here */
	} else if (!strcmp(how, "inline")) {
		report(waits);
	} else if (!strcmp(how, "deadlock")) {
		start(locker, "locker", 0);
		while (!holds_second) sched_yield();
		pthread_mutex_lock(&second);
	} else if (!strcmp(how, "hang")) {
		int up[2];
		char c;
		if (pipe(up)) return 3;
		if (fork() == 0) {
			/* the parent is the one to interrupt, once it said so */
			if (read(up[0], &c, 1) == 1) kill(getppid(), SIGINT);
			_exit(0);
		}
		if (write(up[1], "x", 1) != 1) return 3;
		if (read(pipefd[0], &c, 1) != 1) c = 0;
	}
	go = 1;
	return 0;
}
