/*
 * switch-test.c — the CPU contract on its own: __green_arch_make and
 * __green_arch_switch, with no scheduler and no libc surgery.  Written
 * against contract.h only, so it runs on any port; it is the test of the
 * SPARC port, which has no augmented libc (docs/ports.md).
 *
 * What it checks:
 *   - ping-pong between main and several contexts, and a chain of direct
 *     context-to-context switches, with values live in locals (the
 *     registers a switch must keep) at every switch;
 *   - switches from deep recursion (more frames than the CPU has register
 *     windows), so the windows spill and fill across the switch;
 *   - the FP rounding mode stays per context;
 *   - the stack pointer a new context starts with is aligned;
 *   - a signal handled while a context runs on its own stack;
 *   - setjmp/longjmp inside a context, around switches;
 *   - many switches in a row (prints the time per switch, for interest).
 * Exit status 0 when everything holds.
 */
#include <fenv.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "contract.h"

#define N 4
#define STACK (256 * 1024)
#define DEPTH 40

static void *main_sp, *sp[N];
static int fails;

#define CHECK(c) do { if (!(c) && fails++ < 20) \
	fprintf(stderr, "switch-test: %s:%d: %s\n", __FILE__, __LINE__, #c); } while (0)

static void to_main(int i) { __green_arch_switch(&sp[i], main_sp); }

/* recurse, switching out at the bottom; every level checks its locals */
static __attribute__((noinline)) long deep(int i, int d, long acc)
{
	volatile long mine = acc * 3 + d;
	long r;
	if (d == 0) {
		to_main(i);
		return acc;
	}
	r = deep(i, d - 1, acc + d);
	CHECK(mine == acc * 3 + d);
	return r + (mine & 1);
}

static const int modes[N] = { FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO };
static volatile sig_atomic_t got_signal;
static void on_usr1(int s) { got_signal = s; }
static jmp_buf jb[N];

static void entry(void *arg)
{
	int i = (int)(intptr_t)arg;
	long a = 1000 * (i + 1), b = a + 7, c = a * 3;
	uintptr_t p = (uintptr_t)__green_arch_sp();

	CHECK(p % GREEN_ARCH_STACK_ALIGN == 0 || (p & (sizeof(void *) - 1)) == 0);
	CHECK(fegetround() == FE_TONEAREST);        /* a fresh context's default */
	fesetround(modes[i]);
	to_main(i);

	/* values live across a plain switch */
	for (int k = 0; k < 100; k++) {
		to_main(i);
		CHECK(a == 1000 * (i + 1) + k && b == a + 7 && c == a * 3);
		CHECK(fegetround() == modes[i]);
		a += 1; b += 1; c += 3;
	}

	/* switches from deep recursion */
	for (int k = 0; k < 10; k++) {
		long r = deep(i, DEPTH, k);
		CHECK(r >= k);
	}

	/* a signal delivered on this stack */
	got_signal = 0;
	raise(SIGUSR1);
	CHECK(got_signal == SIGUSR1);
	to_main(i);

	/* setjmp/longjmp around a switch */
	volatile int passes = 0;
	if (setjmp(jb[i]) == 0) {
		passes++;
		to_main(i);
		longjmp(jb[i], 1);
	}
	CHECK(passes == 1);
	CHECK(fegetround() == modes[i]);

	/* the chain: context i hands over to i+1 directly, the last to main */
	if (i + 1 < N) __green_arch_switch(&sp[i], sp[i + 1]);
	else to_main(i);

	/* the speed run: 100000 round trips with main */
	for (;;) to_main(i);
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

int main(void)
{
	int rounds = 0;
	signal(SIGUSR1, on_usr1);
	for (int i = 0; i < N; i++) {
		char *stk = malloc(STACK);
		if (!stk) return 2;
		sp[i] = __green_arch_make(stk + STACK, entry, (void *)(intptr_t)i);
	}
	/* first run, 100 plain rounds, 10 deep rounds, signal, setjmp */
	for (int r = 0; r < 1 + 100 + 10 + 1 + 1; r++, rounds++)
		for (int i = 0; i < N; i++) {
			double x = 1.0 / 3.0;
			__green_arch_switch(&main_sp, sp[i]);
			CHECK(x == 1.0 / 3.0);
			CHECK(fegetround() == FE_TONEAREST);
		}
	/* the chain 0 -> 1 -> ... -> N-1 -> main */
	__green_arch_switch(&main_sp, sp[0]);
	CHECK(fegetround() == FE_TONEAREST);

	uint64_t t0 = now_ns();
	for (int k = 0; k < 100000; k++) __green_arch_switch(&main_sp, sp[N - 1]);
	uint64_t t1 = now_ns();
	printf("switch-test (%s): %d rounds with %d contexts, %.1f ns per switch\n",
	       GREEN_ARCH_NAME, rounds, N, (t1 - t0) / 200000.0);
	if (fails) printf("switch-test: %d failures\n", fails);
	return fails != 0;
}
