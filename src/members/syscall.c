/*
 * syscall.c — syscall(): the kernel call named by its number, with six
 * arguments taken whatever the call needs.
 *
 * Once threads exist, green answers what the kernel would answer for
 * the calling thread, as the libc's own functions do (docs/kernel.md):
 *
 *   futex, futex_waitv      on green's address waits (core/sync/kfutex.c)
 *   a blocking call         through the engine of the libc's own calls
 *                           (src/sysio/: read, write, recv*, send*,
 *                           accept4, poll, epoll_wait, the sleeps, wait4,
 *                           ...), which parks only the caller
 *   sigtimedwait, sigsuspend, pause, sigprocmask   green's per-thread
 *                           signal calls, with the kernel's sigset size
 *   gettid, tgkill, tkill, rt_tgsigqueueinfo, the sched_* calls that
 *                           name a thread   by the green thread's own id
 *                           (core/thread/tid.c)
 *   anything else           the kernel
 *
 * Before then, and in posix_spawn's vfork child, every call goes to the
 * kernel.  Either way, when a call closed or replaced a descriptor number
 * behind libc's back — close, close_range (musl 1.2.3 has no function
 * for it), dup2 and dup3, and mq_close, which closes through here — what
 * green knew of that number is forgotten; when it changed a descriptor's
 * flags (fcntl F_SETFL, ioctl FIONBIO), green asks again whether
 * descriptors are non-blocking (src/sysio/fdkind.c), and a listening
 * socket's O_NONBLOCK is the program's from then on (src/sysio/listener.c).
 * A pipe or socket pair made here has its ends recorded as each other's
 * peer (src/sysio/peer.c), as pipe(), pipe2() and socketpair() do.
 */
#include <unistd.h>
#include <stdarg.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include "base/gthread.h"
#include "sync/addrwait.h"
#include "thread/lifecycle.h"
#include "fdwait.h"
#include "peer.h"
#include "../stubs/green-sys.h"

#undef syscall
#ifndef SYS_futex_waitv
#define SYS_futex_waitv 449      /* the same on every CPU */
#endif
#ifndef SYS_futex
#define SYS_futex SYS_futex_time64
#endif

static void renumbered(long n, long a, long b)
{
	switch (n) {
	case SYS_close: __green_fd_forget(a, a); break;
#ifdef SYS_close_range
	case SYS_close_range: __green_fd_forget(a, b); break;
#endif
#ifdef SYS_dup2
	case SYS_dup2:
#endif
	case SYS_dup3: if (a != b) __green_fd_forget(b, b); break;
	case SYS_fcntl: if (b == F_SETFL) __green_listener_flags_set(a, 0); break;
	case SYS_ioctl: if (b == FIONBIO) __green_listener_flags_set(a, 0); break;
	}
}

/* a pipe or socket pair made: its ends are each other's peer (peer.c) */
static void paired(long n, const long *arg)
{
	int *p = 0;

	switch (n) {
#ifdef SYS_pipe
	case SYS_pipe:
#endif
	case SYS_pipe2: p = (int *)arg[0]; break;
#ifdef SYS_socketpair
	case SYS_socketpair: p = (int *)arg[3]; break;
#endif
	}
	if (p) __green_fd_pair(p[0], p[1]);
}

/* a libc function's -1 and errno as the kernel's -errno */
static long kret(long r)
{
	return r == -1 ? -errno : r;
}

/* the kernel's signal set (size bytes) as a sigset_t */
static const sigset_t *kset(long p, long size, sigset_t *buf)
{
	if (!p) return 0;
	sigemptyset(buf);
	memcpy(buf, (const void *)p, size);
	return buf;
}

/* the signal calls, whose sets are the kernel's size (_NSIG / 8 bytes) */
static long signal_call(long n, const long *a)
{
	long size = n == SYS_rt_sigsuspend ? a[1] : a[3];
	sigset_t set, old;
	long r;

	if (size != _NSIG / 8) return -EINVAL;
	switch (n) {
	case SYS_rt_sigsuspend:
		return kret(sigsuspend(kset(a[0], size, &set)));
	case SYS_rt_sigprocmask:
		if ((r = pthread_sigmask(a[0], kset(a[1], size, &set), a[2] ? &old : 0))) return -r;
		if (a[2]) memcpy((void *)a[2], &old, size);
		return 0;
	}
	/* rt_sigtimedwait: two longs for a timeout on a 32-bit CPU whose
	 * time_t outgrew long, a struct timespec for rt_sigtimedwait_time64 */
	struct timespec ts;
	const struct timespec *t = n == SYS_rt_sigtimedwait ? legacy_ts(a[2], &ts) : (const void *)a[2];
	return kret(sigtimedwait(kset(a[0], size, &set), (siginfo_t *)a[1], t));
}

/* the sched_* calls that name a thread by its id */
static long sched_call(long n, long *a)
{
	switch (n) {
	case SYS_sched_setscheduler: return kret(sched_setscheduler(a[0], a[1], (void *)a[2]));
	case SYS_sched_setparam: return kret(sched_setparam(a[0], (void *)a[1]));
	case SYS_sched_getscheduler: return kret(sched_getscheduler(a[0]));
	case SYS_sched_getparam: return kret(sched_getparam(a[0], (void *)a[1]));
	}
	/* affinity, the round-robin interval: the one kernel thread's */
	if ((a[0] = __green_tid_kernel(a[0])) < 0) return a[0];
	return __syscall(n, a[0], a[1], a[2], a[3], a[4], a[5]);
}

static long green_call(long n, long *a)
{
	switch (n) {
#if defined(SYS_futex_time64) && SYS_futex_time64 != SYS_futex
	case SYS_futex_time64:
		return __green_futex_call((void *)a[0], a[1], a[2], (void *)a[3], (void *)a[4], a[5], 0);
#endif
	case SYS_futex_waitv:
		return __green_futex_waitv((void *)a[0], a[1], a[2], (void *)a[3], a[4]);
	case SYS_gettid: return gettid();
	case SYS_tkill: return __green_tid_signal(-1, a[0], a[1], 0);
	case SYS_tgkill: return __green_tid_signal(a[0], a[1], a[2], 0);
	case SYS_rt_tgsigqueueinfo: return __green_tid_signal(a[0], a[1], a[2], (void *)a[3]);
	case SYS_sched_setscheduler: case SYS_sched_setparam:
	case SYS_sched_getscheduler: case SYS_sched_getparam:
	case SYS_sched_setaffinity: case SYS_sched_getaffinity:
#ifdef SYS_sched_rr_get_interval
	case SYS_sched_rr_get_interval:
#endif
#if defined(SYS_sched_rr_get_interval_time64) && SYS_sched_rr_get_interval_time64 != SYS_sched_rr_get_interval
	case SYS_sched_rr_get_interval_time64:
#endif
		return sched_call(n, a);
	case SYS_sched_yield: return sched_yield();
#ifdef SYS_pause
	case SYS_pause: return kret(pause());
#endif
	case SYS_rt_sigsuspend: case SYS_rt_sigprocmask:
	case SYS_rt_sigtimedwait:
#if defined(SYS_rt_sigtimedwait_time64) && SYS_rt_sigtimedwait_time64 != SYS_rt_sigtimedwait
	case SYS_rt_sigtimedwait_time64:
#endif
		return signal_call(n, a);
	}
	return green_sys_loaded(n, a, 0);
}

long syscall(long n, ...)
{
	syscall_arg_t arg[6];
	va_list ap;
	long r;

	va_start(ap, n);
	arg[0] = va_arg(ap, syscall_arg_t);
	arg[1] = va_arg(ap, syscall_arg_t);
	arg[2] = va_arg(ap, syscall_arg_t);
	arg[3] = va_arg(ap, syscall_arg_t);
	arg[4] = va_arg(ap, syscall_arg_t);
	arg[5] = va_arg(ap, syscall_arg_t);
	va_end(ap);

	if (!green_active() || green_vfork_child())
		r = __syscall(n, arg[0], arg[1], arg[2], arg[3], arg[4], arg[5]);
	else if (n == SYS_futex)   /* the most frequent by far: first */
		return __syscall_ret(__green_futex_call((void *)arg[0], arg[1], arg[2], (void *)arg[3],
		                                        (void *)arg[4], arg[5], 1));
	else
		r = green_call(n, (long *)arg);
	renumbered(n, arg[0], arg[1]);
	if (!r && !green_vfork_child()) paired(n, arg);
	return __syscall_ret(r);
}
