/*
 * atomic-ops.h — every __tsan_atomicN_OP entry point that gcc's
 * -fsanitize=thread instrumentation calls in place of an __atomic or
 * __sync builtin (N the width in bits), written once.  Two runtimes
 * define them, never linked together: the memory-access scheduling
 * points (src/mempoints/atomic_points.c, green-cc --sched-points=memory)
 * and the race detector (src/race/atomic_edges.c, green-cc --race).
 * Each defines its two hooks, includes this file and writes
 * TSAN_ATOMIC_ENTRY_POINTS where the definitions go:
 *
 *   tsan_pre(a, unchanged)  before the operation on a; unchanged: it
 *                           will leave the memory as it is (a load, a
 *                           failed compare-and-swap, an exchange or a
 *                           fetch-or of what is there), judged before
 *   tsan_post(a, size, rd, wr, mo, ret)
 *                           after it: it read and/or wrote size bytes
 *                           at a with memory order mo (a failed
 *                           compare-and-swap's own order, and no write),
 *                           called from ret
 *
 * The operation itself is the builtin with every order sequentially
 * consistent (all green threads run on one kernel thread, so the
 * stronger order costs nothing observable; the memory may be shared
 * with another process, so it stays a real atomic instruction) for 1 to
 * 8 bytes.  16 bytes, where the compiler has a 128-bit integer: plain
 * loads and stores, atomic against green's other threads since nothing
 * switches between tsan_pre and tsan_post, but not against another
 * process (cmpxchg16b is not baseline x86_64).
 */
#ifndef GREEN_TSAN_ATOMIC_OPS_H
#define GREEN_TSAN_ATOMIC_OPS_H
#include <stdint.h>

#define TSAN_SC __ATOMIC_SEQ_CST
#define TSAN_RET __builtin_return_address(0)

/* The read-modify-writes: X(name, builtin, the new value from old o and v,
 * unchanged when) */
#define TSAN_RMWS(X) \
	X(exchange,   __atomic_exchange_n,  v,          *a == v) \
	X(fetch_add,  __atomic_fetch_add,   o + v,      !v) \
	X(fetch_sub,  __atomic_fetch_sub,   o - v,      !v) \
	X(fetch_and,  __atomic_fetch_and,   o & v,      (*a & v) == *a) \
	X(fetch_or,   __atomic_fetch_or,    o | v,      (*a | v) == *a) \
	X(fetch_xor,  __atomic_fetch_xor,   o ^ v,      !v) \
	X(fetch_nand, __atomic_fetch_nand,  ~(o & v),   0)

#define TSAN_RMW_REAL(N, T, name, builtin, expr, same) \
T __tsan_atomic##N##_##name(volatile T *a, T v, int mo) \
{ \
	T o; \
	tsan_pre(a, same); \
	o = builtin(a, v, TSAN_SC); \
	tsan_post(a, sizeof(T), 1, 1, mo, TSAN_RET); \
	return o; \
}

#define TSAN_CAS(N, T, cas_op) \
static int tsan_cas##N(volatile T *a, T *c, T v, int mo, int fmo, const void *ret) \
{ \
	int ok; \
	tsan_pre(a, *a != *c); \
	ok = cas_op; \
	tsan_post(a, sizeof(T), 1, ok, ok ? mo : fmo, ret); \
	return ok; \
} \
int __tsan_atomic##N##_compare_exchange_strong(volatile T *a, T *c, T v, int mo, int fmo) \
{ return tsan_cas##N(a, c, v, mo, fmo, TSAN_RET); } \
int __tsan_atomic##N##_compare_exchange_weak(volatile T *a, T *c, T v, int mo, int fmo) \
{ return tsan_cas##N(a, c, v, mo, fmo, TSAN_RET); } \
T __tsan_atomic##N##_compare_exchange_val(volatile T *a, T c, T v, int mo, int fmo) \
{ tsan_cas##N(a, &c, v, mo, fmo, TSAN_RET); return c; }

#define TSAN_LOAD_STORE(N, T, load, store) \
T __tsan_atomic##N##_load(const volatile T *a, int mo) \
{ T v; tsan_pre(a, 1); v = load; tsan_post(a, sizeof(T), 1, 0, mo, TSAN_RET); return v; } \
void __tsan_atomic##N##_store(volatile T *a, T v, int mo) \
{ tsan_pre(a, 0); store; tsan_post(a, sizeof(T), 0, 1, mo, TSAN_RET); }

/* 1 to 8 bytes: real atomic instructions */
#define TSAN_REAL(N, T) \
TSAN_LOAD_STORE(N, T, __atomic_load_n(a, TSAN_SC), __atomic_store_n(a, v, TSAN_SC)) \
TSAN_CAS(N, T, __atomic_compare_exchange_n(a, c, v, 0, TSAN_SC, TSAN_SC))
#define TSAN_RMW_REAL_8(name, builtin, expr, same) TSAN_RMW_REAL(8, uint8_t, name, builtin, expr, same)
#define TSAN_RMW_REAL_16(name, builtin, expr, same) TSAN_RMW_REAL(16, uint16_t, name, builtin, expr, same)
#define TSAN_RMW_REAL_32(name, builtin, expr, same) TSAN_RMW_REAL(32, uint32_t, name, builtin, expr, same)
#define TSAN_RMW_REAL_64(name, builtin, expr, same) TSAN_RMW_REAL(64, uint64_t, name, builtin, expr, same)

#ifdef __SIZEOF_INT128__
typedef unsigned __int128 tsan_u128;
/* 16 bytes: plain operations, atomic here as said above */
static inline int tsan_plain_cas128(volatile tsan_u128 *a, tsan_u128 *c, tsan_u128 v)
{
	if (*a == *c) { *a = v; return 1; }
	*c = *a;
	return 0;
}
#define TSAN_RMW_PLAIN_128(name, builtin, expr, same) \
tsan_u128 __tsan_atomic128_##name(volatile tsan_u128 *a, tsan_u128 v, int mo) \
{ \
	tsan_u128 o; \
	tsan_pre(a, same); \
	o = *a; \
	*a = (expr); \
	tsan_post(a, 16, 1, 1, mo, TSAN_RET); \
	return o; \
}
#define TSAN_128 \
	TSAN_LOAD_STORE(128, tsan_u128, *a, *a = v) \
	TSAN_CAS(128, tsan_u128, tsan_plain_cas128(a, c, v)) \
	TSAN_RMWS(TSAN_RMW_PLAIN_128)
#else
#define TSAN_128
#endif

/* Every entry point: the including file writes this once, after its
 * hooks. */
#define TSAN_ATOMIC_ENTRY_POINTS \
	TSAN_REAL(8, uint8_t) TSAN_REAL(16, uint16_t) \
	TSAN_REAL(32, uint32_t) TSAN_REAL(64, uint64_t) \
	TSAN_RMWS(TSAN_RMW_REAL_8) TSAN_RMWS(TSAN_RMW_REAL_16) \
	TSAN_RMWS(TSAN_RMW_REAL_32) TSAN_RMWS(TSAN_RMW_REAL_64) \
	TSAN_128

#endif
