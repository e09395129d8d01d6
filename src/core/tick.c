/*
 * tick.c — time slicing and the program's virtual ITIMER_REAL.
 *
 * Design
 * ------
 * One real timer, setitimer(ITIMER_REAL) in one-shot mode, serves two
 * masters: the time slice and the program's own alarm()/ualarm()/
 * setitimer(ITIMER_REAL), which green virtualises once threads exist.
 * The timer is always set to the earlier of the next tick and the
 * program's next expiry, so the program's SIGALRM is exact, not rounded
 * to the quantum.
 *
 * Ticks run only while two or more threads are runnable: __green_ready
 * arms them when a thread becomes runnable and they are off; a tick that
 * finds the run queue empty does not re-arm.  An idle or single-threaded
 * program takes no ticks, and a busy yield or a ping-pong never makes a
 * system call to arm or disarm anything (at most one arm per quantum).
 *
 * A tick preempts the running thread if no switch has happened since the
 * previous tick, i.e. it has had the CPU for a whole quantum.  Inside a
 * no-preempt section the tick only records GREEN_PEND_YIELD and the
 * outermost GREEN_LEAVE yields.  Otherwise the handler yields at once,
 * from inside the signal handler: it first unblocks SIGALRM (and SIGTRAP,
 * which the handler runs with masked so that gdb's breakpoints do not
 * race with ticks) so the next thread does not inherit them blocked.  The
 * preempted thread's signal frame stays on its stack and its return from
 * the handler restores every register, including the floating-point
 * state the kernel saved.
 *
 *   SIGALRM ──> np > 0 ? ──yes──> pending |= YIELD; re-arm; return
 *                  │no
 *                  v
 *         program alarm due? ──> dispatch virtual SIGALRM
 *         whole quantum used? ──> unblock SIGALRM+SIGTRAP, yield
 *
 * In the glibc overlay the libc is a separate object whose internal locks
 * belong to the one kernel thread, so a tick whose interrupted pc is not
 * in the program (green_preempt_ok, the libc seam) does not switch: it
 * comes back after RETRY_NS, by when the thread has usually left the
 * libc.  In musl every pc is the program's.
 *
 * At each tick the I/O backend is polled without blocking
 * (__green_poll_check), so threads waiting for descriptors are woken
 * even while others compute.
 *
 * The default quantum (GREEN_QUANTUM_MS, DEFAULT_QUANTUM_MS below) is
 * chosen from the measurement in docs/preemption.md.
 */
#include <signal.h>
#include <string.h>
#include <errno.h>
#include <sys/time.h>
#include "green.h"
#include "ktime.h"
#include "runq.h"

#define DEFAULT_QUANTUM_MS 10
#define RETRY_NS 1000000ull      /* a tick that found the thread in the libc */

hidden int __green_ticking;
hidden unsigned long __green_nswitch;

static uint64_t quantum;              /* ns; 0 = cooperative only */
static uint64_t next_tick;            /* deadline of the next tick, 0 = none */
static unsigned long seen_nswitch;
static uint64_t alarm_at, alarm_every; /* the program's virtual ITIMER_REAL */
static uint64_t armed_at;             /* what the real timer is set to */
static int virtual;

hidden void __green_sig_generate(int, siginfo_t *, void *);
hidden void __green_sigset(sigset_t *, uint64_t);

static void set_real(uint64_t at, uint64_t now)
{
	struct itimerval it = { 0 };
	if (at) {
		uint64_t d = at > now ? at - now : 1000;
		it.it_value.tv_sec = d / 1000000000u;
		it.it_value.tv_usec = (d % 1000000000u + 999) / 1000;
		if (!it.it_value.tv_sec && !it.it_value.tv_usec) it.it_value.tv_usec = 1;
	}
	if (at || armed_at) green_k_setitimer(ITIMER_REAL, &it, 0);
	armed_at = at;
}

/* Set the real timer to the earlier of the two masters. */
static void rearm(uint64_t now)
{
	uint64_t at = next_tick;
	if (alarm_at && (!at || alarm_at < at)) at = alarm_at;
	if (at != armed_at) set_real(at, now);
}

static void tick(int sig, siginfo_t *si, void *uc)
{
	int e = errno, preempt = 0, alarm = 0;
	uint64_t now;

	if (si->si_code != SI_KERNEL) {
		/* kill() or sigqueue() of SIGALRM: the program's signal */
		__green_sig_generate(SIGALRM, si, uc);
		errno = e;
		return;
	}
	now = __green_now();
	armed_at = 0;                             /* a one-shot timer fired */
	if (alarm_at && now >= alarm_at) {
		alarm = 1;
		if (alarm_every)
			while (alarm_at <= now) alarm_at += alarm_every;
		else
			alarm_at = 0;
	}
	if (next_tick && now >= next_tick) {
		/* a tick: preempt if nobody switched since the last one */
		if (__green_runq_empty()) {
			next_tick = 0;                    /* nothing to share the CPU with */
			__green_ticking = 0;
		} else {
			next_tick = now + quantum;
			/* a whole quantum used, and the policy allows it (SCHED_FIFO
			 * runs until a higher priority is runnable) */
			preempt = __green_nswitch == seen_nswitch && __green_runq_should_preempt(__green_cur);
			seen_nswitch = __green_nswitch;
		}
		if (__green_np) {
			__green_pending |= GREEN_PEND_POLL | (preempt ? GREEN_PEND_YIELD : 0);
			preempt = 0;
		} else if (preempt && !green_preempt_ok(uc)) {
			preempt = 0;
			next_tick = now + (quantum < RETRY_NS ? quantum : RETRY_NS);
		} else {
			__green_np++;
			__green_poll_check();
			__green_np--;
		}
	}
	rearm(now);
	if (alarm) {
		siginfo_t ai;
		memset(&ai, 0, sizeof ai);
		ai.si_signo = SIGALRM;
		ai.si_code = SI_KERNEL;
		__green_sig_generate(SIGALRM, &ai, uc);
		preempt = !__green_np && green_preempt_ok(uc);   /* let the thread it is for run now */
	}
	if (preempt) {
		struct green_kset b = green_kset(1ULL << (SIGALRM - 1) | 1ULL << (SIGTRAP - 1));
		__syscall(SYS_rt_sigprocmask, SIG_UNBLOCK, &b, 0, _NSIG / 8);
		__green_yield();
	}
	errno = e;
}

hidden void __green_tick_arm(void)
{
	uint64_t now;
	if (!virtual || __green_ticking) return;
	__green_ticking = 1;
	now = __green_now();
	next_tick = now + quantum;
	seen_nswitch = __green_nswitch;
	rearm(now);
}

hidden int __green_itimer_armed(void)
{
	return alarm_at != 0;
}

/* Threads start: take over SIGALRM and the program's running alarm. */
hidden void __green_itimer_virtualise(void)
{
	struct itimerval it;
	struct sigaction sa = { .sa_sigaction = tick, .sa_flags = SA_SIGINFO | SA_RESTART };
	uint64_t now = __green_now();

	quantum = (__green_config.quantum_ms < 0 ? DEFAULT_QUANTUM_MS : __green_config.quantum_ms)
	          * 1000000ull;
	if (!green_k_getitimer(ITIMER_REAL, &it) && (it.it_value.tv_sec || it.it_value.tv_usec)) {
		alarm_at = now + it.it_value.tv_sec * 1000000000ull + it.it_value.tv_usec * 1000ull;
		alarm_every = it.it_interval.tv_sec * 1000000000ull + it.it_interval.tv_usec * 1000ull;
		armed_at = 1;   /* force a re-arm below */
	}
	__green_sigset(&sa.sa_mask, 1ULL << (SIGTRAP - 1));
	__libc_sigaction(SIGALRM, &sa, 0);
	virtual = 1;
	__green_ticking = !quantum;   /* cooperative only: never arm */
	rearm(now);
}

static void to_itimerval(struct itimerval *v, uint64_t at, uint64_t every, uint64_t now)
{
	uint64_t left = at > now ? at - now : (at ? 1000 : 0);
	v->it_value.tv_sec = left / 1000000000u;
	v->it_value.tv_usec = (left % 1000000000u + 999) / 1000;
	v->it_interval.tv_sec = every / 1000000000u;
	v->it_interval.tv_usec = every % 1000000000u / 1000;
}

hidden int __green_getitimer(struct itimerval *v)
{
	to_itimerval(v, alarm_at, alarm_every, __green_now());
	return 0;
}

hidden int __green_setitimer(const struct itimerval *nv, struct itimerval *ov)
{
	uint64_t now = __green_now();
	if (nv->it_value.tv_usec < 0 || nv->it_value.tv_usec >= 1000000 ||
	    nv->it_interval.tv_usec < 0 || nv->it_interval.tv_usec >= 1000000 ||
	    nv->it_value.tv_sec < 0 || nv->it_interval.tv_sec < 0)
		return -EINVAL;
	GREEN_ENTER();
	if (ov) to_itimerval(ov, alarm_at, alarm_every, now);
	alarm_every = nv->it_interval.tv_sec * 1000000000ull + nv->it_interval.tv_usec * 1000ull;
	alarm_at = nv->it_value.tv_sec || nv->it_value.tv_usec
	           ? now + nv->it_value.tv_sec * 1000000000ull + nv->it_value.tv_usec * 1000ull : 0;
	rearm(now);
	GREEN_LEAVE();
	return 0;
}

/* exec: hand the kernel the program's alarm, nothing of ours. */
hidden void __green_itimer_exec(int undo)
{
	struct itimerval it = { 0 };
	uint64_t now = __green_now();
	if (undo) {
		armed_at = 1;
		rearm(now);
		return;
	}
	to_itimerval(&it, alarm_at, alarm_every, now);
	green_k_setitimer(ITIMER_REAL, &it, 0);
}

hidden void __green_tick_after_fork(void)
{
	/* itimers are not inherited and alarms are cleared (POSIX) */
	alarm_at = alarm_every = 0;
	next_tick = 0;
	armed_at = 0;
	__green_ticking = !quantum;
}
