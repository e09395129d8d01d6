/*
 * __syscall_cp.c — musl's entry for system calls that are cancellation
 * points.
 *
 * About forty of musl's functions reach the kernel through here: read,
 * write, accept, connect, recv*, send*, poll, select, waitpid, open,
 * fcntl(F_SETLKW), msgrcv, mq_*, tcdrain, getrandom and the sleeps; and
 * through them the resolver, syslog and getpass.  Until a second thread
 * exists each goes straight to the kernel.  Afterwards a pending cancel
 * is acted on at entry, and the call goes to the blocking-I/O engine
 * (src/sysio/, docs/io.md), which makes one that could block park only
 * the calling thread (green_sys_loaded: an argument in a parked
 * copied-stack thread's stack is loaded).
 *
 * Inside posix_spawn's vfork child musl 1.2.3 makes one call through
 * this entry before exec, close() of its pipe's read end: it goes
 * straight to the kernel (green_vfork_child), because green's close
 * handling wakes waiters and ends in a scheduling point, and a switch
 * there would run another green thread in the child process.
 */
#include "base/gthread.h"
#include "sched/gsched.h"
#include "green-sys.h"

long (__syscall_cp)(syscall_arg_t nr, syscall_arg_t u, syscall_arg_t v, syscall_arg_t w,
                    syscall_arg_t x, syscall_arg_t y, syscall_arg_t z)
{
	if (!green_active() || green_vfork_child()) return __syscall(nr, u, v, w, x, y, z);
	__green_cancel_point();
	return green_sys_loaded(nr, (long[6]){ u, v, w, x, y, z }, 1);
}
