/*
 * tid.c — thread ids: each green thread's own, and what an id given to
 * a call names.
 *
 * On Linux gettid() names a kernel thread, and the first thread of a
 * process has the pid for id.  Here every green thread has an id of its
 * own, kept where musl keeps a kernel thread's (the TCB's tid, which
 * musl's gettid() reads, and which is also the FILE-lock and spin-lock
 * owner id):
 *
 *   the initial thread   its kernel tid, the pid: gettid() == getpid()
 *                        in main, as Linux promises;
 *   every other thread   an id from GREEN_TID_FIRST (0x400000) up.  That
 *                        is PID_MAX_LIMIT of a 64-bit kernel, the most
 *                        pid_max can ever be, so no process or thread on
 *                        the machine can hold it; a 32-bit kernel allows
 *                        at most 32768.  The counter wraps after about
 *                        10^9 creations, and then skips an id that a
 *                        live thread still holds.
 *   a fork child's one thread   the child's kernel tid (musl.c).
 *
 * The calls that hand a thread id to the kernel (tgkill, tkill,
 * sched_setaffinity, sched_setscheduler and their kin) would get ESRCH
 * for a green id.  __green_tid_find says what an id names: one of this
 * process's green threads (which the caller then acts on, or answers
 * for as the kernel would for a thread of this process: the one kernel
 * thread's affinity, say), an id no live green thread holds (ESRCH), or
 * a kernel thread of another process, which is the kernel's business.
 */
#include <errno.h>
#include <signal.h>
#include "base/gthread.h"
#include "base/section.h"
#include "signal/gsignal.h"
#include "thread/lifecycle.h"

hidden int __green_tid_next = GREEN_TID_FIRST;   /* the next id; GREEN_TID_LAST once used up */
hidden int __green_tid_again = GREEN_TID_FIRST;  /* then: the next id to try */

/* Inside GREEN_ENTER: the live thread whose id is tid, or 0. */
hidden struct green_thread *__green_by_tid(pid_t tid)
{
	struct green_thread *t;

	for (t = __green_all; t; t = t->all_next)
		if (t->state != GS_EXITED && t->tid == tid) return t;
	return 0;
}

/* Inside GREEN_ENTER: a new thread's id once the counter has come to its
 * end (green_tid_new, lifecycle.h, has the usual case in line): round
 * from the first again, skipping the ids live threads still hold. */
hidden int __green_tid_new(void)
{
	int tid;

	do {
		tid = __green_tid_again;
		__green_tid_again = tid + 1 < GREEN_TID_LAST ? tid + 1 : GREEN_TID_FIRST;
	} while (__green_by_tid(tid));
	return tid;
}

/*
 * What tid names: 1 and *t a live green thread of this process, 0 an id
 * of the kernel's (another process's thread, or 0 or less, which the
 * kernel answers), -ESRCH a green id that names no live thread.
 */
hidden int __green_tid_find(pid_t tid, struct green_thread **t)
{
	if (!green_active() || tid <= 0) return 0;
	GREEN_ENTER();
	*t = __green_by_tid(tid);
	GREEN_LEAVE();
	if (*t) return 1;
	return tid >= GREEN_TID_FIRST ? -ESRCH : 0;
}

/* The id to give the kernel for tid: 0 (the calling kernel thread, the
 * one every green thread runs on) for a green thread, tid itself for one
 * not green's, or -ESRCH. */
hidden long __green_tid_kernel(pid_t tid)
{
	struct green_thread *t;
	int r = __green_tid_find(tid, &t);

	return r < 0 ? r : r ? 0 : tid;
}

/*
 * tgkill(tgid, tid, sig), and tkill(tid, sig) with tgid -1: a thread of
 * this process gets the signal as from pthread_kill (or, with si, as
 * rt_tgsigqueueinfo queues it); any other id goes to the kernel.
 * 0 or -errno.
 */
hidden long __green_tid_signal(pid_t tgid, pid_t tid, int sig, const siginfo_t *si)
{
	struct green_thread *t;
	int r;

	if (tgid != -1 && (tgid <= 0 || tid <= 0)) return -EINVAL;
	if (tgid != -1 && tgid != __green_pid) r = 0;
	else r = __green_tid_find(tid, &t);
	if (r < 0) return r;
	if (!r) {
		if (si) return __syscall(SYS_rt_tgsigqueueinfo, tgid, tid, sig, si);
		if (tgid == -1) return __syscall(SYS_tkill, tid, sig);
		return __syscall(SYS_tgkill, tgid, tid, sig);
	}
	return -__green_thread_signal(t, sig, si);
}
