/*
 * cputime.c — CPU time per green thread.
 *
 * The kernel sees one thread and accounts its CPU time to it; green
 * splits that time among its threads.  How, and why so:
 *
 *   - Off until asked.  Accounting starts at the first
 *     pthread_getcpuclockid, or the first clock_gettime or clock_getres
 *     on CLOCK_THREAD_CPUTIME_ID or a thread's clock once a second
 *     thread exists.  Until then a switch pays one load and a branch
 *     that is never taken (switch.c), and a program that never asks
 *     pays nothing more.
 *   - Then exact.  Each switch reads the kernel thread's own CPU clock
 *     (CLOCK_THREAD_CPUTIME_ID: a system call, no vDSO answers it) and
 *     charges the difference since the last reading to the thread
 *     switched from.  The kernel's clock already excludes time the
 *     process was not on a CPU (a loaded machine steals nothing from
 *     any thread) and time spent waiting in the kernel.  The cheaper
 *     alternative, a per-switch cycle-counter stamp with the kernel's
 *     total split in proportion, would have to run always (it cannot
 *     know the past either) and would charge preemption by other
 *     processes to whoever happened to run.  The cost of a switch with
 *     accounting on is in docs/posix.md.
 *   - Idle counts for no thread: the scheduler's wait in the kernel
 *     (poll.c, __green_poll_wait) charges the running thread up to its
 *     start and discards what the wait itself cost.
 *   - The time before accounting started is the initial thread's, which
 *     is where the kernel put it (the kernel thread is the initial
 *     thread).  Every thread's clock is monotonic; their sum is the
 *     process's CPU time less idle and the time of exited threads.
 *
 * Clock ids are the kernel's encoding of a thread CPU clock,
 * (-tid - 1) * 8 + 6, with the thread's owner id (>= GREEN_TID_FIRST, never a
 * kernel tid; the initial thread's is its kernel tid): green-cc wraps
 * clock_gettime and clock_getres (tools/mkspecs.sh) so that they come
 * here first.
 */
#include <errno.h>
#include "base/gthread.h"
#include "base/section.h"
#include "sched/cputime.h"

static uint64_t stamp;          /* the kernel thread's CPU time at the last charge */

hidden uint64_t __green_cpu_kernel_ns(void)
{
	struct timespec ts;
	__clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

/* Charge the running thread up to now.  A fork child's kernel clock
 * starts again from 0: what it shows is all since the fork. */
hidden void __green_cpu_charge(void)
{
	uint64_t now = __green_cpu_kernel_ns();
	__green_cur->cpu_ns += now >= stamp ? now - stamp : now;
	stamp = now;
}

/* After the idle wait: what it cost is nobody's. */
hidden void __green_cpu_skip(void)
{
	stamp = __green_cpu_kernel_ns();
}

static void start(void)
{
	struct green_thread *t;
	GREEN_ENTER();
	if (!green_cpu_on()) {
		stamp = __green_cpu_kernel_ns();
		for (t = __green_all; t; t = t->all_next) t->cpu_ns = 0;
		__green_main.cpu_ns = stamp;   /* the past is the initial thread's */
		__green_switch_kind |= GREEN_SWITCH_CPU;   /* on for good: every switch charges (switch.h) */
	}
	GREEN_LEAVE();
}

hidden clockid_t __green_cpu_clockid(struct green_thread *t)
{
	int tid = t == __green_cur ? green_self_tid() : t->tid;
	start();
	return (clockid_t)((-tid - 1) * 8U + 6);
}

static struct green_thread *by_tid(int tid)
{
	struct green_thread *t;
	for (t = __green_all; t; t = t->all_next)
		if (t->tid == tid && t->state != GS_EXITED) return t;
	return 0;
}

/*
 * Is clk a green thread's CPU clock?  0 when it is not (the caller asks
 * the kernel); 1 with *ns its time; -1 for a thread clock of a green
 * owner id that names no live thread (EINVAL, as the kernel says for a
 * thread that is gone).  ns may be null (clock_getres).
 */
hidden int __green_cpu_clock(clockid_t clk, uint64_t *ns)
{
	struct green_thread *t;
	int tid;

	if (!green_active()) return 0;
	if (clk == CLOCK_THREAD_CPUTIME_ID) {
		t = __green_cur;
	} else {
		if (clk >= 0 || (clk & 7) != 6) return 0;
		tid = -(clk >> 3) - 1;
		GREEN_ENTER();
		t = by_tid(tid);
		GREEN_LEAVE();
		if (!t) return tid >= GREEN_TID_FIRST ? -1 : 0;
	}
	start();
	if (ns) {
		GREEN_ENTER();
		*ns = t->cpu_ns;
		if (t == __green_cur) *ns += __green_cpu_kernel_ns() - stamp;
		GREEN_LEAVE();
	}
	return 1;
}
