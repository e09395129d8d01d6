/*
 * gdbwait.c — threads parked in each kind of wait, for tests/prog/gdb.sh.
 *
 * main holds a mutex, then starts one thread per wait and lets each run
 * until it parks: on the mutex, in a condition wait, in sleep(), in
 * pthread_join, in sigwait() for SIGUSR1 and SIGUSR2, and last (because it parks the whole process where
 * read() is not yet green) in read() on an empty pipe, in waitpid()
 * for a child process that waits for main's word, and in read() on an
 * empty socket pair (the usual wait, whose frame holds its values where
 * other waits keep them in callee-saved registers: a caller's variable
 * in one of those must still show, src/arch/contract.h).  Then main calls
 * stop_here(), where the test's breakpoint is, releases everybody and
 * prints "done".  With the argument "noread" the reader is left out.
 *
 * With the argument "spin", two threads instead run stepper(), which
 * computes for a while on each line, so that time-slice ticks preempt
 * them while gdb steps one of them with "next".
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t cv_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int go, pipefd[2], childfd[2], sockfd[2];
static long sock_seed = 411522;
static pid_t child;
static volatile int parked;
static pthread_t t_mutex;

__attribute__((noinline)) void *in_mutex(void *arg)
{
	volatile int tag = 42;    /* shown by "info locals" */
	parked++;
	pthread_mutex_lock(&lock);
	tag++;
	pthread_mutex_unlock(&lock);
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

__attribute__((noinline)) void *in_sleep(void *arg)
{
	parked++;
	sleep(600);     /* outlives main: returning from main ends it */
	return arg;
}

__attribute__((noinline)) void *in_join(void *arg)
{
	parked++;
	pthread_join(t_mutex, 0);
	return arg;
}

__attribute__((noinline)) void *in_sigwait(void *arg)
{
	sigset_t set;
	int sig = 0;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &set, 0);
	parked++;
	sigwait(&set, &sig);
	return (void *)(long)sig;
}

__attribute__((noinline)) void *in_read(void *arg)
{
	char c = 0;
	parked++;
	if (read(pipefd[0], &c, 1) != 1) c = 0;
	return (void *)(long)c;
}

/* kept lives across read() in a callee-saved register (its source is
 * cleared), which gdb must find through the wait's frame: 1234567 */
__attribute__((noinline)) void *in_sockread(void *arg)
{
	long kept = sock_seed * 3 + 1;
	char c = 0;
	sock_seed = 0;
	parked++;
	if (read(sockfd[0], &c, 1) != 1) c = 0;
	return (void *)(kept * 256 + c);
}

/* waitpid for a child alive until main writes to it: a wait on its
 * pidfd, with no deadline */
__attribute__((noinline)) void *in_waitpid(void *arg)
{
	int st = 0;
	parked++;
	if (waitpid(child, &st, 0) != child || !WIFEXITED(st)) return 0;
	return (void *)(long)WEXITSTATUS(st);
}

/* the debugger stops here, with every other thread parked */
__attribute__((noinline)) void stop_here(int n)
{
	__asm__ volatile ("" ::: "memory");
	printf("parked %d\n", n);
	fflush(stdout);
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static volatile unsigned long sink;

__attribute__((noinline)) void compute(double ms)
{
	double end = now_ms() + ms;
	while (now_ms() < end) sink++;
}

/* each line takes several time slices */
__attribute__((noinline)) void *stepper(void *arg)
{
	long who = (long)arg, steps = 0;
	compute(40);
	steps++;
	compute(40);
	steps++;
	compute(40);
	steps++;
	compute(40);
	return (void *)(who + steps);
}

static pthread_t start(void *(*fn)(void *), const char *name)
{
	pthread_t t;
	if (pthread_create(&t, 0, fn, 0)) {
		perror("pthread_create");
		_exit(1);
	}
	pthread_setname_np(t, name);
	return t;
}

int main(int argc, char **argv)
{
	int with_read = !(argc > 1 && !strcmp(argv[1], "noread"));
	pthread_t t_cond, t_join, t_sig, t_read = 0, t_wait = 0, t_sock = 0;
	void *r;

	if (argc > 1 && !strcmp(argv[1], "spin")) {
		pthread_t a, b;
		void *ra, *rb;
		pthread_create(&a, 0, stepper, (void *)1L);
		pthread_create(&b, 0, stepper, (void *)2L);
		pthread_join(a, &ra);
		pthread_join(b, &rb);
		printf("stepped %ld %ld\n", (long)ra, (long)rb);
		return ra != (void *)4L || rb != (void *)5L;
	}

	pthread_mutex_lock(&lock);
	t_mutex = start(in_mutex, "mutex-waiter");
	t_cond = start(in_cond, "cond-waiter");
	start(in_sleep, "sleeper");
	t_join = start(in_join, "joiner");
	t_sig = start(in_sigwait, "sigwaiter");
	while (parked < 5) sched_yield();
	sched_yield();
	if (with_read) {
		if (pipe(pipefd)) return 1;
		t_read = start(in_read, "reader");
		while (parked < 6) sched_yield();
		sched_yield();
		if (pipe(childfd)) return 1;
		if (!(child = fork())) {
			char c = 0;
			close(childfd[1]);
			_exit(read(childfd[0], &c, 1) == 1 && c == 'y' ? 7 : 1);
		}
		if (child < 0) return 1;
		close(childfd[0]);
		t_wait = start(in_waitpid, "child-waiter");
		while (parked < 7) sched_yield();
		sched_yield();
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sockfd)) return 1;
		t_sock = start(in_sockread, "sock-reader");
		while (parked < 8) sched_yield();
		sched_yield();
	}

	stop_here(parked);

	pthread_mutex_lock(&cv_lock);
	go = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&cv_lock);
	pthread_mutex_unlock(&lock);
	pthread_join(t_cond, 0);
	pthread_join(t_join, 0);
	pthread_kill(t_sig, SIGUSR2);
	pthread_join(t_sig, &r);
	if ((long)r != SIGUSR2) return 1;
	if (with_read) {
		if (write(pipefd[1], "x", 1) != 1) return 1;
		pthread_join(t_read, &r);
		if ((long)r != 'x') return 1;
		if (write(childfd[1], "y", 1) != 1) return 1;
		pthread_join(t_wait, &r);
		if ((long)r != 7) return 1;
		if (write(sockfd[1], "z", 1) != 1) return 1;
		pthread_join(t_sock, &r);
		if ((long)r != 1234567L * 256 + 'z') return 1;
	}
	puts("done");
	return 0;
}
