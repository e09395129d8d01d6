/*
 * atomic_points.c — the atomic operations of instrumented code, after a
 * scheduling point when the memory is shared: an atomic is where threads
 * meet.  The entry points gcc's -fsanitize=thread calls are written once
 * for both of their runtimes (src/tsan/atomic-ops.h, which says how each
 * operation is done); this file gives them their hook, and the fences.
 */
#include "mempoints.h"

/* the hooks of the shared entry points: a scheduling point before each
 * operation (mempoints.h); nothing after it */
#define tsan_pre(a, unchanged) green_mp_access((a), (unchanged))
#define tsan_post(a, size, rd, wr, mo, ret) ((void)(mo), (void)(ret))
#include "../tsan/atomic-ops.h"
TSAN_ATOMIC_ENTRY_POINTS

#define SC __ATOMIC_SEQ_CST

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
