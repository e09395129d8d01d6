/*
 * kfutex.c — the kernel's futex calls made by a program itself
 * (syscall(SYS_futex, ...), syscall(SYS_futex_waitv, ...)), answered
 * on green's address waits.
 *
 * Libraries with synchronisation of their own (Abseil, folly, oneTBB,
 * LLVM's OpenMP runtime, Rust's standard library) wait on words of
 * their own memory with FUTEX_WAIT and wake with FUTEX_WAKE.  Made as
 * system calls, such a wait would stop the one kernel thread, and with
 * it the thread that would wake it.  So green answers them itself,
 * as the kernel would, from the flag that says who may share the word:
 *
 *   private (FUTEX_PRIVATE_FLAG, FUTEX2_PRIVATE)   only threads of this
 *       process use the word, and they are all green threads: a waiter
 *       parks on the address wait (futex.c), as musl's own locks do,
 *       and a wake is green's.  No system call at all.
 *   shared (without the flag)   the word may be in memory another
 *       process maps: a waiter parks on the process-shared waits
 *       (pshared.c), which the idle scheduler watches with futex_waitv
 *       and re-checks every 1, 2, then 4 ms while the process is busy;
 *       a wake wakes this process's waiters greenly, and asks the kernel
 *       to wake as many more as it still may.  A re-check returns 0, a
 *       wake-up the caller's loop must absorb: futex(2) says every
 *       caller must, since a 0 can come from the futex's previous user.
 *
 * A wake by either kind finds the waiters of both here, as the kernel
 * would for a word in private memory.  What the kernel answers, green
 * answers: EAGAIN when the word is not the value (checked in the same
 * no-preempt section as the park), ETIMEDOUT, EINTR after a handler
 * (a wait without a timeout starts again after an SA_RESTART one, as
 * the kernel restarts it), EINVAL for a misaligned word, a bad timeout
 * or an empty bitset, ENOSYS for an unknown operation.
 *
 * Not green, answered as a kernel without them: the priority-inheritance
 * operations (FUTEX_LOCK_PI, LOCK_PI2, TRYLOCK_PI, UNLOCK_PI,
 * WAIT_REQUEUE_PI, CMP_REQUEUE_PI) fail with ENOSYS, as on kernels built
 * without PI futexes: their word names its owner by kernel thread id,
 * which a green thread does not have, and the kernel would lend a
 * priority to the one kernel thread, not to the green owner.  What the
 * kernel would report as EFAULT (an unmapped word) faults here.
 */
#include <errno.h>
#include <limits.h>
#include <time.h>
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "stack/gstack.h"
#include "sync/addrwait.h"

/* linux/futex.h: the kernel's numbers, the same on every CPU */
enum {
	KF_WAIT = 0, KF_WAKE = 1, KF_REQUEUE = 3, KF_CMP_REQUEUE = 4, KF_WAKE_OP = 5,
	KF_WAIT_BITSET = 9, KF_WAKE_BITSET = 10,
};
#define KF_PRIVATE 128
#define KF_CLOCK_REALTIME 256
#define KF_CMD(op) ((op) & ~(KF_PRIVATE | KF_CLOCK_REALTIME))
#define KF2_SIZE_U32 2           /* futex_waitv's flags per word */
#define KF2_SIZE_MASK 3
#define KF2_PRIVATE 128
#define KF_WAITV_MAX 128
#ifndef SYS_futex
#define SYS_futex SYS_futex_time64
#endif

typedef volatile uint32_t kword;

/* A timeout as the kernel takes it: two 64-bit words (struct
 * __kernel_timespec: SYS_futex on 64-bit CPUs, SYS_futex_time64), or
 * two longs for SYS_futex on a 32-bit CPU (legacy) */
static int get_ts(const void *p, int legacy, struct timespec *ts)
{
	int64_t sec, nsec;

	if (legacy) {
		sec = ((const long *)p)[0];
		nsec = ((const long *)p)[1];
	} else {
		sec = ((const int64_t *)p)[0];
		nsec = ((const int64_t *)p)[1];
	}
	if (sec < 0 || nsec < 0 || nsec >= 1000000000 || sec != (time_t)sec) return -EINVAL;
	ts->tv_sec = sec;
	ts->tv_nsec = nsec;
	return 0;
}

/* ---- waits */

static int private_wait(kword *w, uint32_t val, uint64_t deadline, unsigned bits)
{
	struct green_thread *self = __green_cur;
	int r = EAGAIN;

	GREEN_ENTER();
	if (*w == val) {
		if (bits == ~0u) {   /* any wake: as the descriptor's 0 says */
			r = __green_futex_wait(w, (int)val, deadline, GW_FUTEX);
		} else {
			unsigned was = self->wbits;   /* (a handler's own wait, inside ours) */
			self->wbits = bits;
			r = __green_futex_wait(w, (int)val, deadline, GW_FUTEX);
			self->wbits = was;
		}
	}
	GREEN_LEAVE();
	return r;
}

static int shared_wait(kword *w, uint32_t val, uint64_t deadline, unsigned bits)
{
	struct green_thread *self = __green_cur;
	unsigned step = 0, was = self->wbits;   /* (a handler's own wait, inside ours) */
	int r;

	if (*w != val) return EAGAIN;
	self->wbits = bits == ~0u ? 0 : bits;
	r = __green_pshared_wait((volatile int *)w, (int)val, deadline, GW_FUTEX, (const void *)w, &step);
	self->wbits = was;
	return r;
}

/* Wait while *w == val: 0 woken, or -EAGAIN, -ETIMEDOUT, -EINTR. */
static long wait_word(kword *w, uint32_t val, uint64_t deadline, unsigned bits, int priv)
{
	for (;;) {
		int r = priv ? private_wait(w, val, deadline, bits) : shared_wait(w, val, deadline, bits);
		/* no timeout: the kernel restarts the wait after an SA_RESTART
		 * handler (ERESTARTSYS); with one it answers EINTR */
		if (r == EINTR && deadline == GREEN_NO_DEADLINE && __green_cur->intr_restart) continue;
		return -r;
	}
}

/* ---- wakes */

/* Wake up to n of this process's waiters on w whose bits match, after k
 * of the address wait's: how many in all. */
static long more_local(kword *w, long n, unsigned bits, long k)
{
	if (k < n) k += __green_pshared_wake_bits(w, n - k, bits);
	if (k < n) k += __green_futex_waitv_wake(w, n - k);
	return k;
}

static long local_wake(kword *w, long n, unsigned bits)
{
	return more_local(w, n, bits, __green_futex_wake_bits(w, n, bits));
}

/* The kernel's futex call on a shared word, for the waiters of other
 * processes: how many it woke or moved.  A word on a parked copied-stack
 * thread's stack is unmapped: loaded, and the call made again (copied.c). */
static long kernel_call(kword *w, int op, long n, long n2, kword *w2, uint32_t v3)
{
	long a[2] = { (long)w, (long)w2 }, r;

	while ((r = __syscall(SYS_futex, w, op, n, n2, w2, v3)) == -EFAULT && __green_copied_touch(a, 2))
		;
	return r > 0 ? r : 0;
}

/* Wake up to n waiters on w whose bits match, this process's first; for
 * a shared word the kernel wakes what may wait in other processes.  The
 * kernel wakes one when n is 0 or less, and so does this. */
static long wake_word(kword *w, int n, unsigned bits, int priv)
{
	long k;

	if (n < 1) n = 1;
	k = local_wake(w, n, bits);
	if (k < n && !priv) k += kernel_call(w, KF_WAKE_BITSET, n - k, 0, 0, bits);
	return k;
}

/* FUTEX_REQUEUE, FUTEX_CMP_REQUEUE (cmp): up to nwake woken, up to nmove
 * more moved to wait on w2; how many in all. */
static long requeue(kword *w, kword *w2, int nwake, int nmove, const uint32_t *cmp, int priv)
{
	long k, all = (long)nwake + nmove;

	if (nwake < 0 || nmove < 0) return -EINVAL;
	GREEN_ENTER();
	if (cmp && *w != *cmp) {
		GREEN_LEAVE();
		return -EAGAIN;
	}
	k = __green_futex_requeue(w, w2, nwake, nmove);
	GREEN_LEAVE();
	/* a shared waiter cannot move (the idle futex_waitv knows it by its
	 * word and value), nor can a futex_waitv: woken instead, they look
	 * again */
	if (k < all) k += local_wake(w, all - k, ~0u);
	if (k < all && !priv)
		k += kernel_call(w, cmp ? KF_CMP_REQUEUE : KF_REQUEUE, k < nwake ? nwake - k : 0,
		                 k < nwake ? nmove : all - k, w2, cmp ? *cmp : 0);
	return k;
}

/* FUTEX_WAKE_OP's operation on *w2, which returns the old value: made
 * atomically against other processes when the word may be shared */
static int wake_op_apply(kword *w2, unsigned op, uint32_t arg, int priv, uint32_t *old)
{
	if (op > 4) return -ENOSYS;
	if (priv) {
		GREEN_ENTER();
		*old = *w2;
		switch (op) {
		case 0: *w2 = arg; break;
		case 1: *w2 = *old + arg; break;
		case 2: *w2 = *old | arg; break;
		case 3: *w2 = *old & ~arg; break;
		case 4: *w2 = *old ^ arg; break;
		}
		GREEN_LEAVE();
		return 0;
	}
	switch (op) {
	case 0: *old = __atomic_exchange_n(w2, arg, __ATOMIC_SEQ_CST); break;
	case 1: *old = __atomic_fetch_add(w2, arg, __ATOMIC_SEQ_CST); break;
	case 2: *old = __atomic_fetch_or(w2, arg, __ATOMIC_SEQ_CST); break;
	case 3: *old = __atomic_fetch_and(w2, ~arg, __ATOMIC_SEQ_CST); break;
	case 4: *old = __atomic_fetch_xor(w2, arg, __ATOMIC_SEQ_CST); break;
	}
	return 0;
}

/* FUTEX_WAKE_OP: *w2 changed by the operation of `code`; up to n woken on
 * w, and up to n2 on w2 if the old value of *w2 passed the comparison. */
static long wake_op(kword *w, int n, kword *w2, int n2, uint32_t code, int priv)
{
	unsigned op = code >> 28 & 7, cmp = code >> 24 & 15;
	int arg = (int)(code << 8) >> 20, carg = (int)(code << 20) >> 20, hit, r;
	uint32_t old;
	long k;

	if (code >> 31) arg = (int)(1u << (arg & 31));   /* FUTEX_OP_OPARG_SHIFT */
	if ((r = wake_op_apply(w2, op, (uint32_t)arg, priv, &old))) return r;
	switch (cmp) {
	case 0: hit = (int)old == carg; break;
	case 1: hit = (int)old != carg; break;
	case 2: hit = (int)old < carg; break;
	case 3: hit = (int)old <= carg; break;
	case 4: hit = (int)old > carg; break;
	case 5: hit = (int)old >= carg; break;
	default: return -ENOSYS;   /* as the kernel: after the operation */
	}
	k = wake_word(w, n, ~0u, priv);
	if (hit) k += wake_word(w2, n2, ~0u, priv);
	return k;
}

/* Every operation but the common two (below), and every flag and
 * argument the kernel checks. */
static __attribute__((noinline)) long futex_op(kword *w, int op, uint32_t val, const void *timeout,
                                               kword *w2, uint32_t val3, int legacy)
{
	int cmd = KF_CMD(op), priv = op & KF_PRIVATE, err = 0;
	uint64_t deadline = GREEN_NO_DEADLINE;
	struct timespec ts;

	if ((op & KF_CLOCK_REALTIME) && cmd != KF_WAIT_BITSET) return -ENOSYS;   /* as Linux 6 */
	if ((uintptr_t)w % 4) return -EINVAL;
	switch (cmd) {
	case KF_WAIT:
	case KF_WAIT_BITSET:
		if (cmd == KF_WAIT) val3 = ~0u;
		if (!val3) return -EINVAL;
		if (timeout && (err = get_ts(timeout, legacy, &ts))) return err;
		if (timeout && cmd == KF_WAIT) deadline = __green_deadline_rel(&ts);   /* relative */
		else if (timeout) deadline = __green_deadline(op & KF_CLOCK_REALTIME ? CLOCK_REALTIME : CLOCK_MONOTONIC,
		                                               &ts, &err);
		if (err) return -err;
		return wait_word(w, val, deadline, val3, priv);
	case KF_WAKE:
		return wake_word(w, (int)val, ~0u, priv);
	case KF_WAKE_BITSET:
		if (!val3) return -EINVAL;
		return wake_word(w, (int)val, val3, priv);
	case KF_REQUEUE:
	case KF_CMP_REQUEUE:
		if ((uintptr_t)w2 % 4) return -EINVAL;
		return requeue(w, w2, (int)val, (int)(intptr_t)timeout, cmd == KF_CMP_REQUEUE ? &val3 : 0, priv);
	case KF_WAKE_OP:
		if ((uintptr_t)w2 % 4) return -EINVAL;
		return wake_op(w, (int)val, w2, (int)(intptr_t)timeout, val3, priv);
	}
	return -ENOSYS;   /* the PI operations (above), and what the kernel does not know */
}

/*
 * syscall(SYS_futex, uaddr, op, val, timeout or val2, uaddr2, val3), and
 * SYS_futex_time64 on 32-bit CPUs (legacy 0): the kernel's result, or
 * -errno.  A private FUTEX_WAIT without a timeout and a private
 * FUTEX_WAKE of an aligned word, which are most of all calls, go
 * straight to the address wait.
 */
hidden long __green_futex_call(volatile void *uaddr, int op, uint32_t val, const void *timeout,
                               volatile void *uaddr2, uint32_t val3, int legacy)
{
	kword *w = uaddr;

	if (!((uintptr_t)w % 4)) {
		if (op == (KF_WAKE | KF_PRIVATE)) {
			long n = (int)val > 0 ? (int)val : 1;   /* the kernel wakes one for 0 */
			long k = __green_futex_wake_bits(w, n, ~0u);
			return k < n ? more_local(w, n, ~0u, k) : k;
		}
		if (op == (KF_WAIT | KF_PRIVATE) && !timeout) return wait_word(w, val, GREEN_NO_DEADLINE, ~0u, 1);
	}
	return futex_op(w, op, val, timeout, uaddr2, val3, legacy);
}

/* ---- futex_waitv: one thread waits on up to 128 words at once
 *
 * The waiter's words are copied into a record on its own stack, which
 * the thread's descriptor points at (wait_aux) while it waits on
 * waitv_q; a wake of any of its words (wake_word, above) writes which
 * one into the record.  A shared word's wake from another process is
 * noticed by a re-check (1, 2, then 4 ms): one whose value changed ends
 * the wait as a wake of it would. */

struct kf_waitv {                /* struct futex_waitv */
	uint64_t val, uaddr;
	uint32_t flags, reserved;
};

struct kf_multi {
	unsigned n;
	int hit;                         /* the word woken, -1 until then */
	int shared;                      /* some word is not private */
	struct { kword *w; uint32_t val; } e[KF_WAITV_MAX];
};

static struct gq waitv_q;        /* threads in futex_waitv */

hidden void __green_futex_waitv_reset(void)
{
	waitv_q.head = waitv_q.tail = 0;
}

static int multi_changed(const struct kf_multi *m)
{
	for (unsigned i = 0; i < m->n; i++)
		if (*m->e[i].w != m->e[i].val) return i;
	return -1;
}

/* Wake up to n threads in futex_waitv on w: how many. */
hidden int __green_futex_waitv_wake(const volatile void *w, int n)
{
	struct green_thread *t, *next;
	int k = 0;

	if (gq_empty(&waitv_q)) return 0;
	GREEN_ENTER();
	for (t = waitv_q.head; t && k < n; t = next) {
		struct kf_multi *m = t->wait_aux;
		next = t->q_next;
		for (unsigned i = 0; i < m->n; i++) {
			if (m->e[i].w != w) continue;
			m->hit = i;
			__green_wake(t, 0);
			k++;
			break;
		}
	}
	GREEN_LEAVE();
	return k;
}

static long multi_wait(struct kf_multi *m, uint64_t deadline)
{
	struct green_thread *self = __green_cur;
	unsigned step = 0;
	int r, i;

	for (;;) {
		uint64_t at = m->shared ? __green_retry_at(&step, deadline) : deadline;
		GREEN_ENTER();
		if ((i = multi_changed(m)) >= 0) {
			GREEN_LEAVE();
			return -EAGAIN;
		}
		m->hit = -1;
		self->wait_aux = m;
		r = __green_wait(&waitv_q, GW_FUTEX, (const void *)m->e[0].w, at);
		self->wait_aux = 0;
		GREEN_LEAVE();
		if (!r && m->hit >= 0) return m->hit;
		if (r == ETIMEDOUT && at < deadline) {
			if ((i = multi_changed(m)) >= 0) return i;   /* woken from outside */
			continue;
		}
		/* the kernel restarts futex_waitv after an SA_RESTART handler */
		if (r == EINTR && self->intr_restart) continue;
		return -r;
	}
}

/* syscall(SYS_futex_waitv, waiters, n, flags, timeout, clockid) */
hidden long __green_futex_waitv(const void *waiters, unsigned n, unsigned flags,
                                const void *timeout, long clk)
{
	const struct kf_waitv *v = waiters;
	uint64_t deadline = GREEN_NO_DEADLINE;
	struct kf_multi m;
	struct timespec ts;
	int err = 0;

	if (flags || !v || !n || n > KF_WAITV_MAX) return -EINVAL;
	if (timeout) {
		const int64_t *k = timeout;   /* struct __kernel_timespec */
		if (clk != CLOCK_MONOTONIC && clk != CLOCK_REALTIME) return -EINVAL;
		if (k[0] < 0 || (uint64_t)k[1] >= 1000000000u || k[0] != (time_t)k[0]) return -EINVAL;
		ts.tv_sec = k[0];
		ts.tv_nsec = k[1];
		deadline = __green_deadline(clk, &ts, &err);
		if (err) return -err;
	}
	m.n = n;
	m.shared = 0;
	for (unsigned i = 0; i < n; i++) {
		if ((v[i].flags & ~(KF2_SIZE_MASK | KF2_PRIVATE)) || v[i].reserved ||
		    (v[i].flags & KF2_SIZE_MASK) != KF2_SIZE_U32 || v[i].val > UINT32_MAX ||
		    v[i].uaddr % 4 || v[i].uaddr != (uintptr_t)v[i].uaddr)
			return -EINVAL;
		m.e[i].w = (kword *)(uintptr_t)v[i].uaddr;
		m.e[i].val = v[i].val;
		if (!(v[i].flags & KF2_PRIVATE)) m.shared = 1;
	}
	return multi_wait(&m, deadline);
}
