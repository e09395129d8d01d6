/*
 * common.c — timing, trials, settings and the subcommand dispatcher.
 *
 *   bench-<impl> list                  every metric key with its row
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

/* Is `key` named by the comma-separated list `only`? */
static int listed(const char *only, const char *key)
{
	size_t n = strlen(key);
	for (const char *p = only; *p; ) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == n && !memcmp(p, key, n)) return 1;
		if (!e) break;
		p = e + 1;
	}
	return 0;
}

/* A metric runs when BENCH_ONLY is unset, names it, or names a derived
 * row made from it (micro.c's bench_derived). */
int bench_selected(const char *name)
{
	if (!bench_only || !*bench_only) return 1;
	if (listed(bench_only, name)) return 1;
	for (const struct bench_key *d = bench_derived; d->key; d++)
		if (listed(bench_only, d->key) && listed(d->from, name)) return 1;
	return 0;
}

/* Every key of BENCH_ONLY must be a metric or a derived row: an unknown
 * one (a typo) is refused in one line rather than silently measuring
 * nothing. */
static void check_only(void)
{
	char key[64];
	if (!bench_only) return;
	for (const char *p = bench_only; *p; ) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		int known = 0;
		if (len && len < sizeof key) {
			memcpy(key, p, len);
			key[len] = 0;
			for (const struct bench_key *k = bench_keys; k->key && !known; k++) known = !strcmp(k->key, key);
			for (const struct bench_key *k = bench_derived; k->key && !known; k++) known = !strcmp(k->key, key);
		}
		if (!known) {
			fprintf(stderr, "bench-%s: BENCH_ONLY: unknown metric key '%.*s' (`bench-%s list` prints the keys)\n",
			        B_IMPL, (int)len, p, B_IMPL);
			exit(2);
		}
		if (!e) break;
		p = e + 1;
	}
}

/* list: every key BENCH_ONLY takes, with the row of tables.md it fills,
 * then the subcommands, each behind its rows (bench/README.md). */
static int cmd_list(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("%-26s %s\n", "# key (BENCH_ONLY)", "row of tables.md");
	for (const struct bench_key *k = bench_keys; k->key; k++) printf("%-26s %s\n", k->key, k->row);
	for (const struct bench_key *k = bench_derived; k->key; k++)
		printf("%-26s %s; made from %s\n", k->key, k->row, k->from);
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
	if (k <= BENCH_MAX_SAMPLES) {   /* the trials in the order they ran */
		printf("S %s", name);
		for (int i = 0; i < k; i++) printf(" %.3f", v[i]);
		printf("\n");
	}
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

/*
 * Time a group of metrics in rounds: each is calibrated (its warm-up),
 * then every round runs each metric once.  A metric's trial r and
 * another's trial r are taken a fraction of a second apart, so a
 * difference of the two taken within each round (tables.py's derived
 * rows) sees the same load, where the difference of two medians taken
 * minutes apart can come out below zero.
 */
void timed_rounds(const struct bench_metric *m, size_t nm)
{
	int k = bench_trials;
	long *n = calloc(nm, sizeof *n);
	double *v = calloc(nm * k, sizeof *v);
	if (!n || !v) die("calloc", ENOMEM);
	for (size_t i = 0; i < nm; i++)
		if (bench_selected(m[i].name)) n[i] = calibrate(m[i].run, TARGET_NS * bench_scale);
	for (int r = 0; r < k; r++)
		for (size_t i = 0; i < nm; i++)
			if (n[i]) v[i * k + r] = m[i].run(n[i]) / (n[i] * m[i].ops);
	for (size_t i = 0; i < nm; i++)
		if (n[i]) report(m[i].name, v + i * k, k, n[i] * m[i].ops);
	free(n);
	free(v);
}

void timed(const char *name, double (*run)(long n), double ops)
{
	struct bench_metric m = { name, run, ops };
	timed_rounds(&m, 1);
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
	{ "list", cmd_list },
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
	check_only();
	b_init();
	if (argc >= 2)
		for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++)
			if (cmds[i].fn && !strcmp(argv[1], cmds[i].name)) {
				if (cmds[i].fn != cmd_list)
					printf("# bench-%s %s (trials=%d scale=%g depth=%zu)\n",
				       B_IMPL, argv[1], bench_trials, bench_scale, bench_depth);
				int r = cmds[i].fn(argc - 2, argv + 2);
				fflush(stdout);
				return r;
			}
	fprintf(stderr, "usage: bench-%s list|micro|probe|ticks|maxthreads|procswitch|"
	        "pingpong|shared|bursty|pshared [args]\n", B_IMPL);
	return 2;
}
