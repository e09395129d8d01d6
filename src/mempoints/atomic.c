/*
 * atomic.c — the atomic operations of instrumented code.  GCC's
 * -fsanitize=thread turns every __atomic and __sync builtin into a call
 * __tsan_atomicN_OP (N the width in bits); the operation must still
 * happen, so each one here performs it with the builtin (which this
 * file, compiled without the instrumentation, keeps inline), after a
 * scheduling point when the memory is shared: an atomic is where threads
 * meet.  Every memory order is done as sequentially consistent: all
 * green threads run on one kernel thread, so stronger costs nothing
 * observable (the order argument is GCC's __ATOMIC_* value).  128-bit
 * operations exist where the compiler has a 128-bit integer; with one
 * kernel thread a plain read-modify-write is atomic against every other
 * green thread (no switch inside it), so they need no lock.
 */
#include "mempoints.h"

#define SC __ATOMIC_SEQ_CST

/* poll: whether the operation will leave the memory as it is (a failed
 * compare-and-swap, an exchange or a fetch-or of what is there: a spin
 * lock's failed attempt), judged before the point (mempoints.h) */
#define OPS(n, T) \
T __tsan_atomic##n##_load(const volatile T *a, int mo) \
{ (void)mo; green_mp_access(a, 1); return __atomic_load_n(a, SC); } \
void __tsan_atomic##n##_store(volatile T *a, T v, int mo) \
{ (void)mo; green_mp_access(a, 0); __atomic_store_n(a, v, SC); } \
T __tsan_atomic##n##_exchange(volatile T *a, T v, int mo) \
{ (void)mo; green_mp_access(a, *a == v); return __atomic_exchange_n(a, v, SC); } \
T __tsan_atomic##n##_fetch_add(volatile T *a, T v, int mo) \
{ (void)mo; green_mp_access(a, !v); return __atomic_fetch_add(a, v, SC); } \
T __tsan_atomic##n##_fetch_sub(volatile T *a, T v, int mo) \
{ (void)mo; green_mp_access(a, !v); return __atomic_fetch_sub(a, v, SC); } \
T __tsan_atomic##n##_fetch_and(volatile T *a, T v, int mo) \
{ (void)mo; green_mp_access(a, (*a & v) == *a); return __atomic_fetch_and(a, v, SC); } \
T __tsan_atomic##n##_fetch_or(volatile T *a, T v, int mo) \
{ (void)mo; green_mp_access(a, (*a | v) == *a); return __atomic_fetch_or(a, v, SC); } \
T __tsan_atomic##n##_fetch_xor(volatile T *a, T v, int mo) \
{ (void)mo; green_mp_access(a, !v); return __atomic_fetch_xor(a, v, SC); } \
T __tsan_atomic##n##_fetch_nand(volatile T *a, T v, int mo) \
{ (void)mo; green_mp_access(a, 0); return __atomic_fetch_nand(a, v, SC); } \
int __tsan_atomic##n##_compare_exchange_strong(volatile T *a, T *c, T v, int mo, int fmo) \
{ (void)mo; (void)fmo; green_mp_access(a, *a != *c); \
  return __atomic_compare_exchange_n(a, c, v, 0, SC, SC); } \
int __tsan_atomic##n##_compare_exchange_weak(volatile T *a, T *c, T v, int mo, int fmo) \
{ (void)mo; (void)fmo; green_mp_access(a, *a != *c); \
  return __atomic_compare_exchange_n(a, c, v, 0, SC, SC); } \
T __tsan_atomic##n##_compare_exchange_val(volatile T *a, T c, T v, int mo, int fmo) \
{ (void)mo; (void)fmo; green_mp_access(a, *a != c); \
  __atomic_compare_exchange_n(a, &c, v, 0, SC, SC); return c; }

OPS(8, uint8_t)
OPS(16, uint16_t)
OPS(32, uint32_t)
OPS(64, uint64_t)

#ifdef __SIZEOF_INT128__
typedef unsigned __int128 u128;
/* without a 128-bit atomic instruction to count on (cmpxchg16b is not
 * baseline x86_64): plain operations, atomic here as said above */
#define RMW(name, expr) \
u128 __tsan_atomic128_##name(volatile u128 *a, u128 v, int mo) \
{ u128 o; (void)mo; green_mp_access(a, 0); o = *a; *a = (expr); return o; }
u128 __tsan_atomic128_load(const volatile u128 *a, int mo)
{ (void)mo; green_mp_access(a, 1); return *a; }
void __tsan_atomic128_store(volatile u128 *a, u128 v, int mo)
{ (void)mo; green_mp_access(a, 0); *a = v; }
RMW(exchange, v)
RMW(fetch_add, o + v)
RMW(fetch_sub, o - v)
RMW(fetch_and, o & v)
RMW(fetch_or, o | v)
RMW(fetch_xor, o ^ v)
RMW(fetch_nand, ~(o & v))
int __tsan_atomic128_compare_exchange_strong(volatile u128 *a, u128 *c, u128 v, int mo, int fmo)
{
	(void)mo; (void)fmo;
	green_mp_access(a, *a != *c);
	if (*a == *c) { *a = v; return 1; }
	*c = *a;
	return 0;
}
int __tsan_atomic128_compare_exchange_weak(volatile u128 *a, u128 *c, u128 v, int mo, int fmo)
{
	return __tsan_atomic128_compare_exchange_strong(a, c, v, mo, fmo);
}
u128 __tsan_atomic128_compare_exchange_val(volatile u128 *a, u128 c, u128 v, int mo, int fmo)
{
	__tsan_atomic128_compare_exchange_strong(a, &c, v, mo, fmo);
	return c;
}
#endif

void __tsan_atomic_thread_fence(int mo)
{
	(void)mo;
	__atomic_thread_fence(SC);
}

void __tsan_atomic_signal_fence(int mo)
{
	(void)mo;
	__atomic_signal_fence(SC);
}
