/*
 * record.c — record a run once, replay it exactly (green-record,
 * green-replay).  The design is src/core/record/README.md; in short:
 *
 * A green program runs on one kernel thread and every switch is green's,
 * so a run is a function of what came from outside: the results of its
 * system calls, the signals that arrived and where they were taken, and
 * the address-space layout (the launchers turn ASLR off).  This file
 * records the first two and plays them back.
 *
 * System calls.  Syscall User Dispatch (prctl PR_SET_SYSCALL_USER_DISPATCH)
 * makes every system call made outside the gateway (gate.S) raise SIGSYS
 * while `selector` says BLOCK: musl's inline calls, green's own, the
 * program's.  The handler (on_sigsys) makes the call from the gateway and
 * writes an event: number, arguments, result, and the memory the kernel
 * wrote (sysout.c).  In replay the same handler compares the call with the
 * trace, writes the recorded memory back and returns the recorded result,
 * without making the call — except the calls on the process's own state
 * (memory maps, signal masks and handlers: real_call), which run for real.
 * The vDSO is switched off (musl then reads clocks by system call), so the
 * clocks are recorded too.  So is the time-stamp counter: PR_SET_TSC
 * makes rdtsc and rdtscp fault, and the catcher answers each as an event
 * (GREEN_REC_RDTSC, GREEN_REC_RDTSCP) with the counter's value.
 *
 * Signals.  Every handler the program (or green) installs in the kernel is
 * installed as `catcher`, with green's restorer in the gateway.  A signal
 * that comes from outside (a tick, a timer, kill, SIGPIPE, SIGCHLD) is
 * only queued there.  It is taken at the next countable point — after a
 * system call, or at an outermost GREEN_LEAVE, which GREEN_PEND_RECORD
 * (set for the whole run) sends through __green_leave — where it is
 * written to the trace with the point's number and sent again to the
 * process with rt_tgsigqueueinfo, marked; the marked copy reaches the real
 * handler.  In replay the same copy is sent at the same point.  So a tick
 * preempts at the same point in both runs, and a thread that computes
 * without calling the library is preempted only at its next call (or
 * basic block with --sched-points).  A fault (SIGSEGV, SIGBUS, SIGFPE,
 * SIGILL, SIGTRAP from the CPU) is synchronous and runs as it is.
 *
 * Event stream (after the launcher's header, in blocks: trace.c):
 *   'S' nr:u16 nargs:u8 args:u64[nargs] ret:i64 {len:u32 addr:u64 bytes}* 0:u32
 *   'G' point:u64 siginfo:128
 *   'E' status:i64                       exit_group
 *   'K' sig:u32 siginfo:128              a fatal signal ended the run
 *   'X'                                  execve: the recorded process ends here
 *
 * Only the running thread, the SIGSYS handler and `catcher` touch this
 * state, on the one kernel thread; `catcher` touches the queue alone.
 */
#include <signal.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <elf.h>
#include <sched.h>
#include <ucontext.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <stdlib.h>
#include "base/gthread.h"
#include "base/section.h"
#include "base/gconfig.h"
#include "base/report.h"
#include "record/record.h"
#include "record/trace.h"

#ifndef __x86_64__
/* Recording needs Syscall User Dispatch and the gateway (gate.S), which
 * green has for x86_64 only (docs/record.md). */
hidden int __green_rmode;
hidden void __green_rec_point(void) {}
hidden void __green_rec_start(void)
{
	const char *s = getenv("GREEN_RECORDING");
	if (s && *s) {   /* refused, as green-record does where it cannot start */
		__green_say("green: GREEN_RECORDING=%s: green-record and green-replay run on x86_64 only\n", s);
		_Exit(125);
	}
}
#else

#ifndef PR_SET_SYSCALL_USER_DISPATCH
#define PR_SET_SYSCALL_USER_DISPATCH 59
#endif
#define SUD_ON 1
#define SUD_OFF 0
#define SEL_ALLOW 0
#define SEL_BLOCK 1
#define INJECTED 0x67726eed        /* si_errno of a signal the recorder sends again */
#define QLEN 256
#define BIT(s) (1ull << ((s) - 1))

hidden int __green_rmode;
static volatile unsigned char selector = SEL_ALLOW;
static int realpid;
static volatile int in_vfork;      /* a clone that shares our memory runs its child */
static int std_orig[3] = { 1, 1, 1 };  /* replay: 0-2 are still the ones inherited */

/* What gdb reads (gdb/green-gdb.py: green-replay when, goto) */
hidden volatile uint64_t __green_rec_events;   /* system calls so far */
hidden volatile uint64_t __green_rec_points;   /* countable points so far */
hidden volatile uint64_t __green_rec_stop_at;  /* call __green_rec_stop at this event */
static uint64_t nsignals;                        /* signals taken at points */
static int events_fd = -1;                       /* green-replay --events: a line per event */
static uint64_t hash = 0xcbf29ce484222325ull;

hidden volatile int __green_rec_fork_req;       /* gdb: fork a checkpoint at the stop */
long __green_rec_checkpoint(void);

/* gdb's breakpoint after a checkpoint's fork: r is the child's pid in the
 * replay that goes on, 0 in the checkpoint */
__attribute__((noinline)) void __green_rec_forked(long r) { __asm__ __volatile__("" :: "r"(r) : "memory"); }

/* gdb's breakpoint: the replay reached __green_rec_stop_at.  Checkpoints
 * are made here (green-replay checkpoint): gdb sets __green_rec_fork_req
 * and goes on, and the fork is a plain one that gdb follows, not one made
 * by a call from gdb. */
__attribute__((noinline)) void __green_rec_stop(void)
{
	__asm__ __volatile__("" ::: "memory");
	while (__green_rec_fork_req) {
		__green_rec_fork_req = 0;
		__green_rec_forked(__green_rec_checkpoint());
	}
}

static void mix(uint64_t v)
{
	hash = (hash ^ v) * 0x100000001b3ull;
}

/* ---- messages, never through the program's calls */

static size_t fmt_u(char *p, unsigned long long v, int base)
{
	char t[24];
	size_t n = 0, i;
	do t[n++] = "0123456789abcdef"[v % base]; while (v /= base);
	for (i = 0; i < n; i++) p[i] = t[n - 1 - i];
	return n;
}

/* A tiny printf: %s, %d (long), %u and %x (unsigned long long); to
 * stderr, or to the events descriptor for say_to */
static void vsay(int fd, const char *f, __builtin_va_list ap)
{
	char b[1024];
	size_t n = 0;
	for (; *f && n < sizeof b - 40; f++) {
		if (*f != '%') { b[n++] = *f; continue; }
		switch (*++f) {
		case 's': {
			const char *s = __builtin_va_arg(ap, const char *);
			while (s && *s && n < sizeof b - 40) b[n++] = *s++;
			break;
		}
		case 'd': {
			long v = __builtin_va_arg(ap, long);
			if (v < 0) { b[n++] = '-'; v = -v; }
			n += fmt_u(b + n, v, 10);
			break;
		}
		case 'u': n += fmt_u(b + n, __builtin_va_arg(ap, unsigned long long), 10); break;
		case 'x': n += fmt_u(b + n, __builtin_va_arg(ap, unsigned long long), 16); break;
		default: b[n++] = *f;
		}
	}
	G3(SYS_write, fd, b, n);
}

static void say(const char *f, ...)
{
	__builtin_va_list ap;
	__builtin_va_start(ap, f);
	vsay(2, f, ap);
	__builtin_va_end(ap);
}

static void event_line(const char *f, ...)
{
	__builtin_va_list ap;
	if (events_fd < 0) return;
	__builtin_va_start(ap, f);
	vsay(events_fd, f, ap);
	__builtin_va_end(ap);
}

static const char *mode_name(void)
{
	return __green_rmode == GREEN_REC_REPLAY ? "green-replay" : "green-record";
}

static void stop_dispatch(void)
{
	selector = SEL_ALLOW;
	gate(SYS_prctl, PR_SET_SYSCALL_USER_DISPATCH, SUD_OFF, 0, 0, 0, 0);
}

/* The end of recording or replaying: the summary both runs print alike. */
static void summary(void)
{
	say("%s: %u events, %u points, %u signals, hash %x\n", mode_name(),
	    (unsigned long long)__green_rec_events, (unsigned long long)__green_rec_points,
	    (unsigned long long)nsignals, (unsigned long long)hash);
}

static _Noreturn void die_now(int sig)
{
	stop_dispatch();
	__green_rmode = GREEN_REC_OFF;
	struct green_ksa dfl = { 0 };
	G4(SYS_rt_sigaction, sig, &dfl, 0, 8);
	uint64_t m = BIT(sig);
	G4(SYS_rt_sigprocmask, SIG_UNBLOCK, &m, 0, 8);
	G3(SYS_tgkill, realpid, realpid, sig);
	for (;;) G1(SYS_exit_group, 128 + sig);
}

/* ---- the program's dispositions: what it asked for, and what the
 * kernel holds instead (the catcher, with the gateway's restorer) */

static struct green_ksa prog[65];
static unsigned char known[65];

static int fatal_default(int s)
{
	switch (s) {
	case SIGCHLD: case SIGCONT: case SIGURG: case SIGWINCH: case SIGSTOP: case SIGTSTP:
	case SIGTTIN: case SIGTTOU: case SIGKILL: case SIGSYS: case SIGTRAP:
		return 0;
	}
	return s < 65;
}

static void catcher(int sig, siginfo_t *si, void *uc);

static long install(int sig, const struct green_ksa *want)
{
	struct green_ksa k = *want;
	k.mask &= ~BIT(SIGSYS);
	if (k.handler != SIG_IGN && (k.handler != SIG_DFL || fatal_default(sig))) {
		k.handler = (void *)catcher;
		k.flags |= SA_SIGINFO | SA_RESTORER;
		k.restorer = (void *)__green_gate_sigaction_restore;
		if (want->handler == SIG_DFL) k.flags |= SA_RESTART;
	}
	return G4(SYS_rt_sigaction, sig, &k, 0, 8);
}

static void learn(int sig)
{
	if (known[sig]) return;
	G4(SYS_rt_sigaction, sig, 0, &prog[sig], 8);
	known[sig] = 1;
}

static long do_sigaction(const long *a)
{
	int sig = a[0];
	struct green_ksa *act = (void *)a[1], *old = (void *)a[2], prev;
	long r;
	if (sig < 1 || sig > 64 || sig == SIGKILL || sig == SIGSTOP || a[3] != 8)
		return gate(SYS_rt_sigaction, a[0], a[1], a[2], a[3], 0, 0);
	learn(sig);
	prev = prog[sig];
	if (act) {
		if (sig != SIGSYS && (r = install(sig, act)) < 0) return r;
		prog[sig] = *act;   /* SIGSYS stays the recorder's */
	}
	if (old) *old = prev;
	return 0;
}

/* A signal reaches the handler the program installed, as the kernel
 * would have delivered it. */
static void deliver(int sig, siginfo_t *si, void *uc)
{
	struct green_ksa *p = &prog[sig];
	void *h = p->handler;
	if (h == SIG_IGN) return;
	if (h == SIG_DFL) {
		if (__green_rmode == GREEN_REC_RECORD) {
			trace_put("K", 1);
			uint32_t s = sig;
			trace_put(&s, 4);
			trace_put(si, 128);
			trace_flush();
			__green_ring_end();
		} else if (__green_rmode == GREEN_REC_REPLAY) {
			trace_expect_fatal(sig, __green_rec_events);
		}
		if (__green_rmode) {
			say("%s: the run ends with signal %d (%s), event %u\n", mode_name(), (long)sig,
			    strsignal(sig), (unsigned long long)__green_rec_events);
			summary();
		}
		die_now(sig);
	}
	if (p->flags & SA_RESETHAND) p->handler = SIG_DFL;
	if (p->flags & SA_SIGINFO) ((void (*)(int, siginfo_t *, void *))h)(sig, si, uc);
	else ((void (*)(int))h)(sig);
}

/* ---- signals from outside: queued, then taken at a point */

static siginfo_t queue[QLEN];
static volatile unsigned qhead, qtail;

/* ---- the time-stamp counter: with PR_SET_TSC's PR_TSC_SIGSEGV, rdtsc
 * and rdtscp fault (SIGSEGV, SI_KERNEL); the catcher makes each an event */

static uint32_t tsc_aux;   /* rdtscp's processor id, written back in replay */

static void tsc_trap(int on)
{
	gate(SYS_prctl, PR_SET_TSC, on ? PR_TSC_SIGSEGV : PR_TSC_ENABLE, 0, 0, 0, 0);
}

static uint64_t read_tsc(int p)
{
	uint32_t lo, hi, c = 0;
	tsc_trap(0);
	if (p) __asm__ __volatile__ ("rdtscp" : "=a"(lo), "=d"(hi), "=c"(c));
	else __asm__ __volatile__ ("rdtsc" : "=a"(lo), "=d"(hi));
	tsc_trap(1);
	tsc_aux = c;
	return (uint64_t)hi << 32 | lo;
}

static long one_call(long nr, long *a, ucontext_t *uc, const siginfo_t *si);

/* A fault at an rdtsc or rdtscp: answered as the instruction would */
static int tsc_fault(const siginfo_t *si, ucontext_t *uc)
{
	greg_t *g = uc->uc_mcontext.gregs;
	const unsigned char *pc = (const unsigned char *)g[REG_RIP];
	long a[6] = { 0 }, len, v;
	if (si->si_code != SI_KERNEL || pc[0] != 0x0f) return 0;
	if (pc[1] == 0x31) len = 2;
	else if (pc[1] == 0x01 && pc[2] == 0xf9) len = 3;
	else return 0;
	v = one_call(len == 2 ? GREEN_REC_RDTSC : GREEN_REC_RDTSCP, a, uc, si);
	g[REG_RAX] = (uint32_t)v;
	g[REG_RDX] = (uint64_t)v >> 32;
	if (len == 3) g[REG_RCX] = tsc_aux;
	g[REG_RIP] += len;
	return 1;
}

static int synchronous(int sig, const siginfo_t *si)
{
	switch (sig) {
	case SIGSEGV: case SIGBUS: case SIGFPE: case SIGILL: case SIGTRAP:
		return si->si_code > 0;
	}
	return 0;
}

static void catcher(int sig, siginfo_t *si, void *uc)
{
	if (sig == SIGSEGV && __green_rmode && !in_vfork && tsc_fault(si, uc)) return;
	if (!__green_rmode || synchronous(sig, si)) {
		deliver(sig, si, uc);
		return;
	}
	if (si->si_errno == INJECTED) {   /* our own copy, at its point */
		si->si_errno = 0;
		deliver(sig, si, uc);
		return;
	}
	if (__green_rmode == GREEN_REC_REPLAY) return;   /* the replay's signals come from the trace */
	if (qtail - qhead < QLEN) {
		queue[qtail % QLEN] = *si;
		qtail++;
	}
}

/* The signals the running code blocks in the kernel now.  A signal is
 * sent again only where it is not blocked, so that it reaches its handler
 * at once, at the point written in the trace: one sent while blocked
 * would wait in the kernel for an unblocking that may come inside a wait
 * with a mask of its own (pselect6, ppoll, sigsuspend), which the replay
 * does not make; or merge with a real one of the same number. */
static uint64_t blocked_now(void)
{
	uint64_t set = 0;
	G4(SYS_rt_sigprocmask, SIG_BLOCK, 0, &set, 8);
	return set;
}

static void inject(const siginfo_t *si)
{
	siginfo_t s = *si;
	nsignals++;
	event_line("point %u: signal %d (code %d) taken by thread %u\n",
	           (unsigned long long)__green_rec_points, (long)s.si_signo, (long)s.si_code,
	           (unsigned long long)(__green_cur ? __green_cur->id : 0));
	s.si_errno = INJECTED;
	G4(SYS_rt_tgsigqueueinfo, realpid, realpid, s.si_signo, &s);
}

/* A countable point: after every system call, and at every outermost
 * GREEN_LEAVE (GREEN_PEND_RECORD sends each through __green_leave). */
hidden void __green_rec_point(void)
{
	siginfo_t si;
	uint64_t p;
	if (!__green_rmode || in_vfork) return;
	p = ++__green_rec_points;
	mix(__green_cur ? __green_cur->id : 0);
	/* Signals are taken here only while this is still the last point.
	 * A handler that reached points of its own (a tick's system calls)
	 * has moved the count on, and a signal taken after it returns would
	 * be written at a later point's number than the place it is taken:
	 * the replay, taking it at that point inside the handler, would not
	 * run the same way.  What is left waits for the next point. */
	if (__green_rmode == GREEN_REC_RECORD) {
		/* the oldest queued signal that is not blocked, until none; each
		 * taken out before its handler runs (which may reach a point) */
		while (qhead != qtail && __green_rec_points == p) {
			uint64_t m = blocked_now();
			unsigned i;
			for (i = qhead; i != qtail && (m & BIT(queue[i % QLEN].si_signo)); i++) ;
			if (i == qtail) break;
			si = queue[i % QLEN];
			for (; i != qhead; i--) queue[i % QLEN] = queue[(i - 1) % QLEN];
			qhead++;
			trace_put("G", 1);
			trace_put((const void *)&__green_rec_points, 8);
			trace_put(&si, 128);
			mix(si.si_signo);
			inject(&si);
		}
	} else {
		while (__green_rec_points == p && trace_next_signal(p, &si)) {
			mix(si.si_signo);
			inject(&si);
		}
	}
}

/* ---- system calls */

static void emit(const void *addr, unsigned long len)
{
	uint32_t n = len;
	uint64_t p = (uintptr_t)addr;
	trace_put(&n, 4);
	trace_put(&p, 8);
	trace_put(addr, len);
}

static long strip_sigsys(long set, uint64_t *copy)
{
	if (!set) return 0;
	*copy = *(uint64_t *)set & ~BIT(SIGSYS);
	return (long)copy;
}

/* fork's child stops recording: its calls are not the run's */
static void child_leaves(void)
{
	stop_dispatch();
	tsc_trap(0);
	__green_rmode = GREEN_REC_OFF;
	trace_forget();
}

/* The calls green-record makes itself, in both modes, with what they
 * need changed: SIGSYS is never blocked, the trace's descriptor is not
 * the program's, a child never writes the trace. */
static long real_call(long nr, long *a, ucontext_t *uc, const siginfo_t *si)
{
	uint64_t set;
	switch (nr) {
	case SYS_rt_sigaction:
		return do_sigaction(a);
	case SYS_rt_sigprocmask:
		if (a[0] != SIG_UNBLOCK) return gate(nr, a[0], strip_sigsys(a[1], &set), a[2], a[3], 0, 0);
		break;
	case SYS_rt_sigsuspend:
		return gate(nr, strip_sigsys(a[0], &set), a[1], 0, 0, 0, 0);
	case SYS_ppoll:
		return gate(nr, a[0], a[1], a[2], strip_sigsys(a[3], &set), a[4], 0);
	case SYS_epoll_pwait: case SYS_epoll_pwait2:
		return gate(nr, a[0], a[1], a[2], a[3], strip_sigsys(a[4], &set), a[5]);
	case SYS_pselect6:
		if (a[5]) {
			long *d = (long *)a[5], m[2] = { strip_sigsys(d[0], &set), d[1] };
			return gate(nr, a[0], a[1], a[2], a[3], a[4], (long)m);
		}
		break;
	case SYS_close:
		if (a[0] == GREEN_TRACE_FD || __green_ring_fd(a[0])) return -EBADF;
		break;
	case SYS_dup2: case SYS_dup3:
		if (a[1] == GREEN_TRACE_FD || __green_ring_fd(a[1])) return -EBADF;
		break;
	case SYS_close_range: {
		/* the trace's descriptor, and the ring's after it, stay */
		unsigned long lo = GREEN_TRACE_FD, hi = __green_ring_fd(GREEN_RING_SEG) ? GREEN_RING_SOCK + 1 : lo;
		if ((unsigned long)a[0] <= hi && (unsigned long)a[1] >= lo) {
			long r = (unsigned long)a[0] < lo ? gate(nr, a[0], lo - 1, a[2], 0, 0, 0) : 0;
			if (r >= 0 && (unsigned long)a[1] > hi)
				r = gate(nr, hi + 1, a[1], a[2], 0, 0, 0);
			return r;
		}
		break;
	}
	case GREEN_REC_RDTSC: case GREEN_REC_RDTSCP:
		return read_tsc(nr == GREEN_REC_RDTSCP);
	case SYS_io_uring_setup: case SYS_clone3:
		return -ENOSYS;   /* a ring the kernel fills behind our back; clone3: musl does not use it */
	case SYS_vfork:       /* as fork that waits: its child must not return through our frame */
		a[0] = CLONE_VFORK | SIGCHLD;
		a[1] = 0;
		nr = SYS_clone;
		/* fall through */
	case SYS_clone: case SYS_fork: {
		long r;
		if (nr == SYS_clone && (a[0] & CLONE_VM)) {
			if ((a[0] & CLONE_THREAD) || !(a[0] & CLONE_VFORK)) {
				say("%s: a second kernel thread cannot be recorded (clone flags %x)\n",
				    mode_name(), (unsigned long long)a[0]);
				return -ENOSYS;
			}
			in_vfork = 1;   /* the child's calls pass straight through */
			r = __green_gate_clone(a[0], a[1], a[2], a[3], a[4],
			                       (long)si->si_call_addr, uc->uc_mcontext.gregs[REG_R9]);
			in_vfork = 0;
			return r;
		}
		r = gate(nr, a[0], a[1], a[2], a[3], a[4], 0);
		if (r == 0) child_leaves();
		return r;
	}
	}
	return gate(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* Calls that act on the process itself run in replay too. */
static int runs_in_replay(long nr, const long *a)
{
	switch (nr) {
	case SYS_mmap:
		return (a[3] & MAP_ANONYMOUS) || a[4] == -1;
	case SYS_munmap: case SYS_mprotect: case SYS_madvise: case SYS_brk: case SYS_mremap:
	case SYS_msync: case SYS_mlock: case SYS_munlock: case SYS_mlockall: case SYS_munlockall:
	case SYS_rt_sigaction: case SYS_rt_sigprocmask: case SYS_sigaltstack: case SYS_arch_prctl:
	case SYS_set_robust_list: case SYS_membarrier: case SYS_exit: case SYS_exit_group:
	case SYS_io_uring_setup: case SYS_clone3: case SYS_rseq:
		return 1;
	}
	return 0;
}

static int ok(long r)
{
	return (unsigned long)r < -4096ul;
}

/* a file mapped: recorded by its bytes, replayed into memory of our own */
static int file_map(long nr, const long *a)
{
	return nr == SYS_mmap && !runs_in_replay(nr, a);
}

static long record_call(long nr, long *a, ucontext_t *uc, const siginfo_t *si)
{
	struct green_rec_pre pre;
	uint16_t n16 = nr;
	uint8_t na = __green_rec_nargs(nr);
	long r;

	__green_rec_pre(nr, a, &pre);
	if (nr == SYS_exit_group || nr == SYS_exit) {
		trace_put("E", 1);
		trace_put(&a[0], 8);
		trace_flush();
		__green_ring_end();
		summary();
		G1(SYS_exit_group, a[0]);
	}
	if (nr == SYS_execve || nr == SYS_execveat) {
		trace_put("X", 1);
		trace_flush();
		__green_ring_end();
		summary();
		stop_dispatch();
		r = gate(nr, a[0], a[1], a[2], a[3], a[4], 0);
		selector = SEL_BLOCK;   /* it failed: go on recording */
		gate(SYS_prctl, PR_SET_SYSCALL_USER_DISPATCH, SUD_ON, (long)__green_gate_start,
		     __green_gate_end - __green_gate_start, (long)&selector, 0);
		return r;
	}
	r = real_call(nr, a, uc, si);
	if (!__green_rmode) return r;   /* a fork's child */
	trace_put("S", 1);
	trace_put(&n16, 2);
	trace_put(&na, 1);
	trace_put(a, 8 * na);
	trace_put(&r, 8);
	if (file_map(nr, a) && ok(r)) {
		/* a file mapped: its bytes as they were (replay maps memory) */
		struct { char pad[48]; long size; char rest[88]; } st;
		if ((a[2] & PROT_READ) && G2(SYS_fstat, a[4], &st) == 0) {
			long n = st.size - a[5];
			if (n > a[1]) n = a[1];
			if (n > 0) emit((void *)r, n);
		}
	} else if (nr == SYS_rt_sigaction) {
		if (r == 0 && a[2]) emit((void *)a[2], sizeof(struct green_ksa));
	} else if (nr == GREEN_REC_RDTSCP) {
		emit(&tsc_aux, sizeof tsc_aux);
	} else {
		__green_rec_outs(nr, a, r, &pre, emit);
	}
	trace_put("\0\0\0\0", 4);
	mix(nr);
	mix(r);
	return r;
}

static void diverged(long nr, const long *a, const struct trace_sys *t)
{
	char mine[200], theirs[200];
	trace_describe(mine, sizeof mine, nr, a, __green_rec_nargs(nr), 0, 0);
	if (t) trace_describe(theirs, sizeof theirs, t->nr, t->args, t->nargs, 1, t->ret);
	say("green-replay: divergence at event %u: the program calls %s\n"
	    "green-replay:   where the trace has %s\n",
	    (unsigned long long)__green_rec_events, mine, t ? theirs : trace_what_next());
	trace_diverged();
	die_now(SIGABRT);
}

/* Replay: what the program wrote to its standard output or error is
 * written for real, the r bytes the recorded call wrote (green writes to a
 * pipe or socket with pwritev2's RWF_NOWAIT; here the write may wait) */
static void show(long nr, const long *a, long r)
{
	const struct iovec *v = (const struct iovec *)a[1];
	if (nr == SYS_write) {
		gate(SYS_write, a[0], a[1], r, 0, 0, 0);
		return;
	}
	for (long i = 0; i < a[2] && r > 0; i++) {
		long n = (long)v[i].iov_len < r ? (long)v[i].iov_len : r;
		gate(SYS_write, a[0], (long)v[i].iov_base, n, 0, 0, 0);
		r -= n;
	}
}

static long replay_call(long nr, long *a, ucontext_t *uc, const siginfo_t *si)
{
	struct trace_sys t;
	long r;
	int na = __green_rec_nargs(nr);

	if (!trace_next_sys(&t)) {
		if ((nr == SYS_exit_group || nr == SYS_exit) && trace_at_exit()) {
			summary();
			G1(SYS_exit_group, a[0]);
		}
		if ((nr == SYS_execve || nr == SYS_execveat) && trace_at_exec()) {
			say("green-replay: the recorded process called execve here: the replay ends\n");
			summary();
			G1(SYS_exit_group, 0);
		}
		diverged(nr, a, 0);
	}
	if (t.nr != nr || t.nargs != na || memcmp(t.args, a, 8 * na)) diverged(nr, a, &t);
	if (runs_in_replay(nr, a)) {
		r = real_call(nr, a, uc, si);
		if (nr != SYS_rt_sigaction && r != t.ret) {
			say("green-replay: divergence at event %u: %s returned %d where the trace has %d\n",
			    (unsigned long long)__green_rec_events, __green_rec_name(nr), r, (long)t.ret);
			trace_diverged();
			die_now(SIGABRT);
		}
	} else {
		r = t.ret;
		if (file_map(nr, a) && ok(r)) {
			/* a file mapping: memory of our own, filled below */
			long m = gate(SYS_mmap, r, a[1], PROT_READ | PROT_WRITE,
			              MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
			if (m != r) diverged(nr, a, &t);
		}
		if ((nr == SYS_write || nr == SYS_writev || nr == SYS_pwritev2) && a[0] >= 1 && a[0] <= 2 &&
		    std_orig[a[0]] && r > 0)
			show(nr, a, r);
		if ((nr == SYS_close && a[0] <= 2) || ((nr == SYS_dup2 || nr == SYS_dup3) && a[1] <= 2)) {
			long fd = nr == SYS_close ? a[0] : a[1];
			if (fd >= 0 && r >= 0) std_orig[fd] = 0;
		}
	}
	trace_apply_outs();
	if (file_map(nr, a) && ok(r)) gate(SYS_mprotect, r, a[1], a[2], 0, 0, 0);
	mix(nr);
	mix(r);
	return r;
}

/* One event: the call recorded or replayed, then its point.  From the
 * libc's calls (__green_rec_syscall) uc and si are 0: the calls that need
 * them come through the trap. */
static long one_call(long nr, long *a, ucontext_t *uc, const siginfo_t *si)
{
	long r;
	if (__green_rmode == GREEN_REC_RECORD && !uc) __green_ring_tick();   /* a replay may resume in it */
	if (__green_rec_events == __green_rec_stop_at && (__green_rec_stop_at || __green_rec_fork_req))
		__green_rec_stop();
	if (__green_rmode == GREEN_REC_RECORD) r = record_call(nr, a, uc, si);
	else r = replay_call(nr, a, uc, si);
	if (!__green_rmode) return r;   /* a fork's child */
	if (events_fd >= 0) {
		const char *name = __green_rec_name(nr);
		event_line("event %u: thread %u %s (%d) = %d%s\n", (unsigned long long)__green_rec_events,
		           (unsigned long long)(__green_cur ? __green_cur->id : 0), name ? name : "syscall",
		           nr, r, uc ? " (trapped)" : "");
	}
	__green_rec_events++;
	__green_rec_point();
	return r;
}

/* Syscall User Dispatch's SIGSYS: a call made outside the libc's inline
 * calls (the program's own), or one the libc sends here (below). */
static void on_sigsys(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	greg_t *g = uc->uc_mcontext.gregs;
	long nr = si->si_syscall;
	long a[6] = { g[REG_RDI], g[REG_RSI], g[REG_RDX], g[REG_R10], g[REG_R8], g[REG_R9] };
	int e = errno;
	(void)sig;

	if (in_vfork || !__green_rmode) {   /* a vfork child's calls, a fork child's */
		g[REG_RAX] = gate(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
		return;
	}
	g[REG_RAX] = one_call(nr, a, uc, si);
	errno = e;
}

/* The calls the recorder must see from a signal frame: a child that
 * starts on a stack of its own, the end of the process or of its image. */
static int needs_frame(long nr)
{
	switch (nr) {
	case SYS_clone: case SYS_clone3: case SYS_fork: case SYS_vfork: case SYS_execve:
	case SYS_execveat: case SYS_exit: case SYS_exit_group: case SYS_rt_sigreturn:
		return 1;
	}
	return 0;
}

/* The libc's and green's calls while recording or replaying
 * (src/arch/x86_64/musl/syscall_arch.h): a function call, not a trap. */
hidden long __green_rec_syscall(long nr, long a1, long a2, long a3, long a4, long a5, long a6)
{
	long a[6] = { a1, a2, a3, a4, a5, a6 };
	if (__green_rmode && !in_vfork && !needs_frame(nr)) return one_call(nr, a, 0, 0);
	/* the instruction itself, outside the gateway: the trap when dispatching */
	register long r10 __asm__("r10") = a4;
	register long r8 __asm__("r8") = a5;
	register long r9 __asm__("r9") = a6;
	unsigned long ret;
	__asm__ __volatile__ ("syscall" : "=a"(ret) : "a"(nr), "D"(a1), "S"(a2), "d"(a3),
	                      "r"(r10), "r"(r8), "r"(r9) : "rcx", "r11", "memory");
	return ret;
}

/* A checkpoint (green-replay checkpoint, gdb/green-gdb.py): a copy of the
 * replay that waits where it is, made by a fork through the gateway
 * (green's fork would run the program's atfork handlers and keep only the
 * calling thread).  The copy inherits the dispatch and the trace in
 * memory; it needs its own pid, to send itself its signals, and the
 * dispatch again, which a fork does not inherit. */
long __green_rec_checkpoint(void)
{
	long r;
	if (__green_rmode != GREEN_REC_REPLAY) return -EPERM;
	r = G2(SYS_clone, SIGCHLD, 0);
	if (r == 0) {   /* the dispatch is not inherited by a fork */
		realpid = G1(SYS_getpid, 0);
		gate(SYS_prctl, PR_SET_SYSCALL_USER_DISPATCH, SUD_ON, (long)__green_gate_start,
		     __green_gate_end - __green_gate_start, (long)&selector, 0);
	}
	return r;
}

/* A ring's replay (ring.c) restored the recorded process's memory at a
 * checkpoint, where it was recording: the recorder's state becomes a
 * replay's again.  On the restore's stack, signals blocked. */
static int start_dispatch(void);

hidden void __green_rec_resumed(const struct green_rec_keep *k)
{
	__green_rmode = GREEN_REC_REPLAY;
	realpid = G1(SYS_getpid, 0);
	events_fd = k->events_fd;
	__green_rec_stop_at = k->stop_at;
	__green_rec_fork_req = k->fork_req;
	if (k->stop_at && k->stop_at < __green_rec_events) {   /* gdb's goto to before the trace */
		say("green-replay: event %u is before this trace's start (the checkpoint of green-record "
		    "--last, at event %u): stopping there\n", (unsigned long long)k->stop_at,
		    (unsigned long long)__green_rec_events);
		__green_rec_stop_at = __green_rec_events;
	}
	qhead = qtail;
	in_vfork = 0;
	if (start_dispatch() < 0) G1(SYS_exit_group, 125);
	tsc_trap(1);
}

/* ---- the start */

static int start_dispatch(void)
{
	struct green_ksa sa = { .handler = (void *)on_sigsys,
	                        .flags = SA_SIGINFO | SA_NODEFER | SA_RESTORER,
	                        .restorer = (void *)__green_gate_sigaction_restore };
	uint64_t m = BIT(SIGSYS);
	if (G4(SYS_rt_sigaction, SIGSYS, &sa, 0, 8) < 0) return -1;
	G4(SYS_rt_sigprocmask, SIG_UNBLOCK, &m, 0, 8);
	selector = SEL_BLOCK;
	if (gate(SYS_prctl, PR_SET_SYSCALL_USER_DISPATCH, SUD_ON, (long)__green_gate_start,
	         __green_gate_end - __green_gate_start, (long)&selector, 0) < 0) {
		selector = SEL_ALLOW;
		return -1;
	}
	return 0;
}

/* musl reads the clocks through the vDSO, which makes no system call: with
 * the vDSO's address gone from the auxiliary vector it makes one, and the
 * clocks are recorded with the rest.  Before the first clock read. */
static void no_vdso(void)
{
	for (size_t *v = libc.auxv; v && *v; v += 2)
		if (*v == AT_SYSINFO_EHDR) v[1] = 0;
}

hidden void __green_rec_start(void)
{
	static int done;
	const char *s;
	int mode;
	if (done) return;
	done = 1;
	if (!(s = getenv("GREEN_RECORDING")) || !*s) return;
	if (!strcmp(s, "record")) mode = GREEN_REC_RECORD;
	else if (!strcmp(s, "replay")) mode = GREEN_REC_REPLAY;
	else {
		say("green: ignoring GREEN_RECORDING=%s (want record or replay)\n", s);
		return;
	}
	__green_config_load();
	realpid = G1(SYS_getpid, 0);
	if (G2(SYS_fcntl, GREEN_TRACE_FD, F_GETFD) < 0) {
		say("green: GREEN_RECORDING=%s wants the trace on descriptor %d: run the program with %s\n",
		    s, (long)GREEN_TRACE_FD, mode == GREEN_REC_RECORD ? "green-record" : "green-replay");
		return;
	}
	if (G2(SYS_fcntl, GREEN_EVENTS_FD, F_GETFD) >= 0) events_fd = GREEN_EVENTS_FD;
	if (mode == GREEN_REC_REPLAY && trace_load() < 0) G1(SYS_exit_group, 125);
	if (mode == GREEN_REC_REPLAY && trace_peek() == 'R') {   /* a ring's: from its checkpoint */
		struct green_rec_keep k = { __green_rec_stop_at, __green_rec_fork_req, events_fd };
		__green_ring_restore(&k);
	}
	if (mode == GREEN_REC_RECORD && trace_begin() < 0) G1(SYS_exit_group, 125);
	if (mode == GREEN_REC_RECORD) __green_ring_begin();
	__green_config.aio_threads = 1;   /* io_uring fills memory behind our back */
	no_vdso();
	__green_rmode = mode;
	for (int sig = 1; sig < 65; sig++) {
		if (sig == SIGSYS || sig == SIGKILL || sig == SIGSTOP || (sig >= 32 && sig <= 34)) continue;
		learn(sig);
		if (prog[sig].handler == SIG_DFL && fatal_default(sig)) install(sig, &prog[sig]);
	}
	if (start_dispatch() < 0) {
		say("green: %s needs Syscall User Dispatch (Linux 5.11 or later)\n", mode_name());
		G1(SYS_exit_group, 125);
	}
	tsc_trap(1);
	green_pending_set(GREEN_PEND_RECORD);   /* every outermost GREEN_LEAVE a point */
}
#endif

/* before the program's constructors; where the crt0 hook is not called
 * (the SPARC overlay, on glibc's start) the only start */
__attribute__((constructor(101))) static void early(void)
{
	__green_rec_start();
}
