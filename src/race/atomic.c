/*
 * atomic.c — the atomic operations of instrumented code (C11 <stdatomic.h>,
 * C++ std::atomic, gcc's __atomic and __sync builtins), which gcc turns
 * into calls __tsan_atomicN_OP(addr, ..., order) (docs/race.md).
 *
 * Each one is done here, inside the detector's no-preempt section, and
 * recorded as an atomic access (two atomic accesses never race; an atomic
 * and a plain one do).  Memory orders give edges through the variable's
 * clock:
 *
 *   acquire (consume, acquire, acq_rel, seq_cst loads and the load half
 *   of read-modify-writes) joins the variable's clock into the thread's;
 *   release (release, acq_rel, seq_cst stores and store halves) joins the
 *   thread's into the variable's.
 *
 * Approximations, each of which can hide a race but never invent one: a
 * release store joins rather than replaces the variable's clock, so a
 * relaxed store by another thread does not end the release sequence;
 * seq_cst is acquire plus release (no single total order is modelled).
 * Fences: a release fence makes the thread's later relaxed stores and
 * read-modify-writes release the clock it had at the fence; an acquire
 * fence acquires what the thread's relaxed loads since its last acquire
 * fence read.  atomic_signal_fence orders nothing between threads.
 *
 * The operation itself is a real atomic instruction for 1 to 8 bytes (the
 * variable may be shared with another process); a 16-byte one is a plain
 * load and store, atomic against green's other threads because nothing
 * switches inside the section, but not against another process.
 */
#include <string.h>
#include "race.h"

#define MO(mo) ((mo) & 7)
#define IS_ACQ(mo) (MO(mo) == 1 || MO(mo) == 2 || MO(mo) == 4 || MO(mo) == 5)
#define IS_REL(mo) (MO(mo) == 3 || MO(mo) == 4 || MO(mo) == 5)

/* The edges and the record of one operation: rd/wr say which halves it
 * has; mo is the order of the halves that happened. */
static void event(const volatile void *a, unsigned size, int rd, int wr, int mo, const void *ret)
{
	struct race_thread *me = race_self();
	struct race_sync *s;
	__race_access(me, (uintptr_t)a, size, wr, 1, RACE_NODE_LAZY, __race_pc(ret));
	if (rd && (s = __race_sync((const void *)a, 0)))
		__race_vc_join(IS_ACQ(mo) ? &me->vc : &me->acq_pending, &s->vc);
	if (wr && IS_REL(mo)) {
		__race_vc_join(&__race_sync((const void *)a, 1)->vc, &me->vc);
		__race_tick(me);
	} else if (wr && me->fenced) {
		__race_vc_join(&__race_sync((const void *)a, 1)->vc, &me->rel_fence);
	}
}

void __tsan_atomic_thread_fence(int mo)
{
	struct race_thread *me;
	race_enter();
	me = race_self();
	if (IS_ACQ(mo)) {
		__race_vc_join(&me->vc, &me->acq_pending);
		me->acq_pending.n = 0;
	}
	if (IS_REL(mo)) {
		__race_vc_copy(&me->rel_fence, &me->vc);
		me->fenced = 1;
		__race_tick(me);
	}
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	race_leave();
}

void __tsan_atomic_signal_fence(int mo)
{
	(void)mo;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

#define RET __builtin_return_address(0)

/* Real atomics for 1..8 bytes. */
#define DEFINE_ATOMICS(N, T) \
T __tsan_atomic##N##_load(const volatile T *a, int mo) \
{ \
	T v; \
	race_enter(); \
	v = __atomic_load_n(a, __ATOMIC_SEQ_CST); \
	event(a, sizeof(T), 1, 0, mo, RET); \
	race_leave(); \
	return v; \
} \
void __tsan_atomic##N##_store(volatile T *a, T v, int mo) \
{ \
	race_enter(); \
	event(a, sizeof(T), 0, 1, mo, RET); \
	__atomic_store_n(a, v, __ATOMIC_SEQ_CST); \
	race_leave(); \
} \
DEFINE_RMW(N, T, exchange, __atomic_exchange_n) \
DEFINE_RMW(N, T, fetch_add, __atomic_fetch_add) \
DEFINE_RMW(N, T, fetch_sub, __atomic_fetch_sub) \
DEFINE_RMW(N, T, fetch_and, __atomic_fetch_and) \
DEFINE_RMW(N, T, fetch_or, __atomic_fetch_or) \
DEFINE_RMW(N, T, fetch_xor, __atomic_fetch_xor) \
DEFINE_RMW(N, T, fetch_nand, __atomic_fetch_nand) \
static int cas##N(volatile T *a, T *c, T v, int mo, int fmo, const void *ret) \
{ \
	int ok; \
	race_enter(); \
	ok = __atomic_compare_exchange_n(a, c, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
	event(a, sizeof(T), 1, ok, ok ? mo : fmo, ret); \
	race_leave(); \
	return ok; \
} \
int __tsan_atomic##N##_compare_exchange_strong(volatile T *a, T *c, T v, int mo, int fmo) \
{ \
	return cas##N(a, c, v, mo, fmo, RET); \
} \
int __tsan_atomic##N##_compare_exchange_weak(volatile T *a, T *c, T v, int mo, int fmo) \
{ \
	return cas##N(a, c, v, mo, fmo, RET); \
} \
T __tsan_atomic##N##_compare_exchange_val(volatile T *a, T c, T v, int mo, int fmo) \
{ \
	cas##N(a, &c, v, mo, fmo, RET); \
	return c; \
}
#define DEFINE_RMW(N, T, OP, BUILTIN) \
T __tsan_atomic##N##_##OP(volatile T *a, T v, int mo) \
{ \
	T old; \
	race_enter(); \
	old = BUILTIN(a, v, __ATOMIC_SEQ_CST); \
	event(a, sizeof(T), 1, 1, mo, RET); \
	race_leave(); \
	return old; \
}

DEFINE_ATOMICS(8, unsigned char)
DEFINE_ATOMICS(16, unsigned short)
DEFINE_ATOMICS(32, unsigned int)
DEFINE_ATOMICS(64, unsigned long)

/* 16 bytes: plain accesses inside the section. */
typedef unsigned __int128 u128;
#define PLAIN_RMW(OP, EXPR) \
u128 __tsan_atomic128_##OP(volatile u128 *a, u128 v, int mo) \
{ \
	u128 old; \
	race_enter(); \
	old = *a; \
	*a = (EXPR); \
	event(a, 16, 1, 1, mo, RET); \
	race_leave(); \
	return old; \
}
PLAIN_RMW(exchange, v)
PLAIN_RMW(fetch_add, old + v)
PLAIN_RMW(fetch_sub, old - v)
PLAIN_RMW(fetch_and, old & v)
PLAIN_RMW(fetch_or, old | v)
PLAIN_RMW(fetch_xor, old ^ v)
PLAIN_RMW(fetch_nand, ~(old & v))

u128 __tsan_atomic128_load(const volatile u128 *a, int mo)
{
	u128 v;
	race_enter();
	v = *a;
	event(a, 16, 1, 0, mo, RET);
	race_leave();
	return v;
}

void __tsan_atomic128_store(volatile u128 *a, u128 v, int mo)
{
	race_enter();
	event(a, 16, 0, 1, mo, RET);
	*a = v;
	race_leave();
}

static int cas128(volatile u128 *a, u128 *c, u128 v, int mo, int fmo, const void *ret)
{
	int ok;
	race_enter();
	ok = *a == *c;
	if (ok) *a = v;
	else *c = *a;
	event(a, 16, 1, ok, ok ? mo : fmo, ret);
	race_leave();
	return ok;
}

int __tsan_atomic128_compare_exchange_strong(volatile u128 *a, u128 *c, u128 v, int mo, int fmo)
{
	return cas128(a, c, v, mo, fmo, RET);
}

int __tsan_atomic128_compare_exchange_weak(volatile u128 *a, u128 *c, u128 v, int mo, int fmo)
{
	return cas128(a, c, v, mo, fmo, RET);
}

u128 __tsan_atomic128_compare_exchange_val(volatile u128 *a, u128 c, u128 v, int mo, int fmo)
{
	cas128(a, &c, v, mo, fmo, RET);
	return c;
}
