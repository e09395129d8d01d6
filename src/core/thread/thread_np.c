/*
 * thread_np.c — per-thread attributes: names, pthread_getattr_np,
 * scheduling parameters, CPU-time clock; and process scheduling
 * (sched_setscheduler and friends), which here is one kernel thread's.
 */
#include <string.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <sys/resource.h>
#include "base/gthread.h"
#include "base/section.h"
#include "thread/lifecycle.h"
#include "sync/addrwait.h"
#include "sched/cputime.h"
#include "base/report.h"
#include "sched/runq.h"

int pthread_setname_np(pthread_t p, const char *name)
{
	struct green_thread *t = __green_lookup(p);
	size_t n;
	if (!t) return ESRCH;
	n = strnlen(name, sizeof t->name);
	if (n >= sizeof t->name) return ERANGE;
	memcpy(t->name, name, n + 1);
	return 0;
}

/* The initial thread is named after the program, as the kernel does. */
int pthread_getname_np(pthread_t p, char *buf, size_t len)
{
	struct green_thread *t = __green_lookup(p);
	const char *n;
	size_t l;
	if (!t) return ESRCH;
	n = __green_name(t);
	l = strnlen(n, 15);
	if (len <= l) return ERANGE;
	memcpy(buf, n, l);
	buf[l] = 0;
	return 0;
}

/* The initial thread's stack: the mapping that holds the arguments, as
 * large as RLIMIT_STACK allows it to grow. */
static void main_stack(void **top, size_t *size)
{
	FILE *f = fopen("/proc/self/maps", "re");
	unsigned long here = (uintptr_t)green_initial_stack_addr(), lo, hi;
	char line[256];
	struct rlimit rl;

	*top = 0;
	*size = 0;
	while (f && fgets(line, sizeof line, f)) {
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && here >= lo && here < hi) {
			*top = (void *)hi;
			*size = hi - lo;
			break;
		}
	}
	if (f) fclose(f);
	if (!getrlimit(RLIMIT_STACK, &rl) && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur > *size)
		*size = rl.rlim_cur;
}

/*
 * A thread's stack as its creator asked for it, as NPTL reports it: the
 * size asked for (the attribute's, else the default in force), ending at
 * the top of the stack.  A stack the program gave (pthread_attr_setstack)
 * is its region exactly.  Green's own stacks are at least as large as
 * asked, the slack of page rounding lying below the range reported
 * (stacks.md); a copied-stack thread's range lies at the top of its
 * slot, which is as large or larger.  The stack mode is the one the
 * thread got (pthread_attr_getstackmode_np reads it back: separate or
 * copied, never the default), so a program can ask how it runs.
 */
int pthread_getattr_np(pthread_t p, pthread_attr_t *a)
{
	struct green_thread *t = __green_lookup(p);
	struct green_attr g = { 0 };
	int r;

	if (!t) return ESRCH;
	g.detached = t->detached;
	g.policy = t->policy;
	g.prio = t->prio;
	if (t == &__green_main) {
		void *top;
		main_stack(&top, &g.stacksize);
		g.stackaddr = (uintptr_t)top;
	} else {
		g.stackaddr = (uintptr_t)t->stack_lo + (t->user_stack ? t->stack_asked : t->stack_size);
		g.stacksize = t->stack_asked;
		g.guardsize = t->guard_size;
	}
	if ((r = green_attr_fill(a, &g))) return r;
	/* PTHREAD_STACK_SEPARATE_NP or PTHREAD_STACK_COPIED_NP (create.c:
	 * the attribute's mode less one is the thread's) */
	green_attr_set_stackmode(a, t->stack_mode + 1);
	return 0;
}

/* Is prio a priority of policy (Linux's ranges, green's levels)?  0 or
 * EINVAL; pthread_create checks an explicit attribute with it too. */
hidden int __green_sched_check(int policy, int prio)
{
	int lo, hi;
	switch (policy) {
	case SCHED_OTHER: case SCHED_FIFO: case SCHED_RR:
#ifdef SCHED_BATCH
	case SCHED_BATCH:
#endif
#ifdef SCHED_IDLE
	case SCHED_IDLE:
#endif
		break;
	default:
		return EINVAL;
	}
	lo = policy == SCHED_FIFO || policy == SCHED_RR ? 1 : 0;
	hi = policy == SCHED_FIFO || policy == SCHED_RR ? 99 : 0;
	return prio < lo || prio > hi ? EINVAL : 0;
}

static int check_param(int policy, const struct sched_param *param)
{
	return param ? __green_sched_check(policy, param->sched_priority) : EINVAL;
}

/* Inside GREEN_ENTER: give t its new policy and priority and put it
 * where its level says (runq.h); the running thread yields if that
 * leaves a higher-priority thread runnable. */
static void set_sched(struct green_thread *t, int policy, int prio, int front)
{
	t->policy = policy;
	t->prio = prio;
	green_relevel(t);
	if (t->state == GS_RUNNABLE || t->state == GS_BLOCKED)
		__green_runq_requeue(t, front);
	else if (t == __green_cur && __green_runq_higher(t))
		green_pending_set(GREEN_PEND_YIELD);
}

int pthread_setschedparam(pthread_t p, int policy, const struct sched_param *param)
{
	struct green_thread *t = __green_lookup(p);
	int r;
	if (!t) return ESRCH;
	if ((r = check_param(policy, param))) return r;
	GREEN_ENTER();
	set_sched(t, policy, param->sched_priority, 0);   /* tail of its level */
	GREEN_LEAVE();
	return 0;
}

int pthread_getschedparam(pthread_t p, int *restrict policy, struct sched_param *restrict param)
{
	struct green_thread *t = __green_lookup(p);
	if (!t) return ESRCH;
	*policy = t->policy;
	param->sched_priority = t->prio;
	return 0;
}

/* POSIX: a thread whose priority is lowered goes to the head of its new
 * level, so that lowering it again after a raise does not yield to its
 * peers. */
int pthread_setschedprio(pthread_t p, int prio)
{
	struct green_thread *t = __green_lookup(p);
	struct sched_param sp = { .sched_priority = prio };
	int r;
	if (!t) return ESRCH;
	if ((r = check_param(t->policy, &sp))) return r;
	GREEN_ENTER();
	set_sched(t, t->policy, prio, prio < t->prio);
	GREEN_LEAVE();
	return 0;
}

/*
 * Process scheduling.  musl refuses these (ENOSYS): on kernel threads
 * Linux applies them to one thread, not the process.  Here the process
 * is one kernel thread, so they are real: the system call sets the
 * policy of the kernel thread every green thread runs on (the kernel
 * checks privilege for SCHED_FIFO and SCHED_RR).  As on Linux the pid
 * names a thread: 0 the caller, a thread id (gettid(), tid.c) that
 * thread of this process, the pid itself the initial thread.  The
 * setters give that green thread the policy and priority as
 * pthread_setschedparam would, once the kernel has accepted them, and
 * the getters report its own.  An id no live thread holds is ESRCH; a
 * thread of another process is the kernel's business alone.  Success is
 * 0, as on Linux (POSIX has the setters return the former policy).
 */
#ifndef SCHED_RESET_ON_FORK
#define SCHED_RESET_ON_FORK 0x40000000
#endif

/* 1 and *t the green thread pid names, 0 the kernel's, or -ESRCH */
static int target(pid_t pid, struct green_thread **t)
{
	*t = __green_cur;
	if (!pid || (!green_active() && pid == __green_pshared_pid())) return 1;
	return __green_tid_find(pid, t);
}

static int set_thread(struct green_thread *t, int policy, const struct sched_param *param)
{
	int r;
	if ((r = check_param(policy & ~SCHED_RESET_ON_FORK, param)))
		return __syscall_ret(-r);
	if ((r = __syscall(SYS_sched_setscheduler, 0, policy, param)))
		return __syscall_ret(r);
	policy &= ~SCHED_RESET_ON_FORK;
	__green_kernel_rt = policy == SCHED_FIFO || policy == SCHED_RR;   /* sched_yield enters the kernel */
	GREEN_ENTER();
	set_sched(t, policy, param->sched_priority, 0);
	GREEN_LEAVE();
	return 0;
}

int sched_setscheduler(pid_t pid, int policy, const struct sched_param *param)
{
	struct green_thread *t;
	int r = target(pid, &t);
	if (r < 0) return __syscall_ret(r);
	if (!r) return __syscall_ret(__syscall(SYS_sched_setscheduler, pid, policy, param));
	return set_thread(t, policy, param);
}

int sched_setparam(pid_t pid, const struct sched_param *param)
{
	struct green_thread *t;
	int r = target(pid, &t);
	if (r < 0) return __syscall_ret(r);
	if (!r) return __syscall_ret(__syscall(SYS_sched_setparam, pid, param));
	return set_thread(t, t->policy, param);
}

int sched_getscheduler(pid_t pid)
{
	struct green_thread *t;
	int r = target(pid, &t);
	if (r < 0) return __syscall_ret(r);
	if (!r) return __syscall_ret(__syscall(SYS_sched_getscheduler, pid));
	return t->policy;
}

int sched_getparam(pid_t pid, struct sched_param *param)
{
	struct green_thread *t;
	int r = target(pid, &t);
	if (r < 0) return __syscall_ret(r);
	if (!r) return __syscall_ret(__syscall(SYS_sched_getparam, pid, param));
	param->sched_priority = t->prio;
	return 0;
}

/* The thread's CPU-time clock (cputime.c); asking starts the accounting. */
int pthread_getcpuclockid(pthread_t p, clockid_t *clk)
{
	struct green_thread *t = __green_lookup(p);
	if (!t) return ESRCH;
	*clk = __green_cpu_clockid(t);
	return 0;
}
