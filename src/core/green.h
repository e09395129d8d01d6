/*
 * green.h — the core's internal interface.
 *
 * Most objects in src/core and src/stubs include this, directly or
 * through another internal header (runq.h, sync.h, io.h, ktime.h; the
 * stubs' green-sys.h, stdio-lock.h); the few that need nothing of the
 * core do not (prioceiling.c, rwlockattr_kind.c, and the stubs gettid,
 * sigprocmask, sysconf and pthread_attr_*).  It is never installed.
 * What the core needs of its libc comes through one seam:
 * musl-seam.h in the normal build (green inside musl's libc.a, compiled
 * against musl's internal headers), src/overlay/glibc-seam.h in the glibc
 * overlay (GREEN_OVERLAY; the SPARC port, docs/ports.md).
 *
 * Ownership, in one paragraph: there is one kernel thread.  All fields
 * below are touched only by whichever green thread is running, inside a
 * no-preempt section when a preemption could observe them half-updated
 * (GREEN_ENTER/GREEN_LEAVE).  No atomics are needed for that.  Atomic
 * read-modify-writes are used where a plain load and store could lose
 * another's change: words that signal handlers change too (signal.c's
 * 64-bit sets: green_bits_or/green_bits_clear, below; __green_pending
 * needs none, being a byte per flag), counters changed
 * outside a no-preempt section (src/stubs/vmlock.c, __wait.c), and
 * the words of process-shared objects, which other processes change
 * (sem.c, pmutex.c, and the shared paths of cond.c, rwlock.c and
 * barrier.c).
 */
#ifndef GREEN_H
#define GREEN_H

#include <stdint.h>
#include <stddef.h>
#include <time.h>

struct green_thread;

/* A thread attribute as the core reads it (the seam converts). */
struct green_attr {
	size_t stacksize, guardsize;
	uintptr_t stackaddr;           /* top of a program-supplied stack, or 0 */
	int detached, explicit_sched, policy, prio;
	int stackmode;                 /* PTHREAD_STACK_*_NP */
};

#ifdef GREEN_OVERLAY
#include "glibc-seam.h"
#else
#include "musl-seam.h"
#endif
#include "contract.h"

/* ---- pending signal instances with their info (sigqueue.c) */
struct green_signode {
	struct green_signode *next;
	siginfo_t si;
};
struct green_sigl {
	struct green_signode *head, *tail;
};

/* ---- queues: FIFO of threads, linked through the threads themselves. */
struct gq {
	struct green_thread *head, *tail;
};

/*
 * What a blocked thread waits for (for the deadlock report and gdb).
 * The wait object is in green_thread.wait_obj.
 */
/*
 * What a BLOCKED thread waits on.  Adding a kind: also give it a name in
 * report.c (__green_wait_name), a description in gdb/green-gdb.py
 * (describe_wait; the kinds' values reach gdb by themselves, through the
 * generated gdb/wait-kinds.h), and, if something outside the process
 * can end it (a descriptor, a child, another process, a signal), the
 * list in explore.c's kernel_may_wake.
 */
enum gwait {
	GW_NONE = 0,
	GW_MUTEX,       /* pthread_mutex_t / mtx_t */
	GW_COND,        /* pthread_cond_t / cnd_t */
	GW_JOIN,        /* a thread, in pthread_join */
	GW_SLEEP,       /* a deadline only */
	GW_ADDR,        /* an address (libc internal lock, once, FILE lock) */
	GW_RWLOCK,
	GW_BARRIER,
	GW_SEM,
	GW_SIGNAL,      /* waiting for a signal to arrive */
	GW_FD,          /* a descriptor readable/writable (io.c) */
	GW_POLL,        /* the program's own poll/select set (io.c) */
	GW_CHILD,       /* a child process changing state (io.c) */
	GW_RETRY,       /* polled at growing intervals: locks, queues (io.c) */
	GW_AIO,         /* an asynchronous I/O request to complete (aio.c) */
};

/*
 * Thread states.  Who owns the descriptor and which queue it is on:
 *
 *   RUNNING   the one thread on the CPU; on no queue.  __green_cur.
 *   RUNNABLE  on the run queue (runq.c), waiting for the CPU.
 *   BLOCKED   on the queue of its wait object (or none for GW_SLEEP),
 *             and in the timer heap if the wait has a deadline.
 *   EXITED    on no queue; owned by its joiner, or on the reap list if
 *             detached (its stack is still in use until the next switch).
 *
 *   create ──> RUNNABLE <──────── wake (signal, unlock, timer) ───┐
 *                 │  ^                                           │
 *          picked │  │ yield / preempt                            │
 *                 v  │                                           │
 *              RUNNING ──── wait on object / deadline ──> BLOCKED
 *                 │
 *                 └── pthread_exit ──> EXITED ──> join/reap ──> freed
 */
enum gstate { GS_RUNNING, GS_RUNNABLE, GS_BLOCKED, GS_EXITED };

/* One thread's interest in one descriptor, on that descriptor's list
 * while the epoll backend keeps registrations (epoll.c). */
struct green_io_node {
	struct green_io_node *next, *prev;   /* prev 0: the list's head */
	struct green_thread *t;
	int fd;
	unsigned events;                     /* EPOLL* bits */
	unsigned char linked;
};

/* Stack modes (green_thread.stack_mode). */
enum { GREEN_STACK_SEPARATE = 0, GREEN_STACK_COPIED = 1 };

#define GREEN_MAGIC 0x6772656eu /* "gren" */

/*
 * Who writes which field of a thread descriptor, and when.  One kernel
 * thread runs all the code, so the question is which code, on behalf of
 * which thread, in which state.  The rule that makes it safe: a write to
 * a descriptor other than the running thread's own is made inside a
 * no-preempt section (GREEN_ENTER, or the catcher, which dispatches at a
 * non-zero depth), and so is a write to its own that a waker also reads.
 *
 *   creator (thread.c, stack.c, tls.c), before the thread first runs:
 *       magic, id, tcb, tp, tid, fp, start, arg, c11, detached (as
 *       asked), every stack field, policy, prio, sigmask (its own copied)
 *   the switch (switch.c, copied.c, arch), on the outgoing/incoming
 *   thread: sp, np, errno_val .. dlerror_flag (shared-TCB binding),
 *       save, save_len, save_cap, started, cpu_ns (cputime.c)
 *   the thread itself, RUNNING: wait, wait_obj, wait_aux, waddr,
 *       deadline (as it starts a wait, sched.c, futex.c, cond.c),
 *       cancel_disable, cancel_async, canceling (GREEN_CP_WAIT), cleanup,
 *       tsd, tsd_used, mheld, sigwait_set, kcrit, result (at exit),
 *       sigmask (pthread_sigmask, and around its handlers)
 *   a waker (any running thread, the tick, the catcher), while the
 *   thread is BLOCKED: state, wake, wait and wait_obj (cleared),
 *       q and its links, heap_idx (timer.c); for a hand-over also what
 *       it hands: rdlocks (rwlock.c), sigwait_got, sigwait_si, intr_at
 *   the scheduler, in any state: state, q, q_next, q_prev (run queue)
 *   any thread, in any state: cancel_pending (pthread_cancel), name,
 *       detached (pthread_detach), joiner (its joiner), policy, prio
 *       (pthread_setschedparam; the run or wait queue re-sorted), boost
 *       (priority inheritance, mutex.c), sigpend and sigq (pthread_kill,
 *       the catcher; the thread takes them off), xprio (explore.c)
 *   exit and reaping (thread.c, switch.c): all_next, all_prev,
 *       reap_next, magic (cleared when the descriptor is freed)
 *   run_handler (signal.c) saves and restores wake, canceling and
 *       wait_aux around a handler, which may wait itself.
 */
struct green_thread {
	void *sp;                      /* saved stack pointer while not running */
	unsigned magic;                /* GREEN_MAGIC while the descriptor is live */
	unsigned id;                   /* 1 = main; shown by gdb and reports */

	/* The libc's thread control block and the thread-pointer value that
	 * addresses it (tls.c): the initial thread's for every thread when
	 * the program has no TLS segment, the thread's own otherwise. */
	void *tcb;
	void *tp;

	/* What every switch reads of the thread it switches to (switch.c),
	 * with sp and tp above: one cache line of a 64-byte-aligned
	 * descriptor.  With a thousand threads taking turns the line is cold
	 * at each switch; fields spread over five lines cost five misses. */
	int np;                        /* saved no-preempt depth (switch.c) */
	int stack_mode;
	enum gstate state;
	unsigned char cancel_disable, cancel_async, cancel_pending, canceling;   /* cancel.c */
	uint64_t sigmask;              /* this thread's mask (signal.c) */
	uint64_t sigpend;              /* directed at this thread, not yet delivered */

	/* Shallow binding, when threads share one TCB: the libc keeps these
	 * per thread; while this thread is not running its values live here
	 * (switch.h, the seam).  With TCBs of their own only tid is used.
	 * Pairs the libc keeps side by side are side by side here, in its
	 * order, so that each pair moves as one (the seam). */
	int tid;                       /* owner id for FILE locks (>= 0x400000) */
	int errno_val;
	int h_errno_val;
	locale_t locale;
	void *dlerror_buf;
	void *stdio_locks;
	unsigned char dlerror_flag;    /* the libc's byte that holds it (the seam) */
	struct green_arch_fp fp;       /* the creator's floating-point control state */

	enum gwait wait;               /* valid while BLOCKED */
	const void *wait_obj;
	void *wait_aux;                /* cond wait: the mutex to re-acquire */
	int wake;                      /* why the last wait ended: 0, ETIMEDOUT, EINTR, ECANCELED */
	unsigned char mx_handoff;      /* queued for a mutex after losing it once: the next
	                                  unlock hands it over (mutex.c) */

	/* Queue links: a thread is on at most one queue (run or wait). */
	struct green_thread *q_next, *q_prev;
	struct gq *q;

	/* Timer heap (timer.c): index+1 in the heap, 0 when absent. */
	size_t heap_idx;
	uint64_t deadline;             /* CLOCK_MONOTONIC ns */

	/* Address waits (futex.c). */
	const volatile void *waddr;

	/* Lifecycle (thread.c). */
	void *(*start)(void *);
	void *arg;
	void *result;
	unsigned char detached;
	unsigned char c11;             /* thrd_create: int result */
	struct green_thread *joiner;
	struct green_thread *all_next, *all_prev;
	char name[16];

	/* Cancellation (cancel.c; its flags are in the first line). */
	void *cleanup;                 /* newest cleanup handler, in the libc's layout */
	void *unwind;                  /* where pthread_exit's unwinding lands (unwind.c), or 0 */

	/* Thread-specific data (key.c): PTHREAD_KEYS_MAX slots, lazy. */
	void **tsd;
	unsigned char tsd_used;

	/* Stack (stack.c). */
	unsigned char own_stack;       /* the mapping is ours to free */
	unsigned char user_stack;      /* pthread_attr_setstack */
	void *map_base;                /* mmap'd region including guard */
	size_t map_size;
	void *stack_lo;                /* lowest usable stack address */
	size_t stack_size;             /* usable bytes */
	size_t stack_asked;            /* the size the creator asked for (thread_np.c) */
	size_t guard_size;
	unsigned vg_id;                /* valgrind stack id */

	/* Scheduling (runq.h): policy and priority as set; boost is the
	 * level lent by priority inheritance (mutex.c), 0 when none. */
	int policy, prio;
	int boost;
	int level;                     /* run-queue level: green_relevel (runq.h) */
	void *mheld;                   /* robust/PI mutexes held (mutex.c) */

	uint64_t xprio;                /* PCT priority under GREEN_SCHED, 0 until seen (explore.c) */
	uint64_t cpu_ns;               /* CPU time charged to it, once accounting is on (cputime.c) */

	/* Copied stacks (copied.c): the saved live stack [sp, top). */
	void *save;
	size_t save_len, save_cap;
	unsigned char started;         /* a copied thread's first frame exists */
	unsigned char hot;             /* its slot is mapped, its frames in place */
	unsigned short hot_at;         /* its place in the ring of hot threads */
	unsigned char shared;          /* its slot has had another thread (32-bit: copied.c) */
	int rdlocks;                   /* read locks held (rwlock.c) */

	/* Signals (signal.c; sigmask and sigpend are in the first line):
	 * bit s-1 of a set stands for signal s. */
	struct green_sigl sigq;        /* their instances, oldest first (sigqueue.c) */
	uint64_t intr_at;              /* when a signal last interrupted its wait (ns) */
	uint64_t sigwait_set;          /* in sigwait/sigtimedwait for these */
	int sigwait_got;               /* the signal handed to the sigwait */
	unsigned char intr_restart;    /* the last handler that interrupted had SA_RESTART */
	unsigned char kcrit;           /* all signals blocked in the kernel (posix_spawn) */
	unsigned char in_tick;         /* in the tick handler that preempted it (tick.c) */
	siginfo_t sigwait_si;

	/* Reap list link. */
	struct green_thread *reap_next;

	/* A single-descriptor wait's place on that descriptor's list (epoll.c). */
	struct green_io_node io_node;
};

/* ---- global state (sched.c) */
extern hidden struct green_thread *__green_cur;     /* the running thread */
extern hidden struct green_thread __green_main;     /* the initial thread */
extern hidden int __green_started;                  /* a second thread was ever created */
extern hidden int __green_live;                     /* threads not yet exited */
extern hidden struct green_thread *__green_all;     /* all threads, for gdb/reports */

/*
 * No-preempt depth: a plain counter, never a signal mask (Marovich 2.4).
 * The tick handler that finds it non-zero sets a flag of __green_pending
 * and returns; leaving the outermost section acts on the flags.
 *
 * Only the running thread changes the depth.  A handler that interrupts
 * it between the load and the store of a step leaves the depth as it
 * found it (one that switches threads restores it when it switches
 * back), so the step needs no atomic instruction.
 *
 * What the outermost GREEN_LEAVE must do is a byte per kind of work in
 * __green_pending: a signal handler (the tick, the catcher) and the
 * thread each set or clear a flag with one byte store, so neither can
 * undo the other's change to another flag, on any CPU, with no
 * read-modify-write instruction at all; and GREEN_LEAVE tests every
 * flag with one load of `any`.  A flag is cleared before the work it
 * asks for is done (green_pending_take), so a handler that sets it
 * again meanwhile asks for work that is still to come.  GREEN_PEND_EXPLORE
 * is set for the whole run under GREEN_SCHED, where every outermost
 * GREEN_LEAVE is a scheduling point (explore.c); it is never taken.
 */
extern hidden int __green_np;
union green_pending {
	unsigned char flag[8];
	uint64_t any;                               /* any flag set */
};
extern hidden volatile union green_pending __green_pending;
enum {
	GREEN_PEND_YIELD,                           /* a thread above the running one is runnable */
	GREEN_PEND_SIG,                             /* signals arrived: dispatch them */
	GREEN_PEND_POLL,                            /* wake expired and ready waiters */
	GREEN_PEND_SLICE,                           /* the quantum is used: yield if the policy lets */
	GREEN_PEND_EXPLORE,                         /* GREEN_SCHED: a scheduling point */
};
#define green_pending_set(f)   ((void)(__green_pending.flag[f] = 1))
#define green_pending_clear(f) ((void)(__green_pending.flag[f] = 0))
#define green_pending_is(f)    (__green_pending.flag[f] != 0)
/* clear flag f, before doing its work; was it set? */
static inline int green_pending_take(int f)
{
	if (!__green_pending.flag[f]) return 0;
	__green_pending.flag[f] = 0;
	return 1;
}
hidden void __green_preempt_now(void);
hidden void __green_leave(void);                /* explore.c: pending work, then a scheduling point */
extern hidden int __green_xmode;                /* GREEN_SCHED mode, 0 = off (explore.c) */

/*
 * The counter is a plain int (a step is one `addl`/`subl` to memory on
 * x86_64, not a load, an add and a store), ordered by a compiler barrier
 * on each side, inside the section: the barrier makes the compiler store
 * the new depth before the section's first access and after its last,
 * so a handler always reads the depth of the code it interrupted (and
 * leaves it as it found it, above).  The state the section protects
 * cannot move across the barriers either.
 */
#define green_barrier() __asm__ __volatile__("" ::: "memory")
/* bare depth steps: no scheduling point on the way out */
#define green_np_up() do { __green_np++; green_barrier(); } while (0)
#define green_np_down() do { green_barrier(); __green_np--; } while (0)
#define GREEN_ENTER() green_np_up()
#define GREEN_LEAVE() do { \
	green_barrier(); \
	if (!--__green_np && __green_pending.any) __green_leave(); \
} while (0)

/* true once green threads exist: stubs pass straight through until then */
static inline int green_active(void) { return __green_started; }

static inline struct green_thread *green_self(void)
{
	return __green_cur;
}

/* ---- scheduler (sched.c) */
hidden void __green_init(void);                 /* lazy, idempotent */
hidden int __green_block(void);                 /* current must already be queued/marked */
hidden void __green_yield(void);
extern hidden int __green_kernel_rt;             /* sched.c: the kernel policy is real-time (-1: not known yet) */
hidden void __green_ready(struct green_thread *);
hidden void __green_wake(struct green_thread *, int why);
hidden void __green_wake_first(struct green_thread *, int why);   /* ahead of its level */
hidden _Noreturn void __green_exit_switch(void);
hidden int __green_wait(struct gq *, enum gwait, const void *obj, uint64_t deadline);
hidden int __green_wait_first(struct gq *, enum gwait, const void *obj, uint64_t deadline);
hidden void __green_unpreempted(void (*func)(void *), void *ctx);
hidden void __green_deadlock(void);

/* ---- run queue (runq.c) */

/* ---- queue helpers (queue.c) */
hidden void __gq_push(struct gq *, struct green_thread *);
hidden void __gq_push_first(struct gq *, struct green_thread *);
hidden struct green_thread *__gq_pop(struct gq *);
hidden void __gq_remove(struct green_thread *);
static inline int gq_empty(const struct gq *q) { return !q->head; }

/* ---- switch (switch.c) */
hidden void __green_switch(struct green_thread *from, struct green_thread *to);
hidden void __green_reap(void);
hidden void __green_reap_later(struct green_thread *);

/* ---- time (timer.c) */
#define GREEN_NO_DEADLINE UINT64_MAX
hidden uint64_t __green_now(void);              /* the deadline clock: virtual under GREEN_SCHED */
hidden uint64_t __green_real_now(void);         /* CLOCK_MONOTONIC, always real */
hidden uint64_t __green_deadline(clockid_t, const struct timespec *abs, int *err);
hidden uint64_t __green_deadline_rel(const struct timespec *rel);
hidden int __green_sleep(uint64_t deadline, uint64_t *left);   /* 0 or EINTR */
hidden void __green_timer_add(struct green_thread *, uint64_t deadline);
hidden void __green_timer_del(struct green_thread *);
extern hidden size_t __green_nheap;
static inline int __green_timers_pending(void) { return __green_nheap != 0; }
hidden uint64_t __green_timer_next(void);
hidden void __green_timers_expire(uint64_t now);

/* ---- idle: wait for the kernel until a deadline (poll.c)
 * __green_poll_wait: block in the kernel until an awaited descriptor is
 *   ready, the deadline passes or a signal arrives; wake the threads whose
 *   events happened.  Called by the scheduler only when nothing can run.
 * __green_poll_check: the same without blocking; called at each tick.
 * __green_poll_waiters: how many threads wait on the kernel (descriptors,
 *   children): a wake source the deadlock detector must respect. */
hidden int __green_poll_wait(uint64_t deadline);
hidden void __green_poll_check(void);
hidden int __green_poll_waiters(void);

/* ---- descriptor waits (io.c)
 * The caller, inside no critical section, parks until the event, the
 * deadline or a wake: 0 (ready, or time to retry), ETIMEDOUT, EINTR,
 * ECANCELED, EBADF (the descriptor was closed by another thread).
 * GREEN_IN/GREEN_OUT/GREEN_PRI are the events of a single-fd wait. */
#define GREEN_IN  1
#define GREEN_OUT 2
#define GREEN_PRI 4
struct pollfd;
hidden int __green_fd_wait(int fd, int events, uint64_t deadline, enum gwait kind);
hidden int __green_fds_wait(const struct pollfd *, unsigned long n, uint64_t deadline);
hidden int __green_retry_wait(enum gwait kind, const void *obj, unsigned *step, uint64_t deadline);
hidden void __green_fd_closed(int fd);          /* wake its waiters with EBADF */

/* ---- descriptor kinds (fdkind.c): learnt by fstat at the first read or
 * write, forgotten after whatever makes the numbers name something else */
hidden int __green_fd_never_waits(int fd);      /* a regular file, block device or directory */
hidden int __green_fd_is_socket(int fd);        /* known as a socket */
hidden int __green_fd_nonblocking(int fd);      /* the program made it O_NONBLOCK */
hidden void __green_fd_flags_changed(void);     /* F_SETFL or FIONBIO on some descriptor */
hidden int __green_fd_no_nowait(int fd);        /* its kind refused RWF_NOWAIT before */
hidden void __green_fd_refused_nowait(int fd);  /* remember that */
hidden void __green_fd_forget(unsigned first, unsigned last);
hidden int __green_fd_read_waits_first(int fd);  /* its reads found nothing lately */
hidden void __green_fd_read_tried(int fd, int empty);

/* ---- signals (signal.c)
 * A wait ended with EINTR because a handler ran: should the interrupted
 * call restart (the handler had SA_RESTART)?  Blocking stubs ask this
 * before returning EINTR. */
hidden int __green_intr_restart(void);
extern hidden uint64_t __green_proc_pend;
hidden void __green_sig_deliver(void);          /* run handlers now deliverable to the caller */
hidden void __green_sig_init(void);             /* virtualise the kernel's signal state */
hidden void __green_sig_dispatch_arrived(void);  /* idle: dispatch recorded signals */
hidden void __green_sig_generate(int s, siginfo_t *, void *uc);  /* a signal green itself sends the process */
extern hidden const uint64_t *__green_idle_mask; /* poll.c: the mask the idle wait restores */
hidden int __green_sig_wakeable(void);          /* could a signal still wake a thread? */
hidden void __green_sig_after_fork(void);
extern hidden volatile uint64_t __green_sig_held;      /* caught, blocked in the kernel until dispatched */
hidden void __green_sig_fix_uc(void *uc, uint64_t add); /* a handler's return: unblock the no longer held */
hidden void __green_sig_thread_exit(struct green_thread *); /* discard what is pending for it */
hidden int __green_sigq_put(uint64_t *set, struct green_sigl *, const siginfo_t *);
hidden void __green_sigq_take(uint64_t *set, struct green_sigl *, int s, siginfo_t *);
hidden void __green_sigq_drop(uint64_t *set, struct green_sigl *, uint64_t which);
hidden void __green_fork_child(void);            /* fork.c: only the caller survives */
/* what each subsystem forgets in a fork child */
hidden void __green_runq_reset(void);            /* runq.c */
hidden void __green_timers_reset(void);          /* timer.c */
hidden void __green_futex_reset(void);           /* futex.c */
hidden void __green_reap_reset(void);            /* switch.c */
hidden void __green_io_reset(void);              /* io.c */
hidden void __green_pmutex_reset(void);          /* pmutex.c */
hidden void __green_tick_arm(void);             /* two threads may run: start slicing */
hidden void __green_tick_watch(void);           /* threads wait: keep ticking (tick.c) */
hidden void __green_tick_check(void);           /* wake expired and ready waiters */
extern hidden int __green_wake_front;            /* __green_ready queues at the front */
hidden int __green_tick_slice_over(int used);   /* should the running thread yield now? */
hidden void __green_tick_after_fork(void);
extern hidden int __green_ticking;
extern hidden int __green_pid;                   /* to recognise a vfork child */

/*
 * Are we posix_spawn's vfork child, running on the parent's memory until
 * it execs?  Only while the current thread is in its all-signals-blocked
 * spawn section (kcrit) can we be, so the system call is made only then.
 * Such a child must never switch green threads nor touch green's state:
 * a thread switched to there would run in the child process.
 */
static inline int green_vfork_child(void)
{
	return __green_cur->kcrit && __syscall(SYS_getpid) != __green_pid;
}

/* ---- copied stacks (copied.c) */
extern hidden struct green_thread *__green_region_owner;
hidden void __green_copied_switch(struct green_thread *from, struct green_thread *to);
hidden struct green_thread *__green_copied_alloc(size_t size, int *err);
hidden size_t __green_copied_room(void);
hidden void __green_copied_free(struct green_thread *);
hidden int __green_in_region(const void *);
hidden int __green_copied_fault(const char *, int *);
hidden int __green_copied_touch(const long *, int);
hidden size_t __green_next_colour(void);   /* stack.c */
/* 32-bit CPUs only: past the address space a slot per thread would take,
 * copied threads share slots, and one leaves its slot at every switch. */
#define GREEN_SLOT_SHARING (UINTPTR_MAX == 0xffffffffu)
hidden void __green_copied_leave(struct green_thread *from, struct green_thread *to);

extern hidden unsigned long __green_nswitch;
extern hidden unsigned long __green_accepted_turn;   /* __green_nswitch + 1 at the last accept (tick.c) */

/* ---- timer_create(SIGEV_THREAD): green's own timers (posix_timer.c).
 * Their ids are negative, kernel timers' never; each returns an errno
 * (timer_getoverrun: the count, or -EINVAL). */
struct sigevent;
struct itimerspec;
static inline int green_timer_id(timer_t id) { return (intptr_t)id < 0; }
/* The wrapped names of the calls that take a struct timespec (green-cc's
 * --wrap, tools/mkspecs.sh): on a 32-bit port musl's <time.h> redirects
 * them to their 64-bit-time symbols (_REDIR_TIME64: clock_gettime is
 * __clock_gettime64 in every object, the program's included), so those
 * are the ones wrapped there. */
#if defined(_REDIR_TIME64) && _REDIR_TIME64
#define GREEN_WRAP_T64(plain, t64) __wrap_##t64
#define GREEN_REAL_T64(plain, t64) __real_##t64
#else
#define GREEN_WRAP_T64(plain, t64) __wrap_##plain
#define GREEN_REAL_T64(plain, t64) __real_##plain
#endif
hidden int __green_timer_create(clockid_t, const struct sigevent *, timer_t *);
hidden int __green_timer_delete(timer_t);
hidden int __green_timer_settime(timer_t, int, const struct itimerspec *, struct itimerspec *);
hidden int __green_timer_gettime(timer_t, struct itimerspec *);
hidden int __green_timer_getoverrun(timer_t);

/* ---- CPU time per thread (cputime.c): off until a program asks */
extern hidden int __green_cpu_on;
hidden void __green_cpu_charge(void);           /* charge the running thread up to now */
hidden void __green_cpu_skip(void);             /* the time since the last charge is nobody's */
hidden uint64_t __green_cpu_kernel_ns(void);    /* the kernel thread's CPU time */
hidden clockid_t __green_cpu_clockid(struct green_thread *);
hidden int __green_cpu_clock(clockid_t, uint64_t *ns);

/*
 * Signal sets.  The core keeps a set of signals 1..64 in a uint64_t, bit
 * s-1 for signal s.  The kernel and the libc lay a set out as an array of
 * longs, signal s in bit (s-1) % LONG_BIT of word (s-1) / LONG_BIT: on a
 * 32-bit big-endian CPU (m68k, 32-bit SPARC) the two differ in the order
 * of the words, so every set that crosses into the kernel or the libc is
 * converted here.
 */
struct green_kset { unsigned long w[8 / sizeof(long)]; };

static inline struct green_kset green_kset(uint64_t b)
{
	struct green_kset k;
	for (unsigned i = 0; i < sizeof k.w / sizeof k.w[0]; i++)
		k.w[i] = (unsigned long)(b >> (i * 8 * sizeof(long)));
	return k;
}

static inline uint64_t green_kbits(const void *set)
{
	const unsigned long *w = set;
	uint64_t b = 0;
	for (unsigned i = 0; i < 8 / sizeof(long); i++)
		b |= (uint64_t)w[i] << (i * 8 * sizeof(long));
	return b;
}

/* After a switch lands on a thread: deliver what is pending for it. */
static inline void green_sig_check(struct green_thread *self)
{
	if ((self->sigpend | __green_proc_pend) & ~self->sigmask)
		__green_sig_deliver();
}

/*
 * The 64-bit signal sets a handler also changes (signal.c's `arrived`
 * and __green_sig_held): a plain `|=` or `&=` is a load and a store, and
 * a handler's bit set in between would be lost, so every change is one
 * atomic read-modify-write.  A 32-bit CPU has no 64-bit atomic
 * or/and of its own (it would need libatomic), so there each half that
 * changes gets its own 32-bit one.
 */
static inline void green_bits_or(volatile uint64_t *w, uint64_t b)
{
#if UINTPTR_MAX > 0xffffffffu
	__atomic_fetch_or(w, b, __ATOMIC_RELAXED);
#else
	volatile uint32_t *h = (volatile uint32_t *)w;
	int lo = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	if ((uint32_t)b) __atomic_fetch_or(&h[lo], (uint32_t)b, __ATOMIC_RELAXED);
	if (b >> 32) __atomic_fetch_or(&h[!lo], (uint32_t)(b >> 32), __ATOMIC_RELAXED);
#endif
}

static inline void green_bits_clear(volatile uint64_t *w, uint64_t b)
{
#if UINTPTR_MAX > 0xffffffffu
	__atomic_fetch_and(w, ~b, __ATOMIC_RELAXED);
#else
	volatile uint32_t *h = (volatile uint32_t *)w;
	int lo = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	if ((uint32_t)b) __atomic_fetch_and(&h[lo], ~(uint32_t)b, __ATOMIC_RELAXED);
	if (b >> 32) __atomic_fetch_and(&h[!lo], ~(uint32_t)(b >> 32), __ATOMIC_RELAXED);
#endif
}

/* ---- address waits: a user-level futex (futex.c) */
hidden int __green_futex_wait(const volatile void *addr, int val, uint64_t deadline, enum gwait kind);
hidden int __green_futex_wake(const volatile void *addr, int n);
hidden void __green_word_lock(volatile int *w, int me, int flag);
hidden void __green_word_unlock(volatile int *w, int flag);

/* ---- waits on words of process-shared objects (pshared.c)
 * __green_pshared_wait parks (outside any critical section) while
 * *w == val, until woken, the deadline or a re-check (step: the caller's
 * back-off state, 0 at first): 0 (look again), ETIMEDOUT, EINTR,
 * ECANCELED.  __green_pshared_wake wakes n of this process's waiters,
 * and, if fewer and `others`, asks the kernel for the rest.
 * __green_pshared_idle is the scheduler's idle wait while threads wait
 * on shared words and none on descriptors (poll.c). */
hidden int __green_pshared_wait(volatile int *w, int val, uint64_t deadline,
                                enum gwait kind, const void *obj, unsigned *step);
hidden void __green_pshared_wake(volatile int *w, int n, int others);
hidden int __green_pshared_waiting(void);
hidden int __green_pshared_idle(uint64_t deadline);
hidden void __green_pshared_reset(void);          /* in a forked child */
hidden int __green_pshared_pid(void);

/* ---- thread control blocks (tls.c) */
extern hidden size_t __green_tls_bytes;
hidden int __green_tls_init(void);
hidden void __green_tls_make(struct green_thread *, void *mem, struct green_thread *creator);

/* ---- GREEN_DEBUG's quarantine of released memory (quarantine.c) */
hidden int __green_quarantine(struct green_thread *, void *base, size_t len, const char *what);
hidden int __green_quarantined(const void *addr, char *buf, size_t len);

/* ---- stacks (stack.c) */
hidden struct green_thread *__green_stack_alloc(size_t size, size_t guard, int *err);
hidden struct green_thread *__green_stack_adopt(void *addr, size_t size, int *err);
hidden void __green_stack_free(struct green_thread *);
hidden void __green_guard_init(void);
hidden int __green_on_altstack(void);           /* stack.c: running on the SIGSEGV handler's stack */

/* ---- threads (thread.c, key.c, cancel.c) */
hidden void __green_tsd_run_dtors(struct green_thread *);
hidden void __green_thread_start(void *);       /* thread.c: a new thread's first code */
/* where pthread_exit's unwinding lands: in a thread's start frame
 * (thread.c), for the unwinder (unwind.c) */
struct green_landing {
	void *jb[5];                                /* __builtin_setjmp's */
	_Alignas(16) unsigned char exc[64];         /* the unwinder's exception object */
};
hidden _Noreturn void __green_exit_rest(void);  /* thread.c: pthread_exit after its unwinding */
hidden void __green_exit_unwind(struct green_thread *);   /* unwind.c: returns if it does not apply */
hidden int __green_can_unwind(void);            /* unwind.c: the program links the C++ unwinder */
hidden void __green_all_remove(struct green_thread *);  /* thread.c: off the list of all threads */
hidden const char *__green_name(struct green_thread *); /* report.c: "thread 3 (name)" */
hidden uint64_t __green_sigbits(const sigset_t *);  /* signal.c: a sigset_t as 64 bits */
hidden void __green_cancel_point(void);         /* acts on a pending cancel */
/*
 * A wait that is a cancellation point: the thread is marked for its
 * length, so that pthread_cancel ends it with ECANCELED (cancel.c,
 * sched.c); the caller acts on that with __green_cancel_point once it
 * has left its no-preempt section.  With cp 0 it is an ordinary wait.
 * Every such wait in the library is written with this.
 */
#define GREEN_CP_WAIT(cp, wait) __extension__ ({ \
	struct green_thread *cpw_self_ = __green_cur; \
	int cpw_on_ = (cp), cpw_r_; \
	if (cpw_on_) cpw_self_->canceling = 1; \
	cpw_r_ = (wait); \
	if (cpw_on_) cpw_self_->canceling = 0; \
	cpw_r_; })
hidden void __green_cancel_async(struct green_thread *); /* after a switch: asynchronous cancel */
hidden void __green_mutex_owner_died(struct green_thread *); /* robust mutexes of an exiting thread */
hidden void __green_pmutex_owner_died(struct green_thread *); /* ... and its robust shared ones */
hidden struct green_thread *__green_lookup(pthread_t);  /* registry.c */
hidden int __green_registry_add(struct green_thread *);
hidden void __green_registry_del(struct green_thread *);
hidden void __green_registry_reset(struct green_thread *self);
hidden int __green_sched_check(int policy, int prio);  /* thread_np.c: 0 or EINVAL */
hidden const char *__green_wait_name(enum gwait);

/* ---- diagnostics (report.c) */
hidden void __green_say(const char *fmt, ...);
hidden void __green_describe(struct green_thread *, char *buf, size_t len);

/* ---- seeded schedules (explore.c): GREEN_SCHED */
enum { GREEN_SCHED_OFF = 0, GREEN_SCHED_RANDOM = 1, GREEN_SCHED_PCT = 2 };
hidden void __green_explore_init(void);
hidden struct green_thread *__green_explore_pick(void);  /* off the run queue's top level */
hidden void __green_explore_point(int fine);    /* the running thread may be switched */
hidden void __green_explore_yielded(void);      /* sched_yield: PCT demotes the caller */
hidden void __green_explore_report(void);       /* the seed, steps and decision hash, once */
hidden int __green_vclock_jump(uint64_t deadline);  /* all blocked: move the virtual clock */
hidden void __green_vclock_idled(uint64_t deadline, uint64_t t0); /* after a real idle wait */
hidden int64_t __green_vclock_interval(int64_t ns); /* a real interval as a virtual one */
extern hidden uint64_t __green_vclock;

/* ---- environment (config.c) */
struct green_config {
	size_t stack_size;   /* GREEN_STACK_SIZE */
	int stack_mode;      /* GREEN_STACKS */
	long quantum_us;     /* GREEN_QUANTUM_MS, in microseconds */
	size_t region_size;  /* GREEN_COPIED_REGION */
	unsigned copied_hot; /* GREEN_COPIED_HOT */
	int sched_mode;      /* GREEN_SCHED: GREEN_SCHED_* */
	uint64_t sched_seed, sched_steps;
	int sched_depth;
	char sched_text[64]; /* the value, for the report */
	int aio_threads;     /* GREEN_AIO=threads: AIO by worker threads, never io_uring */
	int io_backend;      /* GREEN_IO: 0 automatic, else GREEN_IO_* (io.h) */
	int debug;           /* GREEN_DEBUG: released memory quarantined (quarantine.c) */
	int loaded;
};
extern hidden struct green_config __green_config;
hidden void __green_config_load(void);

/* pthread_t <-> green thread */
static inline struct green_thread *gt(pthread_t t) { return (struct green_thread *)(void *)t; }
static inline pthread_t gp(struct green_thread *t) { return (pthread_t)(void *)t; }

#endif
