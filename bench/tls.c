/*
 * tls.c — linked only into bench-green-tls: gives the program a TLS
 * segment (one `__thread` variable), so green runs each thread on a TCB
 * of its own and moves the thread pointer on every switch
 * (src/core/stack/tls.c).  bench/run.sh measures yield busy with it and
 * without it, in both stack modes.  It also times the two ways x86_64
 * has to move the thread pointer: `wrfsbase` (where the kernel allows
 * it) and `arch_prctl(ARCH_SET_FS)`; on m68k, the two ways of reading
 * it: green's `__m68k_read_tp` (a load, docs/ports.md) and the
 * `get_thread_area` system call stock musl makes.
 */
#include "bench.h"
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <unistd.h>

__thread long bench_tls_word = 1;

#ifdef __x86_64__
static void *fs_now(void)
{
	void *p;
	__asm__ volatile ("movq %%fs:0, %0" : "=r"(p));   /* musl: the TCB's self pointer */
	return p;
}

static double run_wrfsbase(long n)
{
	void *fs = fs_now();
	double t0 = now_ns();
	for (long i = 0; i < n; i++) __asm__ volatile ("wrfsbase %0" : : "r"(fs) : "memory");
	return now_ns() - t0;
}

static double run_arch_prctl(long n)
{
	void *fs = fs_now();
	double t0 = now_ns();
	for (long i = 0; i < n; i++) syscall(SYS_arch_prctl, 0x1002 /* ARCH_SET_FS */, fs);
	return now_ns() - t0;
}
#endif

#ifdef __m68k__
void *__m68k_read_tp(void);   /* declared plain, so every call is made */

static double run_read_tp(long n)
{
	double t0 = now_ns();
	for (long i = 0; i < n; i++) {
		void *tp = __m68k_read_tp();
		__asm__ volatile ("" : : "r"(tp));
	}
	return now_ns() - t0;
}

static double run_get_thread_area(long n)
{
	double t0 = now_ns();
	for (long i = 0; i < n; i++) syscall(SYS_get_thread_area);
	return now_ns() - t0;
}
#endif

int cmd_tp(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("V tls_word %ld\n", bench_tls_word);
#ifdef __x86_64__
	if (getauxval(26 /* AT_HWCAP2 */) & 2 /* HWCAP2_FSGSBASE */)
		timed("tp_wrfsbase", run_wrfsbase, 1);
	else
		printf("V tp_wrfsbase unavailable\n");
	timed("tp_arch_prctl", run_arch_prctl, 1);
#endif
#ifdef __m68k__
	timed("tp_read_tp", run_read_tp, 1);
	timed("tp_get_thread_area", run_get_thread_area, 1);
#endif
	return 0;
}
