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

#define ACCESS(name) void name(void *a) { green_mp_access(a); }
#define SIZES(prefix) ACCESS(prefix##1) ACCESS(prefix##2) ACCESS(prefix##4) \
	ACCESS(prefix##8) ACCESS(prefix##16)

SIZES(__tsan_read)
SIZES(__tsan_write)
SIZES(__tsan_volatile_read)
SIZES(__tsan_volatile_write)
ACCESS(__tsan_unaligned_read2) ACCESS(__tsan_unaligned_read4)
ACCESS(__tsan_unaligned_read8) ACCESS(__tsan_unaligned_read16)
ACCESS(__tsan_unaligned_write2) ACCESS(__tsan_unaligned_write4)
ACCESS(__tsan_unaligned_write8) ACCESS(__tsan_unaligned_write16)

/* A block access (a structure copy): one point, at its first byte. */
void __tsan_read_range(void *a, unsigned long size)
{
	if (size) green_mp_access(a);
}

void __tsan_write_range(void *a, unsigned long size)
{
	if (size) green_mp_access(a);
}

/* C++: the store of an object's vtable pointer in a constructor or
 * destructor, and its load in a virtual call. */
void __tsan_vptr_update(void **vptr, void *v)
{
	(void)v;
	green_mp_access(vptr);
}

void __tsan_vptr_read(void **vptr)
{
	green_mp_access(vptr);
}

/* Nothing to set up, and no shadow stack to keep. */
void __tsan_init(void)
{
}

void __tsan_func_entry(void *pc)
{
	(void)pc;
}

void __tsan_func_exit(void)
{
}
