/*
 * system.c — the metrics that are not a loop of one call: feature probes,
 * time stolen by ticks and preemption, maximum threads and memory per
 * thread, and the process-context switch of Marovich's Appendix C.
 */
#include "bench.h"
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

/* ---- probe: which optional features this build has -------------------
 *
 * stacks: a new thread (default attributes, so GREEN_STACKS decides) asks
 * green how it runs: pthread_getattr_np reports the stack mode the thread
 * got, which pthread_attr_getstackmode_np reads back (separate or
 * copied; 1:1 mode and Pth report neither: separate).  Each copied
 * thread runs at a slot of its own, so the addresses of two threads'
 * locals are a slot apart, as separate stacks' are: the distance is
 * printed, for the record, but decides nothing.
 *
 * clock_resolution: the smallest step the clock took between two
 * readings (ns): what a trial's time is known to, at best.
 *
 * timeslice: two threads spin; does either see the other run in between
 * (preemption) before it is done spinning?  Bounded: 2 × 150 ms at most.
 */
static b_barrier probe_bar;
static char *probe_addr[2];
static int probe_mode[2];

static void *probe_stack(void *arg)
{
	volatile char here = 0;
	probe_addr[(long)arg] = (char *)&here;
	probe_mode[(long)arg] = b_stack_mode();
	b_barrier_wait(&probe_bar);
	return 0;
}

/* A gap this long is another process's time slice, not an interrupt or
 * a tick handler: counted apart, so a loaded machine does not swamp the
 * tick figures. */
#define LONG_GAP 100e3

static volatile int spin_last = -1;
static volatile double spin_last_t;
static volatile long spin_handovers;

struct spinner {
	int id;
	double dur;          /* spin this long (ns) */
	double thresh;       /* a gap longer than this was stolen time */
	long n, cap;         /* gaps recorded */
	double *gap;
	double stolen;       /* sum of gaps (in a duo: not hand-overs) */
	long inner;          /* in a duo: how many such gaps */
	long long_gaps;      /* gaps of LONG_GAP or more: other processes ran */
	long loops;
	double start, end;
};

/*
 * Spin for s->dur ns reading the clock.  Alone: record each gap between
 * two clock readings longer than s->thresh (time taken away from the
 * thread: an interrupt, a tick).  In a duo (s->id >= 0): record instead
 * each hand-over, the gap between the other thread's last reading and
 * this thread's first (a preemption: tick + switch).
 */
static void *spin(void *arg)
{
	struct spinner *s = arg;
	double start = now_ns(), prev = start, t;
	s->start = start;
	do {
		t = now_ns();
		s->loops++;
		if (s->id >= 0 && spin_last != s->id) {
			/* read again: this thread may have been preempted
			 * between its reading and this test */
			t = now_ns();
			if (spin_last >= 0 && s->n < s->cap) s->gap[s->n++] = t - spin_last_t;
			spin_last = s->id;
			spin_handovers++;
		} else if (t - prev > s->thresh && t - prev < LONG_GAP) {
			if (s->id < 0 && s->n < s->cap) s->gap[s->n++] = t - prev;
			s->stolen += t - prev;
			s->inner++;
		} else if (t - prev >= LONG_GAP) {
			s->long_gaps++;
		}
		if (s->id >= 0) spin_last_t = t;
		prev = t;
	} while (t - start < s->dur);
	s->end = t;
	return 0;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void spin_duo(struct spinner s[2], double dur, long cap, double thresh)
{
	b_thread t[2];
	spin_last = -1;
	spin_handovers = 0;
	for (int i = 0; i < 2; i++) {
		s[i] = (struct spinner){ .id = i, .dur = dur, .cap = cap, .thresh = thresh };
		s[i].gap = calloc(cap ? cap : 1, sizeof(double));
		if (!s[i].gap) die("calloc", ENOMEM);
	}
	for (int i = 0; i < 2; i++) CHECK(b_create(&t[i], 0, spin, &s[i]));
	for (int i = 0; i < 2; i++) CHECK(b_join(t[i], 0));
}

int cmd_probe(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	b_thread t[2];
	b_barrier_init(&probe_bar, 3);
	for (long i = 0; i < 2; i++) CHECK(b_create(&t[i], 0, probe_stack, (void *)i));
	b_barrier_wait(&probe_bar);
	for (int i = 0; i < 2; i++) CHECK(b_join(t[i], 0));
	long dist = labs((long)(probe_addr[0] - probe_addr[1]));
	/* the clock's resolution: the smallest step between two readings */
	double res = 1e9;
	for (int i = 0; i < 100000; i++) {
		double a = now_ns(), b = now_ns();
		if (b > a && b - a < res) res = b - a;
	}
	printf("V clock_resolution %.1f\n", res);
	printf("V stack_distance %ld\n", dist);
	printf("V stacks %s\n", probe_mode[0] == B_STACK_COPIED && probe_mode[1] == B_STACK_COPIED
	       ? "copied" : "separate");

	struct spinner s[2];
	spin_duo(s, 150e6, 16, 1e9);
	/* one hand-over is the first thread finishing; more is preemption */
	printf("V handovers %ld\n", spin_handovers);
	printf("V timeslice %s\n", spin_handovers > 3 ? "yes" : "no");
	free(s[0].gap);
	free(s[1].gap);
	return 0;
}

/* ---- ticks ------------------------------------------------------------
 *
 * V alone COUNT STOLEN_NS MEDIAN_GAP_NS DURATION_NS LOOP_NS LONG_GAPS
 *   one thread spinning (a parked helper present): gaps in its stream of
 *   clock readings.  With a time-slice tick armed, comparing runs with and
 *   without it gives the tick's cost (tables.py does the subtraction).
 * V duo COUNT STOLEN_NS WALL_NS LONG_GAPS
 *   two threads spinning: the gaps that are not hand-overs (interrupts,
 *   and ticks that found no reason to switch), over WALL_NS of spinning.
 * T preempt_switch ...
 *   two threads spinning: each hand-over gap (tick + switch).  Printed
 *   only when preemption happened (more than a few hand-overs).
 * V preempt_p10 NS
 *   the 10th percentile of those gaps: a preemption that no other
 *   process's time slice lengthened (Marovich kept "minimal, consistent"
 *   trials for the same reason).
 */
int cmd_ticks(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	double dur = 400e6 * bench_scale;
	long cap = 1 << 16;

	/* loop time of a bare clock-reading loop */
	double t0 = now_ns();
	for (int i = 0; i < 100000; i++) bench_sink += (unsigned long)now_ns();
	double loop = (now_ns() - t0) / 100000;

	park_start();
	struct spinner a = { .id = -1, .dur = dur, .cap = cap, .thresh = 250 + 4 * loop };
	a.gap = calloc(cap, sizeof(double));
	if (!a.gap) die("calloc", ENOMEM);
	spin(&a);
	park_stop();
	qsort(a.gap, a.n, sizeof(double), cmp_d);
	printf("V alone %ld %.0f %.0f %.0f %.1f %ld\n", a.n, a.stolen,
	       a.n ? a.gap[a.n / 2] : 0.0, dur, loop, a.long_gaps);
	free(a.gap);

	struct spinner s[2];
	spin_duo(s, dur / 2, cap, a.thresh);
	long n = s[0].n + s[1].n;
	double wall = (s[0].end > s[1].end ? s[0].end : s[1].end) -
	              (s[0].start < s[1].start ? s[0].start : s[1].start);
	printf("V duo %ld %.0f %.0f %ld\n", s[0].inner + s[1].inner, s[0].stolen + s[1].stolen,
	       wall, s[0].long_gaps + s[1].long_gaps);
	printf("V handovers %ld\n", spin_handovers);
	if (spin_handovers > 3 && n > 0) {
		double *all = malloc(n * sizeof(double));
		if (!all) die("malloc", ENOMEM);
		memcpy(all, s[0].gap, s[0].n * sizeof(double));
		memcpy(all + s[0].n, s[1].gap, s[1].n * sizeof(double));
		/* the median, min and max over all hand-overs */
		report("preempt_switch", all, (int)n, (double)n);   /* sorts all[] */
		printf("V preempt_p10 %.0f\n", all[n / 10]);
		free(all);
	}
	free(s[0].gap);
	free(s[1].gap);
	return 0;
}

/* ---- maximum threads --------------------------------------------------
 *
 * maxthreads CAP SECS STACK: create threads with a STACK-byte stack that
 * each block on a condition variable, until creation fails, CAP threads
 * exist or SECS seconds have passed.  Resident and virtual memory per
 * thread come from /proc/self/statm before and after; the kernel's stacks
 * (1:1 threads) from KernelStack in /proc/meminfo (system-wide).
 *
 * V maxthreads COUNT STOP RSS_PER_THREAD VSZ_PER_THREAD KSTACK_PER_THREAD SECS
 */
static b_mutex mt_m = B_MUTEX_INIT;
static b_cond mt_go = B_COND_INIT, mt_ready_c = B_COND_INIT;
static long mt_ready, mt_want;
static int mt_release;

static void *mt_thread(void *arg)
{
	(void)arg;
	b_lock(&mt_m);
	if (++mt_ready >= mt_want) b_signal(&mt_ready_c);
	while (!mt_release) b_wait(&mt_go, &mt_m);
	b_unlock(&mt_m);
	return 0;
}

static void statm(long *size, long *res)
{
	FILE *f = fopen("/proc/self/statm", "r");
	*size = *res = 0;
	if (!f) return;
	if (fscanf(f, "%ld %ld", size, res) != 2) *size = *res = 0;
	fclose(f);
}

static void mt_wait_ready(long n)
{
	b_lock(&mt_m);
	mt_want = n;
	while (mt_ready < n) b_wait(&mt_ready_c, &mt_m);
	b_unlock(&mt_m);
}

int cmd_maxthreads(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: maxthreads CAP SECS STACK\n");
		return 2;
	}
	long cap = atol(argv[0]);
	double secs = atof(argv[1]);
	size_t stack = (size_t)atol(argv[2]);
	long page = sysconf(_SC_PAGESIZE);
	b_thread *t = calloc(cap, sizeof *t);
	if (!t) die("calloc", ENOMEM);
	memset(t, 0, cap * sizeof *t);

	long s0, r0, s1, r1;
	long k0 = meminfo_kb("KernelStack");
	statm(&s0, &r0);
	double t0 = now_ns();
	long n = 0;
	const char *stop = "cap";
	int err = 0;
	while (n < cap) {
		err = b_create(&t[n], stack, mt_thread, 0);
		if (err) {
			stop = strerror(err);
			break;
		}
		n++;
		if (n % 256 == 0) {
			mt_wait_ready(n);
			if (now_ns() - t0 > secs * 1e9) {
				stop = "time";
				break;
			}
		}
	}
	mt_wait_ready(n);
	double created = (now_ns() - t0) / 1e9;
	statm(&s1, &r1);
	long k1 = meminfo_kb("KernelStack");

	/* No tear-down: waking and joining every thread says nothing more and
	 * takes long in Pth (its scheduler scans all waiting threads); the
	 * process exits with them blocked. */
	if (!n) n = 1;
	printf("V maxthreads %ld %s %.0f %.0f %.0f %.2f\n",
	       n, err ? "error" : stop,
	       (double)(r1 - r0) * page / n, (double)(s1 - s0) * page / n,
	       k0 >= 0 && k1 >= 0 ? (double)(k1 - k0) * 1024 / n : -1.0, created);
	if (err) printf("# creation failed: %s\n", stop);
	printf("V maxthreads_error %s\n", err ? stop : "none");
	fflush(stdout);
	_exit(0);
}

/* ---- process-context switch (Marovich, Appendix C) ---------------------
 *
 *   switch = two processes' 1-byte pipe ping-pong, per switch
 *          - the same I/O (one write and one read) in one process
 *          - half a getpid system call
 *
 * The three are timed in rounds; tables.py subtracts within each round.
 *
 * run.sh pins the process to one CPU; the child inherits it.
 */
static int pp_to[2], pp_from[2], io_pipe[2];

static void xwrite(int fd)
{
	char c = 'x';
	if (write(fd, &c, 1) != 1) die("write", errno);
}

static void xread(int fd)
{
	char c;
	if (read(fd, &c, 1) != 1) die("read", errno);
}

/* n times: one byte written to wfd, one byte read from rfd */
static double pipe_loop(long n, int wfd, int rfd)
{
	double t0 = now_ns();
	for (long i = 0; i < n; i++) {
		xwrite(wfd);
		xread(rfd);
	}
	return now_ns() - t0;
}

static double run_proc_pingpong(long n) { return pipe_loop(n, pp_to[1], pp_from[0]); }
static double run_proc_io(long n) { return pipe_loop(n, io_pipe[1], io_pipe[0]); }

static double run_getpid(long n)
{
	double t0 = now_ns();
	for (long i = 0; i < n; i++) bench_sink += syscall(SYS_getpid);
	return now_ns() - t0;
}

int cmd_procswitch(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	if (pipe(pp_to) || pipe(pp_from) || pipe(io_pipe)) die("pipe", errno);
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) die("fork", errno);
	if (pid == 0) {
		char c;
		close(pp_to[1]);
		close(pp_from[0]);
		while (read(pp_to[0], &c, 1) == 1) xwrite(pp_from[1]);
		_exit(0);
	}
	close(pp_to[0]);
	close(pp_from[1]);
	/* in rounds (common.c), so that tables.py takes the subtraction
	 * within each round; one round trip is two switches */
	static const struct bench_metric m[] = {
		{ "proc_pingpong", run_proc_pingpong, 2 },
		{ "proc_io", run_proc_io, 1 },
		{ "getpid", run_getpid, 1 },
	};
	timed_rounds(m, sizeof m / sizeof *m);
	close(pp_to[1]);
	while (wait(0) < 0 && errno == EINTR) {}
	return 0;
}
