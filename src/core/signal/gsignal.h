/*
 * gsignal.h — what deliver.c (the machinery: state, catcher, dispatch,
 * handlers) and sigcalls.c (the public calls' back-ends) share, and the
 * signal back-ends the stubs and members call.  Signals are numbered 1..64 and held
 * in 64-bit sets, bit s - 1 for signal s.
 */
#ifndef GREEN_GSIGNAL_H
#define GREEN_GSIGNAL_H
#include <signal.h>
#include "base/gthread.h"

/* ---- signals (deliver.c)
 * A wait ended with EINTR because a handler ran: should the interrupted
 * call restart (the handler had SA_RESTART)?  Blocking stubs ask this
 * before returning EINTR. */
hidden int __green_intr_restart(void);
extern hidden uint64_t __green_proc_pend;
hidden void __green_sig_deliver(void);          /* run handlers now deliverable to the caller */
hidden void __green_sig_init(void);             /* virtualise the kernel's signal state */
hidden void __green_sig_dispatch_arrived(void);  /* idle: dispatch recorded signals */
hidden void __green_sig_generate(int s, siginfo_t *, void *uc);  /* a signal green itself sends the process */
hidden int __green_sig_wakeable(void);          /* could a signal still wake a thread? */
hidden void __green_sig_after_fork(void);
extern hidden volatile uint64_t __green_sig_held;      /* caught, blocked in the kernel until dispatched */
hidden void __green_sig_fix_uc(void *uc, uint64_t add); /* a handler's return: unblock the no longer held */
hidden void __green_sig_thread_exit(struct green_thread *); /* discard what is pending for it */
hidden int __green_sigq_put(uint64_t *set, struct green_sigl *, const siginfo_t *);
hidden void __green_sigq_take(uint64_t *set, struct green_sigl *, int s, siginfo_t *);
hidden void __green_sigq_drop(uint64_t *set, struct green_sigl *, uint64_t which);
hidden uint64_t __green_sigbits(const sigset_t *);  /* deliver.c: a sigset_t as 64 bits */

/*
 * Signal sets.  The core keeps a set of signals 1..64 in a uint64_t, bit
 * s-1 for signal s.  The kernel and the libc lay a set out as an array of
 * longs, signal s in bit (s-1) % LONG_BIT of word (s-1) / LONG_BIT: on a
 * 32-bit big-endian CPU (m68k, 32-bit SPARC) the two differ in the order
 * of the words, so every set that crosses into the kernel or the libc is
 * converted here.
 */
struct green_kset { unsigned long w[8 / sizeof(long)]; };

static inline struct green_kset green_kset(uint64_t b)
{
	struct green_kset k;
	for (unsigned i = 0; i < sizeof k.w / sizeof k.w[0]; i++)
		k.w[i] = (unsigned long)(b >> (i * 8 * sizeof(long)));
	return k;
}

static inline uint64_t green_kbits(const void *set)
{
	const unsigned long *w = set;
	uint64_t b = 0;
	for (unsigned i = 0; i < 8 / sizeof(long); i++)
		b |= (uint64_t)w[i] << (i * 8 * sizeof(long));
	return b;
}

/* After a switch lands on a thread: deliver what is pending for it. */
static inline void green_sig_check(struct green_thread *self)
{
	if ((self->sigpend | __green_proc_pend) & ~self->sigmask)
		__green_sig_deliver();
}

/*
 * The 64-bit signal sets a handler also changes (deliver.c's `arrived`
 * and __green_sig_held): a plain `|=` or `&=` is a load and a store, and
 * a handler's bit set in between would be lost, so every change is one
 * atomic read-modify-write.  A 32-bit CPU has no 64-bit atomic
 * or/and of its own (it would need libatomic), so there each half that
 * changes gets its own 32-bit one.
 */
static inline void green_bits_or(volatile uint64_t *w, uint64_t b)
{
#if UINTPTR_MAX > 0xffffffffu
	__atomic_fetch_or(w, b, __ATOMIC_RELAXED);
#else
	volatile uint32_t *h = (volatile uint32_t *)w;
	int lo = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	if ((uint32_t)b) __atomic_fetch_or(&h[lo], (uint32_t)b, __ATOMIC_RELAXED);
	if (b >> 32) __atomic_fetch_or(&h[!lo], (uint32_t)(b >> 32), __ATOMIC_RELAXED);
#endif
}

static inline void green_bits_clear(volatile uint64_t *w, uint64_t b)
{
#if UINTPTR_MAX > 0xffffffffu
	__atomic_fetch_and(w, ~b, __ATOMIC_RELAXED);
#else
	volatile uint32_t *h = (volatile uint32_t *)w;
	int lo = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	if ((uint32_t)b) __atomic_fetch_and(&h[lo], ~(uint32_t)b, __ATOMIC_RELAXED);
	if (b >> 32) __atomic_fetch_and(&h[!lo], ~(uint32_t)(b >> 32), __ATOMIC_RELAXED);
#endif
}


#define BIT(s) (1ULL << ((s) - 1))
#define NSIG_V 65                       /* signals 1..64 */
#define UNBLOCKABLE (BIT(SIGKILL) | BIT(SIGSTOP))
#define SYNC_SIGS (BIT(SIGSEGV) | BIT(SIGBUS) | BIT(SIGFPE) | BIT(SIGILL) | BIT(SIGTRAP) | BIT(SIGSYS))
#define DEFAULT_IGNORE (BIT(SIGCHLD) | BIT(SIGURG) | BIT(SIGWINCH) | BIT(SIGCONT))
#define DEFAULT_STOP (BIT(SIGTSTP) | BIT(SIGTTIN) | BIT(SIGTTOU))

/* the virtual state (deliver.c) */
extern hidden struct sigaction __green_sig_disp[NSIG_V];   /* the program's dispositions */
extern hidden uint64_t __green_sig_caught;   /* the kernel runs the catcher for these */
extern hidden uint64_t __green_sigpend_seen; /* made pending since sigaction looked (sigqueue.c) */
extern hidden struct green_sigl __green_proc_q;   /* the instances of __green_proc_pend */
extern hidden int __green_sig_virtual;       /* threads exist: the state is green's */

/* deliver.c, inside GREEN_ENTER unless said */
hidden void __green_sig_catch(int s);            /* make the kernel run the catcher for s */
hidden void __green_sig_catch_set(uint64_t b);
hidden int __green_sig_take(uint64_t b, siginfo_t *si);   /* the caller's lowest pending of b, or 0 */
hidden void __green_sig_hand_over(struct green_thread *t, int s, const siginfo_t *si);   /* to t's sigwait */
hidden void __green_sig_interrupt(struct green_thread *t);   /* end t's wait with EINTR, t first */
hidden void __green_sig_synth(siginfo_t *si, int s, int code);   /* a siginfo from this process */
hidden void __green_sigset(sigset_t *set, uint64_t b);
hidden int __green_sig_sync(int s, siginfo_t *si, void *uc);
hidden void __green_sig_sent(int s, siginfo_t *si, void *uc);   /* separate.c: a SIGSEGV sent by kill */   /* separate.c: the program's SIGSEGV handler */

/* sigcalls.c: the back-ends of the public calls once threads exist
 * (src/members/sigaction.c, pthread_sigmask.c, sigpending.c;
 * src/stubs/sigtimedwait.c, sigsuspend.c) */
hidden int __green_sigaction(int, const struct sigaction *, struct sigaction *);
hidden int __green_sigmask(int, const sigset_t *, sigset_t *);
hidden int __green_sigpending(sigset_t *);
hidden int __green_sigtimedwait(const sigset_t *, siginfo_t *, const struct timespec *);
hidden int __green_sigsuspend(const sigset_t *);
hidden int __green_thread_signal(struct green_thread *, int s, const siginfo_t *);   /* pthread_kill's, and tid.c's */

/* tick.c: the program's interval timers, virtual once threads exist
 * (src/members/getitimer.c, setitimer.c, execve.c) */
struct itimerval;
hidden int __green_itimer_armed(void);
hidden void __green_itimer_virtualise(void);
hidden int __green_getitimer(struct itimerval *);
hidden int __green_setitimer(const struct itimerval *, struct itimerval *);
hidden void __green_itimer_exec(int undo);
#endif
