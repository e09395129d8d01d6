/*
 * __syscall_cp.c — musl's entry for system calls that are cancellation
 * points (read, write, open, accept, waitpid, ...).
 *
 * Deferred cancellation needs no signal on one kernel thread: a pending
 * cancel is acted on at entry, and green's own waits (sleep, join, cond,
 * sem) are woken by pthread_cancel.  In this step the call itself goes
 * straight to the kernel; the I/O multiplexer turns the blocking ones
 * into green waits.
 */
#include "green.h"

long (__syscall_cp)(syscall_arg_t nr, syscall_arg_t u, syscall_arg_t v, syscall_arg_t w,
                    syscall_arg_t x, syscall_arg_t y, syscall_arg_t z)
{
	if (green_active()) __green_cancel_point();
	return __syscall(nr, u, v, w, x, y, z);
}
