/*
 * gthread.h — the green thread: its descriptor, its states and what it
 * waits on, who writes which field, and the running thread.
 *
 * Ownership, in one paragraph: there is one kernel thread.  All fields
 * below are touched only by whichever green thread is running, inside a
 * no-preempt section when a preemption could observe them half-updated
 * (GREEN_ENTER/GREEN_LEAVE, section.h).  No atomics are needed for that.
 * Atomic read-modify-writes are used where a plain load and store could
 * lose another's change: words that signal handlers change too (deliver.c's
 * 64-bit sets: green_bits_or/green_bits_clear, gsignal.h; __green_pending
 * needs none, being a byte per flag), counters changed
 * outside a no-preempt section (src/stubs/vmlock.c, __wait.c), and
 * the words of process-shared objects, which other processes change
 * (sem.c, pmutex.c, and the shared paths of cond.c, rwlock.c and
 * barrier.c).
 */
#ifndef GREEN_GTHREAD_H
#define GREEN_GTHREAD_H
#include "base/seam.h"

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
	GW_EXIT,        /* the process's end: another thread runs exit() (procexit.c) */
	GW_FUTEX,       /* a word of the program's own, by syscall(SYS_futex) (kfutex.c) */
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

#define GREEN_NODE_WAITING 0x80
#define green_node_waiting(events) (GREEN_NODE_WAITING | ((events) & 0x7f))

/* One thread's interest in one descriptor, on that descriptor's list
 * (src/sysio/epoll.c, peer.c) and on the list of every linked node
 * (__green_io_linked: select and poll gather the usual waits from it)
 * while linked.  A thread's own node (green_thread.io_node) stays linked
 * after its wait, for the next one on the same descriptor
 * (src/sysio/io.h); waiting says whether it is in a wait now, and for
 * what: 0 when not, else GREEN_NODE_WAITING with the events' low bits
 * (EPOLLIN..EPOLLRDNORM), so that a writer's wake (peer.c) asks
 * "waiting to read?" with one test. */
struct green_io_node {
	struct green_io_node *next, *prev;   /* prev 0: the list's head */
	struct green_thread *t;
	int fd;
	unsigned events;                     /* EPOLL* bits */
	unsigned char linked, waiting;
	struct green_io_node *lnext, *lprev; /* every linked node; lprev 0: the first */
};

/* Why a thread's calls keep off the fast I/O paths (green_thread.io_slow,
 * one byte, so that those paths look once): the library not threaded
 * yet (the initial thread's, until __green_init ends: create.c), all
 * signals blocked in the kernel (kcrit: sigcalls.c), a cancel pending
 * (cancel.c), a run recorded or replayed (every thread's, from its
 * start: create.c; the fast paths' system calls skip the recorder's
 * test, fastio.h).  Set and cleared with the fields they stand for. */
enum { GREEN_SLOW_UNSTARTED = 1, GREEN_SLOW_KCRIT = 2, GREEN_SLOW_CANCEL = 4, GREEN_SLOW_RECORD = 8 };

/* Stack modes (green_thread.stack_mode). */
enum { GREEN_STACK_SEPARATE = 0, GREEN_STACK_COPIED = 1 };

#define GREEN_MAGIC 0x6772656eu /* "gren" */
/* A thread's id (its tid: gettid()'s, and the owner id of the libc's
 * locks; tid.c), from GREEN_TID_FIRST up, wrapping before GREEN_TID_LAST
 * (which keeps its CPU clock id in range): 2^22 is PID_MAX_LIMIT on
 * 64-bit Linux, so no process or kernel thread on the machine has such
 * an id.  The initial thread's is its kernel tid, the pid. */
#define GREEN_TID_FIRST 0x400000
#define GREEN_TID_LAST 0x3ffffff0

/*
 * Who writes which field of a thread descriptor, and when.  One kernel
 * thread runs all the code, so the question is which code, on behalf of
 * which thread, in which state.  The rule that makes it safe: a write to
 * a descriptor other than the running thread's own is made inside a
 * no-preempt section (GREEN_ENTER, or the catcher, which dispatches at a
 * non-zero depth), and so is a write to its own that a waker also reads.
 *
 *   creator (create.c, separate.c, tls.c), before the thread first runs:
 *       magic, id, tcb, tp, tid, fp, start, arg, c11, detached (as
 *       asked), every stack field, policy, prio, level, sigmask (its own
 *       copied); the allocator zeroes what comes before start
 *       (GREEN_THREAD_ZEROED), and every field after it is one of these
 *       or written before it is read
 *   the registry (registry.c), inside a section: reg_at, as the thread
 *       enters and as a removal moves it
 *   the switch (switch.c, copied.c, arch), on the outgoing/incoming
 *   thread: sp, np, tid, errno_val and locale (shared-TCB binding), dtv
 *       (shared-TCB binding after a dlopen that added TLS: dtv.c),
 *       save, save_len, save_cap, started, cpu_ns (cputime.c)
 *   the thread itself, RUNNING: wait, wait_obj, wait_aux, waddr,
 *       wbits, deadline (as it starts a wait, sched.c, futex.c,
 *       kfutex.c, cond.c),
 *       cancel_disable, cancel_async, canceling (GREEN_CP_WAIT), cleanup,
 *       tsd, tsd_used, mheld, sigwait_set, kcrit, result (at exit),
 *       sigmask (pthread_sigmask, and around its handlers)
 *   a waker (any running thread, the tick, the catcher), while the
 *   thread is BLOCKED: state, wake, wait and wait_obj (cleared),
 *       q and its links, heap_idx (timer.c); a requeue moves waddr
 *       and wait_obj to the other word (futex.c); for a hand-over
 *       also what it hands: rdlocks (rwlock.c), sigwait_got,
 *       sigwait_si, intr_at
 *   the scheduler, in any state: state, q, q_next, q_prev (run queue),
 *       computing (the tick as it preempts the thread; a wake clears it)
 *   any thread, in any state: cancel_pending (pthread_cancel), name,
 *       detached (pthread_detach), joiner (its joiner), policy, prio
 *       (pthread_setschedparam; the run or wait queue re-sorted), boost
 *       (priority inheritance, mutex.c), sigpend and sigq (pthread_kill,
 *       the catcher; the thread takes them off), xprio (explore.c)
 *   exit and reaping (create.c, switch.c): all_next, all_prev,
 *       reap_next, magic (cleared when the descriptor is freed)
 *   a dlopen that adds TLS (dtv.c, in its section, with no thread being
 *       created): dtv of every other thread, while threads share a TCB
 *   run_handler (deliver.c) saves and restores wake, canceling and
 *       wait_aux around a handler, which may wait itself.
 */
/* The libc's per-thread state that only one member each reaches: kept
 * in the descriptor in both TCB modes, written by those members alone
 * (src/members: h_errno.c, dlerror.c, ftrylockfile.c), each for the
 * running thread, through green_libc_local(); the core only zeroes it
 * and frees the message as the thread ends (create.c). */
struct green_libc_local {
	int h_errno_val;               /* h_errno */
	unsigned char dlerror_flag;    /* the message not yet returned by dlerror */
	void *dlerror_buf;             /* dlerror's message, freed as the thread ends */
	void *stdio_locks;             /* FILEs it holds by flockfile */
};

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
	uint64_t sigmask;              /* this thread's mask (deliver.c) */
	uint64_t sigpend;              /* directed at this thread, not yet delivered */

	/* Shallow binding, when threads share one TCB: the libc keeps tid,
	 * errno and the locale per thread; while this thread is not running
	 * its values live here (switch.h, the seam).  With TCBs of their own
	 * only tid is used.  tid and errno_val are side by side, as in musl's
	 * TCB, so that the pair moves as one (the seam). */
	int tid;                       /* gettid(), the FILE-lock owner id (tid.c) */
	int errno_val;
	locale_t locale;
	/* The libc's other per-thread state (green_libc_local), zero in a
	 * new thread. */
	struct green_libc_local libc;

	enum gwait wait;               /* valid while BLOCKED */
	unsigned wbits;                /* an address wait's FUTEX_WAIT_BITSET bits (kfutex.c), 0: any wake */
	const void *wait_obj;
	void *wait_aux;                /* cond wait: the mutex to re-acquire */
	int wake;                      /* why the last wait ended: 0, ETIMEDOUT, EINTR, ECANCELED */
	unsigned char mx_handoff;      /* queued for a mutex after losing it once: the next
	                                  unlock hands it over (mutex.c) */

	/* Queue links: a thread is on at most one queue (run or wait). */
	struct green_thread *q_next, *q_prev;
	struct gq *q;

	/* Timer heap (timer.c): index+1 in the heap, 0 when absent (the
	 * deadline is at the end). */
	size_t heap_idx;

	/* Address waits (futex.c). */
	const volatile void *waddr;

	/* Lifecycle (create.c; what the creator sets is at the end). */
	struct green_thread *joiner;
	char name[16];

	/* Cancellation (cancel.c; its flags are in the first line). */
	void *cleanup;                 /* newest cleanup handler, in the libc's layout */
	void *unwind;                  /* where pthread_exit's unwinding lands (unwind.c), or 0 */

	/* Scheduling (runq.h; policy, prio and level are at the end): boost
	 * is the level lent by priority inheritance (mutex.c), 0 when none. */
	int boost;
	int rdlocks;                   /* read locks held (rwlock.c) */
	void *mheld;                   /* robust/PI mutexes held (mutex.c) */

	uint64_t xprio;                /* PCT or POS priority under GREEN_SCHED, 0 until seen (explore.c);
	                                * class: its place among those sent behind their class (classpct.c) */
	uint64_t cpu_ns;               /* CPU time charged to it, once accounting is on (cputime.c) */

	/* Copied stacks (copied.c): the saved live stack [sp, top). */
	void *save;
	size_t save_len, save_cap;
	unsigned char started;         /* its first frame exists (__green_thread_frame, create.c) */
	unsigned char hot;             /* its slot is mapped, its frames in place */
	unsigned short hot_at;         /* its place in the ring of hot threads */
	unsigned char shared;          /* its slot has had another thread (32-bit: copied.c) */

	/* Thread-specific data (key.c; the slots' address is at the end):
	 * PTHREAD_KEYS_MAX slots, lazy. */
	unsigned char tsd_used;

	/* Signals (deliver.c; sigmask and sigpend are in the first line):
	 * bit s-1 of a set stands for signal s. */
	unsigned char intr_restart;    /* the last handler that interrupted had SA_RESTART */
	unsigned char kcrit;           /* all signals blocked in the kernel (posix_spawn) */
	unsigned char io_slow;         /* GREEN_SLOW_*: why its calls keep off the fast I/O
	                                  paths (src/sysio/fastio.h); 0 for most */
	unsigned char in_tick;         /* in the tick handler that preempted it (tick.c) */
	unsigned char computing;       /* it left the CPU last by a tick's preemption, not by
	                                  waiting: runnable, it queues behind threads that
	                                  slept (runq.h); set by the tick, cleared by a wake */
	unsigned char passes;          /* runnable: threads queued ahead of it in this wait for
	                                  the CPU, sleepers and threads another woke (runq.h) */
	int sigwait_got;               /* the signal handed to the sigwait */
	struct green_sigl sigq;        /* their instances, oldest first (sigqueue.c) */
	uint64_t intr_at;              /* when a signal last interrupted its wait (ns) */
	uint64_t sigwait_set;          /* in sigwait/sigtimedwait for these */

#ifdef GREEN_SHARED
	/* The TLS of objects loaded at run time (dtv.c; green's libc.so
	 * only): while threads share one TCB and a loaded object has TLS,
	 * the thread's own DTV, which the switch installs in the TCB
	 * (GREEN_SWITCH_DTV) and saves as it leaves; and the memory of its
	 * DTV and TLS blocks when they are its own (the creator's), freed
	 * with the descriptor (separate.c). */
	uintptr_t *dtv;
	void *dyn_tls;
#endif

	/*
	 * Not zeroed at creation (GREEN_THREAD_ZEROED, below): from here on
	 * every field is set by the creator before the thread is seen
	 * (create.c, and every stack field by each allocator, separate.c and
	 * copied.c), or written before it is read.  A field that must start
	 * out zero goes above.
	 */
	void *(*start)(void *);
	void *arg;
	uintptr_t xevent;              /* POS: the access it stopped before, 0 if none; valid
	                                * once xprio is set, which sets it (explore.c, pos.c) */
	void *result;                  /* set as it exits */
	struct green_thread *all_next, *all_prev;
	unsigned reg_at;               /* its slot in the registry (registry.c) */
	unsigned char detached;
	unsigned char c11;             /* thrd_create: int result */

	/* Stack (separate.c). */
	unsigned char own_stack;       /* the mapping is ours to free */
	unsigned char user_stack;      /* pthread_attr_setstack */
	unsigned vg_id;                /* valgrind stack id */
	void *map_base;                /* mmap'd region including guard */
	size_t map_size;
	void *stack_lo;                /* lowest usable stack address */
	size_t stack_size;             /* usable bytes */
	size_t stack_asked;            /* the size the creator asked for (thread_np.c) */
	size_t guard_size;

	/* Thread-specific data: the slots, zeroed at the first use (key.c). */
	void **tsd;

	struct green_arch_fp fp;       /* the creator's floating-point control state */

	/* Scheduling: policy and priority as set, as the creator's or the
	 * attribute's; level is green_relevel's (runq.h). */
	int policy, prio;
	int level;                     /* run-queue level: green_relevel (runq.h) */

	uint64_t deadline;             /* CLOCK_MONOTONIC ns, while in the timer heap (timer.c) */

	/* Reap list link (switch.c), set as the thread goes on the list. */
	struct green_thread *reap_next;

	/* A single-descriptor wait's place on that descriptor's list
	 * (epoll.c), set up by the wait (io.c); linked 0 at creation
	 * (create.c), and unlinked as the thread exits. */
	struct green_io_node io_node;

	/* Written by the sender as it hands a signal to a sigwait (deliver.c). */
	siginfo_t sigwait_si;
};

/* The bytes of a descriptor that start out zero: the rest is the
 * creator's to set (separate.c's carve zeroes these). */
#define GREEN_THREAD_ZEROED offsetof(struct green_thread, start)

/* ---- global state (sched.c) */
extern hidden struct green_thread *__green_cur;     /* the running thread */
extern hidden struct green_thread __green_main;     /* the initial thread */
extern hidden int __green_started;                  /* a second thread was ever created */
extern hidden int __green_live;                     /* threads not yet exited */
extern hidden struct green_thread *__green_all;     /* all threads, for gdb/reports */

/* true once green threads exist: stubs pass straight through until then */
static inline int green_active(void) { return __green_started; }

static inline struct green_thread *green_self(void)
{
	return __green_cur;
}

/* the running thread's libc state that members keep (struct green_libc_local) */
static inline struct green_libc_local *green_libc_local(void)
{
	return &__green_cur->libc;
}

/* pthread_t <-> green thread */
static inline struct green_thread *gt(pthread_t t) { return (struct green_thread *)(void *)t; }
static inline pthread_t gp(struct green_thread *t) { return (pthread_t)(void *)t; }

extern hidden int __green_pid;                   /* create.c, fork.c: to recognise a vfork child */
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

#endif
