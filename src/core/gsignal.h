/*
 * gsignal.h — what signal.c (the machinery: state, catcher, dispatch,
 * handlers) and sigcalls.c (the public calls' back-ends) share, and the
 * signal back-ends the stubs call.  Signals are numbered 1..64 and held
 * in 64-bit sets, bit s - 1 for signal s.
 */
#ifndef GREEN_GSIGNAL_H
#define GREEN_GSIGNAL_H
#include <signal.h>
#include "green.h"

#define BIT(s) (1ULL << ((s) - 1))
#define NSIG_V 65                       /* signals 1..64 */
#define UNBLOCKABLE (BIT(SIGKILL) | BIT(SIGSTOP))
#define SYNC_SIGS (BIT(SIGSEGV) | BIT(SIGBUS) | BIT(SIGFPE) | BIT(SIGILL) | BIT(SIGTRAP) | BIT(SIGSYS))
#define DEFAULT_IGNORE (BIT(SIGCHLD) | BIT(SIGURG) | BIT(SIGWINCH) | BIT(SIGCONT))
#define DEFAULT_STOP (BIT(SIGTSTP) | BIT(SIGTTIN) | BIT(SIGTTOU))

/* the virtual state (signal.c) */
extern hidden struct sigaction __green_sig_disp[NSIG_V];   /* the program's dispositions */
extern hidden uint64_t __green_sig_caught;   /* the kernel runs the catcher for these */
extern hidden struct green_sigl __green_proc_q;   /* the instances of __green_proc_pend */
extern hidden int __green_sig_virtual;       /* threads exist: the state is green's */

/* signal.c, inside GREEN_ENTER unless said */
hidden void __green_sig_catch(int s);            /* make the kernel run the catcher for s */
hidden void __green_sig_catch_set(uint64_t b);
hidden int __green_sig_take(uint64_t b, siginfo_t *si);   /* the caller's lowest pending of b, or 0 */
hidden void __green_sig_hand_over(struct green_thread *t, int s, const siginfo_t *si);   /* to t's sigwait */
hidden void __green_sig_interrupt(struct green_thread *t);   /* end t's wait with EINTR, t first */
hidden void __green_sig_synth(siginfo_t *si, int s, int code);   /* a siginfo from this process */
hidden void __green_sigset(sigset_t *set, uint64_t b);
hidden int __green_sig_sync(int s, siginfo_t *si, void *uc);
hidden void __green_sig_sent(int s, siginfo_t *si, void *uc);   /* stack.c: a SIGSEGV sent by kill */   /* stack.c: the program's SIGSEGV handler */

/* sigcalls.c: the back-ends of the public calls once threads exist
 * (src/stubs/sigaction.c, pthread_sigmask.c, sigpending.c,
 * sigtimedwait.c, sigsuspend.c) */
hidden int __green_sigaction(int, const struct sigaction *, struct sigaction *);
hidden int __green_sigmask(int, const sigset_t *, sigset_t *);
hidden int __green_sigpending(sigset_t *);
hidden int __green_sigtimedwait(const sigset_t *, siginfo_t *, const struct timespec *);
hidden int __green_sigsuspend(const sigset_t *);

/* tick.c: the program's interval timers, virtual once threads exist
 * (src/stubs/getitimer.c, setitimer.c, execve.c) */
struct itimerval;
hidden int __green_itimer_armed(void);
hidden void __green_itimer_virtualise(void);
hidden int __green_getitimer(struct itimerval *);
hidden int __green_setitimer(const struct itimerval *, struct itimerval *);
hidden void __green_itimer_exec(int undo);
#endif
