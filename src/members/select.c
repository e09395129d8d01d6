/*
 * select — musl's, with the probe in line once threads exist, as poll's
 * and epoll_wait's (poll_wait.c, epoll_wait.c).  A select loop asks
 * because it expects a descriptor to be ready, and musl's way, through
 * __syscall_cp, the engine's dispatch and sets.c, cost 312 instructions
 * for that (glibc's select 152).  The engine's first step, a
 * zero-timeout pselect6, is made here; since it overwrites the sets, the
 * words of the three that name descriptors below n are kept on the stack
 * first.  Something ready, or a timeout of 0, is the answer (the kernel
 * cleared the sets of a select that found nothing, as it does for any).
 * Nothing ready with a timeout: the sets are put back and the engine
 * waits without a second probe (__sysio_select_empty), so a select that
 * blocks makes the system calls it made before.
 *
 * No threads yet, a posix_spawn child, a cancel pending, more than
 * FD_SETSIZE descriptors, a negative timeout and any error of the probe
 * take the general way: musl's rules for the timeout (a negative part is
 * EINVAL; microseconds of a second or more are carried into the seconds,
 * the sum held below time_t's end) and pselect6 through __syscall_cp,
 * which the engine meets as before (EINTR: it probes again; EFAULT: it
 * calls again once a parked copied thread's stack is loaded).  The
 * program's timeval is never written: the kernel gets a copy.
 */
#include <sys/select.h>
#include <signal.h>
#include <errno.h>
#include <time.h>
#include "fastio.h"

#define WORD_BITS (8 * sizeof(unsigned long))
#define SET_WORDS (FD_SETSIZE / WORD_BITS)

/* tv as a timespec, by musl's rules (tv's parts not negative) */
static struct timespec ts_of(const struct timeval *tv)
{
	const time_t max = (time_t)((1ULL << (8 * sizeof(time_t) - 1)) - 1);
	time_t s = tv->tv_sec;
	suseconds_t us = tv->tv_usec;

	if (us / 1000000 > max - s) return (struct timespec){ .tv_sec = max, .tv_nsec = 999999999 };
	return (struct timespec){ .tv_sec = s + us / 1000000, .tv_nsec = us % 1000000 * 1000 };
}

static __attribute__((noinline)) int general(int n, fd_set *r, fd_set *w, fd_set *e, struct timeval *tv)
{
	struct timespec ts;
	long k;

	if (tv) {
		if (tv->tv_sec < 0 || tv->tv_usec < 0) return __syscall_ret(-EINVAL);
		ts = ts_of(tv);
	}
#ifdef SYS_pselect6_time64
	/* a 32-bit CPU: the call with 64-bit time; where the kernel has
	 * none, the old one, the seconds held to a long */
	k = __syscall_cp(SYS_pselect6_time64, n, r, w, e, tv ? ((long long[]){ ts.tv_sec, ts.tv_nsec }) : 0, 0);
	if (k != -ENOSYS || SYS_pselect6 == SYS_pselect6_time64) return __syscall_ret(k);
	if (tv && ts.tv_sec != (long)ts.tv_sec) ts.tv_sec = 0x7fffffff;
	k = __syscall_cp(SYS_pselect6, n, r, w, e, tv ? ((long[]){ ts.tv_sec, ts.tv_nsec }) : 0, 0);
#else
	k = __syscall_cp(SYS_pselect6, n, r, w, e, tv ? &ts : 0, 0);
#endif
	return __syscall_ret(k);
}

/* The first words of a set (an fd_set is an array of longs), kept
 * before the probe and put back after it */
static inline void keep(unsigned long *to, const fd_set *s, size_t words)
{
	for (size_t i = 0; i < words; i++) to[i] = ((const unsigned long *)s)[i];
}

static inline void put_back(fd_set *s, const unsigned long *from, size_t words)
{
	for (size_t i = 0; i < words; i++) ((unsigned long *)s)[i] = from[i];
}

/* The probe's answer k was nothing (0) or an error, with a timeout
 * other than 0 for nothing: the sets put back, then the engine's wait
 * and its probes (sets.c), or, for an error, the general way */
static __attribute__((noinline)) int after(int n, fd_set *s[3], struct timeval *tv,
                                           unsigned long kept[3][SET_WORDS], long k)
{
	size_t words = ((size_t)n + WORD_BITS - 1) / WORD_BITS;
	struct timespec ts;

	for (int i = 0; i < 3; i++)
		if (s[i]) put_back(s[i], kept[i], words);
	if (k) return general(n, s[0], s[1], s[2], tv);
	if (tv) ts = ts_of(tv);
	k = __sysio_select_empty(n, (long *[3]){ (long *)s[0], (long *)s[1], (long *)s[2] }, tv ? &ts : 0, 1);
	if (k == -EFAULT) return general(n, s[0], s[1], s[2], tv);
	return __syscall_ret(k);
}

int select(int n, fd_set *restrict r, fd_set *restrict w, fd_set *restrict e, struct timeval *restrict tv)
{
	unsigned long kept[3][SET_WORDS];
	/* writable: pselect6 writes the time left back (sets.c) */
	struct timespec zero = { 0 };
	size_t words;
	long k;

	if (!green_fast_caller() || (unsigned)n > FD_SETSIZE || (tv && (tv->tv_sec < 0 || tv->tv_usec < 0)))
		return general(n, r, w, e, tv);
	words = ((size_t)n + WORD_BITS - 1) / WORD_BITS;
	if (r) keep(kept[0], r, words);
	if (w) keep(kept[1], w, words);
	if (e) keep(kept[2], e, words);
	k = __syscall(SYS_pselect6, n, r, w, e, &zero, 0);
	if (k > 0 || (!k && tv && !tv->tv_sec && !tv->tv_usec)) return k;
	return after(n, (fd_set *[3]){ r, w, e }, tv, kept, k);
}
