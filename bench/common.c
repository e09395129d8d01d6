/*
 * common.c — timing, trials, settings and the subcommand dispatcher.
 *
 *   bench-<impl> micro                 the IEEE 1003.4 micro-metrics
 *   bench-<impl> probe                 which optional features are live
 *   bench-<impl> ticks                 time stolen by ticks and preemption
 *   bench-<impl> maxthreads CAP SECS STACK   threads until failure or cap
 *   bench-<impl> procswitch            process switch, Marovich's App. C
 *   bench-<impl> pingpong GAMES ITERS STACK   Harman's Ping-Pong
 *   bench-<impl> shared THREADS ITERS  threads updating data under one mutex
 *   bench-<impl> bursty THREADS ROUNDS IDLE_US BURST_US
 */
#include "bench.h"

volatile unsigned long bench_sink;
double bench_scale = 1.0;
int bench_trials = 11;
size_t bench_depth;
const char *bench_only;
double bench_budget = 1e9;
int bench_min_trials = 1;

#define TARGET_NS 30e6          /* nominal trial length at BENCH_SCALE=1 */

double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

void die(const char *what, int err)
{
	fprintf(stderr, "bench-%s: %s failed: %s\n", B_IMPL, what, strerror(err));
	exit(1);
}

static double env_num(const char *name, double dflt, double lo)
{
	const char *s = getenv(name);
	char *end;
	if (!s || !*s) return dflt;
	double v = strtod(s, &end);
	if (*end || !(v >= lo)) {
		fprintf(stderr, "bench-%s: bad %s=%s\n", B_IMPL, name, s);
		exit(2);
	}
	return v;
}

int bench_selected(const char *name)
{
	if (!bench_only || !*bench_only) return 1;
	size_t n = strlen(name);
	for (const char *p = bench_only; *p; ) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == n && !memcmp(p, name, n)) return 1;
		if (!e) break;
		p = e + 1;
	}
	return 0;
}

__attribute__((noinline))
void *at_depth(size_t depth, void *(*fn)(void *), void *arg)
{
	char *pad = __builtin_alloca(depth + 16);
	memset(pad, 0x5a, depth + 16);
	__asm__ __volatile__("" :: "r"(pad) : "memory");
	void *r = fn(arg);
	__asm__ __volatile__("" :: "r"(pad) : "memory");
	bench_sink += pad[depth];
	return r;
}

/* ---- the parked helper */

static b_mutex park_m = B_MUTEX_INIT;
static b_cond park_c = B_COND_INIT;
static int park_done, park_ready;
static b_thread park_thread;

static void *park_main(void *arg)
{
	(void)arg;
	b_lock(&park_m);
	park_ready = 1;
	b_broadcast(&park_c);
	while (!park_done) b_wait(&park_c, &park_m);
	b_unlock(&park_m);
	return 0;
}

void park_start(void)
{
	park_done = park_ready = 0;
	CHECK(b_create(&park_thread, 0, park_main, 0));
	b_lock(&park_m);
	while (!park_ready) b_wait(&park_c, &park_m);
	b_unlock(&park_m);
	/* let it get back into its wait (green and Pth run it only now) */
	for (int i = 0; i < 10; i++) b_yield();
}

b_thread park_handle(void)
{
	return park_thread;
}

void park_stop(void)
{
	b_lock(&park_m);
	park_done = 1;
	b_broadcast(&park_c);
	b_unlock(&park_m);
	CHECK(b_join(park_thread, 0));
}

/* ---- trials */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void report(const char *name, double *v, int k, double ops_per_trial)
{
	qsort(v, k, sizeof *v, cmp_double);
	double med = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
	printf("T %s %.3f %.3f %.3f %.0f %d\n", name, med, v[0], v[k - 1], ops_per_trial, k);
	fflush(stdout);
}

/* Find n such that one trial takes about target ns (doubles as warm-up).
 * Scaled twice, so that a slow first run (page faults, first thread
 * creation) does not leave the trials short. */
static long calibrate(double (*run)(long), double target)
{
	long n = 8;
	double t;
	for (;;) {
		t = run(n);
		if (t >= target / 8 || n >= (1L << 40)) break;
		n *= 4;
	}
	for (int pass = 0; pass < 2; pass++) {
		double scaled = n * (target / (t > 1 ? t : 1));
		n = scaled < 8 ? 8 : (long)scaled;
		if (pass == 0) t = run(n);
	}
	return n;
}

void timed(const char *name, double (*run)(long n), double ops)
{
	if (!bench_selected(name)) return;
	long n = calibrate(run, TARGET_NS * bench_scale);
	double v[bench_trials];
	for (int i = 0; i < bench_trials; i++) v[i] = run(n) / (n * ops);
	report(name, v, bench_trials, n * ops);
}

int trials_enough(int done, double t0)
{
	if (done >= bench_trials) return 1;
	return done >= bench_min_trials && (now_ns() - t0) / 1e9 > bench_budget;
}

long meminfo_kb(const char *field)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	long v = -1;
	size_t n = strlen(field);
	if (!f) return -1;
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, field, n) && line[n] == ':') {
			v = atol(line + n + 1);
			break;
		}
	fclose(f);
	return v;
}

static const struct {
	const char *name;
	int (*fn)(int, char **);
} cmds[] = {
	{ "micro", cmd_micro },
	{ "probe", cmd_probe },
	{ "ticks", cmd_ticks },
	{ "maxthreads", cmd_maxthreads },
	{ "procswitch", cmd_procswitch },
	{ "pingpong", cmd_pingpong },
	{ "shared", cmd_shared },
	{ "bursty", cmd_bursty },
	{ "tp", cmd_tp },              /* bench-green-tls only (tls.c) */
	{ "pshared", cmd_pshared },    /* not in the Pth build (pshared.c) */
};

int main(int argc, char **argv)
{
	bench_scale = env_num("BENCH_SCALE", 1.0, 1e-3);
	bench_trials = (int)env_num("BENCH_TRIALS", 11, 1);
	bench_depth = (size_t)env_num("BENCH_DEPTH", 0, 0);
	bench_only = getenv("BENCH_ONLY");
	bench_budget = env_num("BENCH_BUDGET", 1e9, 0);
	bench_min_trials = (int)env_num("BENCH_MIN_TRIALS", 1, 1);
	b_init();
	if (argc >= 2)
		for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++)
			if (cmds[i].fn && !strcmp(argv[1], cmds[i].name)) {
				printf("# bench-%s %s (trials=%d scale=%g depth=%zu)\n",
				       B_IMPL, argv[1], bench_trials, bench_scale, bench_depth);
				int r = cmds[i].fn(argc - 2, argv + 2);
				fflush(stdout);
				return r;
			}
	fprintf(stderr, "usage: bench-%s micro|probe|ticks|maxthreads|procswitch|"
	        "pingpong|shared|bursty|pshared [args]\n", B_IMPL);
	return 2;
}
