/*
 * workloads.c — whole-program workloads: Harman's Ping-Pong, many threads
 * updating shared data under one mutex, and bursty threads.  Each trial
 * runs the whole workload; T lines give ns per trial (ops = 1).  Elapsed
 * time runs from the first worker past the start barrier to the last
 * worker done, so thread creation is outside it (Ping-Pong reports
 * creation separately), and so are the joins: the workers wait at an
 * end barrier, which main passes before it joins them (a scheduler that
 * runs main as soon as a worker's exit wakes it would otherwise time
 * main's joins among the workers).
 */
#include "bench.h"

/* ---- a gang: n threads that start together ---------------------------- */

struct gang {
	long n;
	size_t stack;
	void (*work)(long id);
	b_thread *th;
	double *start, *end;     /* per worker, after the start barrier */
	b_barrier bar, done;
	double *setup, *play;    /* per trial: creation, elapsed */
	int k;                   /* trials done */
};

static struct gang G;

static void *gang_main(void *arg)
{
	long id = (long)arg;
	b_barrier_wait(&G.bar);
	G.start[id] = now_ns();
	G.work(id);
	G.end[id] = now_ns();
	b_barrier_wait(&G.done);
	return 0;
}

static void gang_init(long n, size_t stack, void (*work)(long))
{
	G = (struct gang){ .n = n, .stack = stack, .work = work };
	G.th = calloc(n, sizeof *G.th);
	G.start = calloc(n, sizeof(double));
	G.end = calloc(n, sizeof(double));
	G.setup = calloc(bench_trials, sizeof(double));
	G.play = calloc(bench_trials, sizeof(double));
	if (!G.th || !G.start || !G.end || !G.setup || !G.play) die("calloc", ENOMEM);
}

/* One trial: create the gang, let it go, join it.  Returns 0, or the
 * error of a failed thread creation. */
static int gang_trial(void)
{
	b_barrier_init(&G.bar, (int)G.n + 1);
	b_barrier_init(&G.done, (int)G.n + 1);
	double t0 = now_ns();
	for (long i = 0; i < G.n; i++) {
		int e = b_create(&G.th[i], G.stack, gang_main, (void *)i);
		if (e) {
			fprintf(stderr, "bench: thread %ld of %ld: %s\n", i, G.n, strerror(e));
			return e;
		}
	}
	G.setup[G.k] = now_ns() - t0;
	b_barrier_wait(&G.bar);
	b_barrier_wait(&G.done);
	for (long i = 0; i < G.n; i++) CHECK(b_join(G.th[i], 0));
	double s = G.start[0], e = G.end[0];
	for (long i = 1; i < G.n; i++) {
		if (G.start[i] < s) s = G.start[i];
		if (G.end[i] > e) e = G.end[i];
	}
	G.play[G.k++] = e - s;
	b_barrier_destroy(&G.bar);
	b_barrier_destroy(&G.done);
	return 0;
}

static void gang_free(void)
{
	free(G.th);
	free(G.start);
	free(G.end);
	free(G.setup);
	free(G.play);
}

/* Check the argument count; print usage if it is wrong. */
static int args(int argc, int want, const char *usage)
{
	if (argc == want) return 1;
	fprintf(stderr, "usage: %s\n", usage);
	return 0;
}

/* ---- Harman's Ping-Pong, in portable POSIX ---------------------------
 *
 * A game is two players at a table.  The original hands four mutexes
 * back and forth, each unlocked by the thread that did not lock it, which
 * POSIX leaves undefined; here a table has one mutex, a turn and one
 * condition variable per player.  An iteration is each player taking its
 * turn once: two hand-offs, two switches on one CPU, as in the original.
 * GAMES tables play at once, each ITERS iterations.
 */
struct table {
	b_mutex m;
	b_cond turn_c[2];
	int turn;
	char pad[64];
};

static struct table *tables;
static long pp_iters;

static void player(long id)
{
	struct table *t = &tables[id / 2];
	int me = id % 2;
	b_lock(&t->m);
	for (long i = 0; i < pp_iters; i++) {
		while (t->turn != me) b_wait(&t->turn_c[me], &t->m);
		t->turn = !me;
		b_signal(&t->turn_c[!me]);
	}
	b_unlock(&t->m);
}

int cmd_pingpong(int argc, char **argv)
{
	if (!args(argc, 3, "pingpong GAMES ITERS STACK")) return 2;
	long games = atol(argv[0]);
	pp_iters = atol(argv[1]);
	tables = calloc(games, sizeof *tables);
	if (!tables) die("calloc", ENOMEM);
	gang_init(2 * games, (size_t)atol(argv[2]), player);
	double begun = now_ns();
	while (!trials_enough(G.k, begun)) {
		for (long g = 0; g < games; g++) {
			b_mutex_init(&tables[g].m);
			b_cond_init(&tables[g].turn_c[0]);
			b_cond_init(&tables[g].turn_c[1]);
			tables[g].turn = 0;
		}
		if (gang_trial()) return 1;
	}
	char name[64];
	snprintf(name, sizeof name, "pingpong_%ldx%ld_setup", games, pp_iters);
	report(name, G.setup, G.k, 1);
	snprintf(name, sizeof name, "pingpong_%ldx%ld", games, pp_iters);
	report(name, G.play, G.k, 1);
	gang_free();
	free(tables);
	return 0;
}

/* ---- shared data under one mutex (the seed-001 "array" workload) ------
 *
 * THREADS threads each make ITERS updates to one shared structure, each
 * update under the one mutex.
 */
static struct {
	b_mutex m;
	long count;
	long slot[64];
} shared = { .m = B_MUTEX_INIT };
static long sh_iters;

static void updater(long id)
{
	for (long i = 0; i < sh_iters; i++) {
		b_lock(&shared.m);
		shared.count++;
		shared.slot[(shared.count * 7 + id) & 63] += i;
		b_unlock(&shared.m);
	}
}

int cmd_shared(int argc, char **argv)
{
	if (!args(argc, 2, "shared THREADS ITERS")) return 2;
	long n = atol(argv[0]);
	sh_iters = atol(argv[1]);
	gang_init(n, 64 * 1024, updater);
	double begun = now_ns();
	while (!trials_enough(G.k, begun)) {
		shared.count = 0;
		if (gang_trial()) return 1;
		if (shared.count != n * sh_iters) {
			fprintf(stderr, "shared: count %ld, expected %ld\n", shared.count, n * sh_iters);
			return 1;
		}
	}
	char name[64];
	snprintf(name, sizeof name, "shared_%ld", n);
	report(name, G.play, G.k, 1);
	gang_free();
	return 0;
}

/* ---- bursty threads (seed 001, section 3.6) --------------------------
 *
 * THREADS threads each do ROUNDS rounds of: sleep IDLE_US, then compute
 * for BURST_US (a fixed amount of work, calibrated at start-up).  On one
 * CPU the elapsed time cannot be below max(THREADS·ROUNDS·BURST,
 * ROUNDS·(IDLE+BURST)); the bound is printed for the table.
 */
static long br_rounds, br_idle_us;
static double br_work;           /* loop iterations per burst */

__attribute__((noinline))
static void work(double iters)
{
	unsigned long x = 1;
	for (long i = 0; i < (long)iters; i++) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		__asm__ __volatile__("" : "+r"(x));
	}
	bench_sink += x;
}

static void burster(long id)
{
	(void)id;
	for (long r = 0; r < br_rounds; r++) {
		b_sleep_us(br_idle_us);
		work(br_work);
	}
}

int cmd_bursty(int argc, char **argv)
{
	if (!args(argc, 4, "bursty THREADS ROUNDS IDLE_US BURST_US")) return 2;
	long n = atol(argv[0]);
	br_rounds = atol(argv[1]);
	br_idle_us = atol(argv[2]);
	long burst_us = atol(argv[3]);

	/* iterations per µs: the best of a few short runs */
	double per_us = 0;
	for (int i = 0; i < 5; i++) {
		double t0 = now_ns();
		work(2e6);
		double r = 2e6 / ((now_ns() - t0) / 1e3);
		if (r > per_us) per_us = r;
	}
	br_work = per_us * burst_us;

	gang_init(n, 0, burster);
	double begun = now_ns();
	while (!trials_enough(G.k, begun))
		if (gang_trial()) return 1;
	double cpu = (double)n * br_rounds * burst_us * 1e3;
	double chain = (double)br_rounds * (br_idle_us + burst_us) * 1e3;
	char name[64];
	snprintf(name, sizeof name, "bursty_%ld_%ld", br_idle_us, burst_us);
	printf("V %s_bound %.0f\n", name, cpu > chain ? cpu : chain);
	report(name, G.play, G.k, 1);
	gang_free();
	return 0;
}
