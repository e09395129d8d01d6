/*
 * tsan.c — the access entry points GCC's -fsanitize=thread calls
 * (gcc 12: a call before each load and store of instrumented code, by
 * size, aligned or not, volatile or not; ranges; C++ vtable pointers;
 * function entry and exit; one initialisation call per object file).
 * Each access is a scheduling point when the memory is shared
 * (shared.c); the rest are no-ops.  The entry points' names and
 * signatures are the compiler's interface; what they do here is
 * green's.
 */
#include "mempoints.h"

#define ACCESS(name, poll) void name(void *a) { green_mp_access(a, poll); }
#define SIZES(prefix, poll) ACCESS(prefix##1, poll) ACCESS(prefix##2, poll) \
	ACCESS(prefix##4, poll) ACCESS(prefix##8, poll) ACCESS(prefix##16, poll)

SIZES(__tsan_read, 1)
SIZES(__tsan_write, 0)
SIZES(__tsan_volatile_read, 1)
SIZES(__tsan_volatile_write, 0)
ACCESS(__tsan_unaligned_read2, 1) ACCESS(__tsan_unaligned_read4, 1)
ACCESS(__tsan_unaligned_read8, 1) ACCESS(__tsan_unaligned_read16, 1)
ACCESS(__tsan_unaligned_write2, 0) ACCESS(__tsan_unaligned_write4, 0)
ACCESS(__tsan_unaligned_write8, 0) ACCESS(__tsan_unaligned_write16, 0)

/* A block access (a structure copy): one point, at its first byte. */
void __tsan_read_range(void *a, unsigned long size)
{
	if (size) green_mp_access(a, 1);
}

void __tsan_write_range(void *a, unsigned long size)
{
	if (size) green_mp_access(a, 0);
}

/* C++: the store of an object's vtable pointer in a constructor or
 * destructor, and its load in a virtual call. */
void __tsan_vptr_update(void **vptr, void *v)
{
	(void)v;
	green_mp_access(vptr, 0);
}

void __tsan_vptr_read(void **vptr)
{
	green_mp_access(vptr, 1);
}

/* Called by every instrumented object's constructor: the program has
 * memory points, so that POS takes the block points of `--sched-points=all`
 * code, which make no access, for local steps (pos.c).  No shadow stack
 * to keep. */
void __tsan_init(void)
{
	__green_mp_built = 1;
}

void __tsan_func_entry(void *pc)
{
	(void)pc;
}

void __tsan_func_exit(void)
{
}
