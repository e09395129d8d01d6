/*
 * rrmix — a run that depends on everything green-record must capture:
 * threads sliced by the tick, a TCP server and its clients on the
 * loopback, a file written with random bytes and read back, signals from
 * a child process and from an interval timer, the clocks and the CPU's
 * time-stamp counter, and the program's own kernel calls: futexes and a
 * blocking read made with syscall(), which park the green thread, and a
 * `syscall` instruction of its own.  It prints
 * what it saw and a hash over the order in which every thread did every
 * step (the schedule) and every value it read (the results): a plain run
 * prints a different hash almost every time, a replay must print the
 * recorded one (tests/record.sh).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/futex.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CLIENTS 3
#define MSGS 20
#define CPUS 3
#define SIGNALS 5

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t state = 0xcbf29ce484222325ull;
static int port;
static int listener;
static volatile sig_atomic_t usr1, alrm;
static __thread int me;                 /* which thread: for the handlers */
static volatile int took[64];
static volatile sig_atomic_t ntook;

static void fold(uint64_t v)
{
	state = (state ^ v) * 0x100000001b3ull;
}

static void note(uint64_t v)
{
	pthread_mutex_lock(&lock);
	fold(v);
	pthread_mutex_unlock(&lock);
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void on_usr1(int s)
{
	(void)s;
	usr1++;
	if (ntook < 64) took[ntook++] = me;
}

static void on_alrm(int s)
{
	(void)s;
	alrm++;
	if (ntook < 64) took[ntook++] = 100 + me;
}

/* A thread that computes: preempted by the tick (at its clock reads when
 * recorded), so the order of its notes among the others' is the schedule. */
static void *cpu(void *arg)
{
	uint64_t x = (uintptr_t)arg, t0 = now_ns();
	me = 10 + (int)(uintptr_t)arg;
	for (int i = 1; i <= 300; i++) {
		for (int k = 0; k < 20000; k++) x = x * 6364136223846793005ull + 1442695040888963407ull;
		if (i % 10 == 0) note((uint64_t)me << 32 | i);
		if (now_ns() - t0 > 2000000000ull) break;
	}
	return (void *)(uintptr_t)x;
}

static void *worker(void *arg)
{
	int fd = (int)(intptr_t)arg;
	char b[256];
	ssize_t n;
	me = 20 + fd;
	while ((n = read(fd, b, sizeof b)) > 0) {
		for (ssize_t i = 0; i < n; i++)
			if (b[i] >= 'a' && b[i] <= 'z') b[i] -= 32;
		if (write(fd, b, n) != n) break;
	}
	close(fd);
	return 0;
}

static void *server(void *arg)
{
	pthread_t w[CLIENTS];
	(void)arg;
	me = 2;
	for (int i = 0; i < CLIENTS; i++) {
		struct sockaddr_in peer;
		socklen_t len = sizeof peer;
		int c = accept(listener, (struct sockaddr *)&peer, &len);
		if (c < 0) { perror("accept"); exit(2); }
		note(ntohs(peer.sin_port));
		pthread_create(&w[i], 0, worker, (void *)(intptr_t)c);
	}
	for (int i = 0; i < CLIENTS; i++) pthread_join(w[i], 0);
	return 0;
}

static void *client(void *arg)
{
	int id = (int)(intptr_t)arg, s = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port),
	                         .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	char out[64], in[64];
	me = 30 + id;
	if (connect(s, (struct sockaddr *)&a, sizeof a)) { perror("connect"); exit(2); }
	for (int m = 0; m < MSGS; m++) {
		int n = snprintf(out, sizeof out, "client %d message %d at %llu", id, m,
		                 (unsigned long long)now_ns() % 1000000);
		if (write(s, out, n) != n) exit(3);
		for (int got = 0; got < n; ) {
			ssize_t r = read(s, in + got, n - got);
			if (r <= 0) exit(4);
			got += r;
		}
		pthread_mutex_lock(&lock);
		for (int i = 0; i < n; i++) fold(in[i]);
		fold((uint64_t)me << 32 | m);
		pthread_mutex_unlock(&lock);
		if (m % 5 == 0) usleep(500);
	}
	close(s);
	return 0;
}

/* syscall(): a waiter on a futex word of the program's own (private and
 * shared waits in turn) answers each wake through a pipe that the waker
 * reads with a blocking raw read */
static int word, raw[2];

static void *rawwaiter(void *arg)
{
	(void)arg;
	me = 4;
	for (int i = 1; i <= 10; i++) {
		int op = i % 2 ? FUTEX_WAIT_PRIVATE : FUTEX_WAIT;
		while (__atomic_load_n(&word, __ATOMIC_ACQUIRE) < i)
			syscall(SYS_futex, &word, op, i - 1, 0, 0, 0);
		uint64_t t = now_ns();
		if (syscall(SYS_write, raw[1], &t, sizeof t) != sizeof t) exit(8);
	}
	return 0;
}

static void *rawwaker(void *arg)
{
	(void)arg;
	me = 5;
	for (int i = 1; i <= 10; i++) {
		uint64_t t;
		__atomic_store_n(&word, i, __ATOMIC_RELEASE);
		syscall(SYS_futex, &word, i % 2 ? FUTEX_WAKE_PRIVATE : FUTEX_WAKE, 1, 0, 0, 0);
		if (syscall(SYS_read, raw[0], &t, sizeof t) != sizeof t) exit(9);
		note(t);
	}
	return 0;
}

/* a clock read by a `syscall` instruction of the program's own */
static uint64_t raw_clock(void)
{
	struct timespec ts;
	long r;
	__asm__ __volatile__ ("syscall" : "=a"(r)
	                      : "a"((long)SYS_clock_gettime), "D"((long)CLOCK_REALTIME), "S"(&ts)
	                      : "rcx", "r11", "memory");
	return r ? 0 : ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void *files(void *arg)
{
	char path[] = "/tmp/rrmix-XXXXXX", b[65536], c[65536];
	uint64_t sum = 0;
	(void)arg;
	me = 3;
	int fd = mkstemp(path);
	if (fd < 0) { perror("mkstemp"); exit(5); }
	for (size_t got = 0; got < sizeof b; ) {   /* a signal may cut it short */
		ssize_t r = getrandom(b + got, sizeof b - got, 0);
		if (r < 0 && errno != EINTR) { perror("getrandom"); exit(5); }
		if (r > 0) got += r;
	}
	for (int i = 0; i < 16; i++)
		if (write(fd, b + i * 4096, 4096) != 4096) exit(5);
	fsync(fd);
	lseek(fd, 0, SEEK_SET);
	FILE *f = fdopen(fd, "r");
	if (fread(c, 1, sizeof c, f) != sizeof c || memcmp(b, c, sizeof b)) exit(6);
	fclose(f);
	unlink(path);
	for (size_t i = 0; i < sizeof c; i++) sum = sum * 31 + (unsigned char)c[i];
	note(sum);
	printf("file: %zu random bytes written and read back, sum %016llx\n", sizeof c,
	       (unsigned long long)sum);
	return 0;
}

int main(void)
{
	pthread_t cp[CPUS], cl[CLIENTS], sv, fl, rw[2];
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof a;
	uint64_t t0 = now_ns();
	int status;
	pid_t parent = getpid(), kid;

	me = 1;
	signal(SIGUSR1, on_usr1);
	signal(SIGALRM, on_alrm);
	listener = socket(AF_INET, SOCK_STREAM, 0);
	if (bind(listener, (struct sockaddr *)&a, sizeof a) || listen(listener, 16) ||
	    getsockname(listener, (struct sockaddr *)&a, &len)) { perror("listen"); return 1; }
	port = ntohs(a.sin_port);
	note(port);
	if (!(kid = fork())) {   /* signals from outside */
		for (int i = 0; i < SIGNALS; i++) {
			usleep(3000);
			kill(parent, SIGUSR1);
		}
		_exit(7);
	}
	setitimer(ITIMER_REAL, &(struct itimerval){ { 0, 4000 }, { 0, 4000 } }, 0);
	for (long i = 0; i < CPUS; i++) pthread_create(&cp[i], 0, cpu, (void *)i);
	pthread_create(&sv, 0, server, 0);
	pthread_create(&fl, 0, files, 0);
	if (pipe(raw)) return 1;
	pthread_create(&rw[0], 0, rawwaiter, 0);
	pthread_create(&rw[1], 0, rawwaker, 0);
	for (long i = 0; i < CLIENTS; i++) pthread_create(&cl[i], 0, client, (void *)i);
	for (int i = 0; i < CLIENTS; i++) pthread_join(cl[i], 0);
	pthread_join(sv, 0);
	pthread_join(fl, 0);
	pthread_join(rw[0], 0);
	pthread_join(rw[1], 0);
	for (int i = 0; i < CPUS; i++) {
		void *r;
		pthread_join(cp[i], &r);
		fold((uintptr_t)r);
	}
	while (waitpid(kid, &status, 0) < 0) ;   /* EINTR: the timer's SIGALRM */
	/* the child's signals may merge while one is pending: as many as came */
	setitimer(ITIMER_REAL, &(struct itimerval){ { 0, 0 }, { 0, 0 } }, 0);
	fold(WEXITSTATUS(status));
	for (int i = 0; i < ntook; i++) fold(took[i]);
	fold(usr1);
	fold(alrm);
	{
		unsigned aux;
		uint64_t a = __builtin_ia32_rdtsc(), b = __builtin_ia32_rdtscp(&aux);
		fold(a);
		fold(b);
		fold(aux);
		printf("time-stamp counter %llu, %llu later\n", (unsigned long long)a,
		       (unsigned long long)(b - a));
	}
	printf("port %d, child exit %d, %d SIGUSR1 and %d SIGALRM taken, first by threads %d %d %d\n",
	       port, WEXITSTATUS(status), (int)usr1, (int)alrm, took[0], took[1], took[2]);
	{
		uint64_t r = raw_clock();
		fold(r);
		printf("raw clock %llu\n", (unsigned long long)r);
	}
	printf("elapsed %llu ns\n", (unsigned long long)(now_ns() - t0));
	printf("state %016llx\n", (unsigned long long)state);
	return 0;
}
