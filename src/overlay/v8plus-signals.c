/*
 * v8plus-signals.c — does a signal handler leave a 32-bit SPARC (V8+)
 * program's registers as it found them?
 *
 * V8+ code is 32-bit code that uses the V9 CPU's 64-bit global and out
 * registers; Debian's 32-bit SPARC glibc is built that way, and its
 * memcpy, memcmp and strcmp keep 64-bit values in them.  A 32-bit signal
 * frame has room for the low halves only, so the kernel saves the high
 * halves beside it and puts them back at sigreturn.  An emulator that
 * does not truncates whatever those functions held at the interrupt:
 * copies and comparisons then go wrong in any program that takes
 * signals, green or not.
 *
 * The program copies and compares strings while a 200 us interval timer
 * interrupts it with a handler that only counts, and exits 0 when every
 * result was right, 1 otherwise.  check-sparc32.sh runs it first and
 * runs the time-sliced 32-bit suites only where it passes.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

static volatile unsigned long ticks;

static void count(int sig)
{
	(void)sig;
	ticks++;
}

int main(void)
{
	static char ref[4096], a[4096], b[4096];
	struct sigaction sa = { .sa_handler = count };
	struct itimerval every = { { 0, 200 }, { 0, 200 } };
	long wrong = 0, n;

	for (int i = 0; i < (int)sizeof ref - 1; i++) ref[i] = 'a' + i % 26;
	/* bound before the signals start (and the build links with -z now):
	 * the dynamic linker's own lookups compare strings too */
	memcpy(a, ref, 8);
	if (memcmp(a, ref, 8) || !strcmp(a, "")) return 2;
	sigaction(SIGALRM, &sa, 0);
	setitimer(ITIMER_REAL, &every, 0);
	for (n = 0; ticks < 5000 && n < 10000000; n++) {
		size_t len = 100 + n % 3000;
		memcpy(a, ref, len);
		a[len] = 0;
		memcpy(b, ref, len);
		b[len] = 0;
		if (memcmp(a, ref, len) || strcmp(a, b)) wrong++;
	}
	setitimer(ITIMER_REAL, &(struct itimerval){ { 0, 0 }, { 0, 0 } }, 0);
	printf("%ld copies and comparisons, %lu signals, %ld wrong\n", n, ticks, wrong);
	return wrong != 0;
}
