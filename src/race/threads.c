/*
 * threads.c — threads as the race detector sees them: their records and
 * vector clocks, their shadow call stacks, the happens-before edges of
 * creation and join, and the threads left unjoined at exit (docs/race.md).
 *
 * pthread_create (wrapped) gives the new thread a record whose clock is a
 * copy of the creator's, then advances the creator's epoch: all the
 * creator did before the call happens before all the new thread does.
 * The thread starts in `start`, which binds the record to green's
 * descriptor and forgets the old accesses recorded on its stack and
 * thread-local block (memory that an exited thread may have used), then
 * calls the program's routine.  pthread_join and its timed and trying
 * variants (wrapped) join the finished thread's clock into the joiner's:
 * a finished thread's clock no longer moves, so it need not be saved at
 * exit.  A detached thread gives no edge.  Threads that green starts
 * itself (not through pthread_create: AIO workers, a SIGEV_THREAD timer's
 * notifications) get a record on their first access, with no edge from
 * anybody.
 *
 * Threads are numbered as ThreadSanitizer numbers them, T0 (the main
 * thread) upwards in the order of creation; reports give green's id too.
 * At exit, a thread that finished but was neither joined nor detached is
 * a thread leak (ThreadSanitizer's report, one per creation site).
 *
 * The shadow call stack: gcc calls __tsan_func_entry(caller's pc) at the
 * start of every instrumented function and __tsan_func_exit() at its end
 * (on the way out of a C++ exception too).  A longjmp over instrumented
 * frames leaves them on it; they are dropped when the stack is deeper
 * than RACE_STACK_MAX.
 */
#include <pthread.h>
#include <threads.h>
#include <string.h>
#include <unistd.h>
#include "race.h"
#include "stack/gstack.h"
#include "base/report.h"

hidden struct race_thread **__race_threads;
hidden unsigned __race_nthreads;
static unsigned threads_cap;
static struct race_thread **by_gid;     /* green id -> record */
static unsigned by_gid_cap;
hidden struct race_thread *__race_cache;
hidden uintptr_t __race_text;
static int inited;

extern char __executable_start[] __attribute__((__weak__));

hidden uint32_t __race_pc(const void *ret)
{
	return (uint32_t)((uintptr_t)ret - 1 - __race_text);
}

static struct race_thread *new_thread(void)
{
	struct race_thread *r = __race_alloc(sizeof *r);
	if (__race_nthreads > RACE_MAX_TID) {
		__green_say("green: race detector: more than %u threads\n", RACE_MAX_TID + 1);
		_Exit(1);
	}
	if (__race_nthreads == threads_cap) {
		unsigned cap = threads_cap ? threads_cap * 2 : 64;
		struct race_thread **t = __race_alloc(cap * sizeof *t);
		if (threads_cap) memcpy(t, __race_threads, threads_cap * sizeof *t);
		__race_threads = t;
		threads_cap = cap;
	}
	r->tid = __race_nthreads;
	__race_threads[__race_nthreads++] = r;
	r->stack = __race_alloc(RACE_STACK_MAX * sizeof *r->stack);
	__race_vc_set(&r->vc, r->tid, 1);
	return r;
}

static void bind(struct race_thread *r, struct green_thread *g)
{
	if (g->id >= by_gid_cap) {
		unsigned cap = by_gid_cap ? by_gid_cap : 256;
		struct race_thread **t;
		while (cap <= g->id) cap *= 2;
		t = __race_alloc(cap * sizeof *t);
		if (by_gid_cap) memcpy(t, by_gid, by_gid_cap * sizeof *t);
		by_gid = t;
		by_gid_cap = cap;
	}
	by_gid[g->id] = r;
	r->g = g;
	r->gid = g->id;
	__race_cache = r;
}

hidden void __race_init(void)
{
	if (inited) return;
	inited = 1;
	__race_text = __executable_start ? (uintptr_t)__executable_start : 0;
	__race_options_init();
	bind(new_thread(), &__green_main);
}

hidden void *__race_thread_start(void *);
static int start_c11(void *);

hidden struct race_thread *__race_self_slow(void)
{
	struct green_thread *g = __green_cur;
	struct race_thread *r;
	race_enter();
	__race_init();
	r = g->id < by_gid_cap ? by_gid[g->id] : 0;
	if (!r || r->g != g) {
		/* a thread of pthread_create's about to start (green may run
		 * its own work, reaping, on it first), else one green started
		 * by itself */
		if ((g->start == __race_thread_start || g->start == (void *(*)(void *))(void (*)(void))start_c11) && g->arg)
			r = g->arg;
		else
			r = new_thread();
		bind(r, g);
	}
	__race_cache = r;
	race_leave();
	return r;
}

void __tsan_init(void)
{
	race_enter();
	__race_init();
	race_leave();
}

/* The stack of the running function (its frame included, not the pc of
 * the access itself), interned on first use. */
hidden uint32_t __race_top_node(struct race_thread *t)
{
	unsigned d = t->depth < RACE_STACK_MAX ? t->depth : RACE_STACK_MAX, k;
	uint32_t n;
	if (!d) return 0;
	if (t->stack[d - 1].node) return t->stack[d - 1].node;
	for (k = d - 1; k > 0 && !t->stack[k - 1].node; k--) {}
	n = k ? t->stack[k - 1].node : 0;
	for (; k < d; k++) t->stack[k].node = n = __race_node(n, t->stack[k].pc);
	return n;
}

/* The same, and the locks the thread holds: a node whose pc names the
 * lockset, above the stack (print.c reads it back). */
hidden uint32_t __race_ctx(struct race_thread *t)
{
	uint32_t n = __race_top_node(t);
	if (!t->lockset) return n;
	if (t->ctx && t->ctx_node == n && t->ctx_set == t->lockset) return t->ctx;
	t->ctx_node = n;
	t->ctx_set = t->lockset;
	return t->ctx = __race_node(n, RACE_LOCKSET_PC | t->lockset);
}

hidden void __race_entry(struct race_thread *t, const void *fn, const void *ret,
                         uint32_t *node, uint32_t *pc)
{
	*node = __race_node(__race_ctx(t), __race_pc(ret));
	*pc = (uint32_t)((uintptr_t)fn - __race_text);
}

void __tsan_func_entry(void *pc)
{
	struct race_thread *t = race_self();
	unsigned d = t->depth++;
	if (d < RACE_STACK_MAX) {
		t->stack[d].pc = __race_pc(pc);
		t->stack[d].node = 0;
	}
}

void __tsan_func_exit(void)
{
	struct race_thread *t = race_self();
	if (t->depth) t->depth--;
}

/* ---- creation and join */

/* A thread's thread-local block: with copied stacks it lives in the
 * descriptor's heap block, which the library frees inside the joiner's
 * pthread_join, before the join's edge: what the thread did there is
 * forgotten when it exits, so that the free does not race with it. */
static void forget_tls(struct green_thread *g)
{
	if (__green_tls_bytes && g->tcb && g->tcb != __green_main.tcb)
		__race_shadow_reset((uintptr_t)g->tcb - __green_tls_bytes, 2 * __green_tls_bytes);
}

/* Forget what exited threads did in the memory this one now owns: its
 * stack mapping (the thread-local block sits at its top), or its stack
 * (a copied-stack thread's slot, reused from an exited one) and its
 * thread-local block. */
static void fresh_memory(struct green_thread *g)
{
	if (g->stack_mode == GREEN_STACK_SEPARATE && g->map_base)
		__race_shadow_reset((uintptr_t)g->map_base, g->map_size);
	else if (g->stack_lo)
		__race_shadow_reset((uintptr_t)g->stack_lo, g->stack_size);
	forget_tls(g);
}

static void exiting(void)
{
	race_enter();
	forget_tls(__green_cur);
	race_self()->exited = 1;
	race_leave();
}

hidden void *__race_thread_start(void *p)
{
	struct race_thread *r = p;
	race_enter();
	bind(r, __green_cur);
	fresh_memory(__green_cur);
	race_leave();
	p = r->fn(r->arg);
	exiting();
	return p;
}

static int start_c11(void *p)
{
	return (int)(intptr_t)__race_thread_start(p);
}

/* The creator's half: the new thread's record, clock and creation site. */
static struct race_thread *creating(void *(*fn)(void *), void *arg, int detached,
                                    const void *entry, const void *ret)
{
	struct race_thread *me, *r;
	race_enter();
	me = race_self();
	r = new_thread();
	__race_vc_copy(&r->vc, &me->vc);
	__race_vc_set(&r->vc, r->tid, 1);
	r->creator = me->tid;
	__race_entry(me, entry, ret, &r->create_node, &r->create_pc);
	r->fn = fn;
	r->arg = arg;
	r->created = 1;
	r->detached = detached;
	__race_tick(me);
	race_leave();
	return r;
}

/* pthread_t -> record, for join: the thread's descriptor is its pthread_t.
 * The descriptor may be gone once the thread is joined (it lives in the
 * stack mapping), so it is compared, never read; the newest record with it
 * is the thread's (descriptors are reused). */
hidden struct race_thread *__race_of_pthread(pthread_t th)
{
	struct green_thread *g = (struct green_thread *)th;
	unsigned i;
	for (i = __race_nthreads; i-- > 0; )
		if (__race_threads[i]->g == g) return __race_threads[i];
	return 0;
}

static void joined(pthread_t th)
{
	struct race_thread *me, *r;
	race_enter();
	me = race_self();
	if ((r = __race_of_pthread(th))) {
		__race_vc_join(&me->vc, &r->vc);
		r->joined = 1;
	}
	race_leave();
}

int __real_pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
int __wrap_pthread_create(pthread_t *res, const pthread_attr_t *attr,
                          void *(*fn)(void *), void *arg)
{
	struct race_thread *r;
	int err, ds = PTHREAD_CREATE_JOINABLE;
	if (!fn) return __real_pthread_create(res, attr, fn, arg);   /* its EINVAL */
	if (attr) pthread_attr_getdetachstate(attr, &ds);
	r = creating(fn, arg, ds == PTHREAD_CREATE_DETACHED, (const void *)__real_pthread_create,
	             __builtin_return_address(0));
	err = __real_pthread_create(res, attr, __race_thread_start, r);
	if (err) r->created = 0;
	else if (!r->g) r->g = (struct green_thread *)*res;   /* bound for join until it starts */
	return err;
}

int __real_thrd_create(thrd_t *, thrd_start_t, void *);
int __wrap_thrd_create(thrd_t *res, thrd_start_t fn, void *arg)
{
	struct race_thread *r;
	int err;
	if (!fn) return __real_thrd_create(res, fn, arg);
	r = creating((void *(*)(void *))(void (*)(void))fn, arg, 0, (const void *)__real_thrd_create,
	             __builtin_return_address(0));
	err = __real_thrd_create(res, start_c11, r);
	if (err != thrd_success) r->created = 0;
	else if (!r->g) r->g = (struct green_thread *)*res;
	return err;
}

#define JOIN_WRAP(name, params, args) \
	RACE_AFTER(int, name, params, args, 0, joined(th))
JOIN_WRAP(pthread_join, (pthread_t th, void **res), (th, res))
JOIN_WRAP(pthread_tryjoin_np, (pthread_t th, void **res), (th, res))
JOIN_WRAP(pthread_timedjoin_np, (pthread_t th, void **res, const struct timespec *ts), (th, res, ts))
JOIN_WRAP(pthread_clockjoin_np, (pthread_t th, void **res, clockid_t c, const struct timespec *ts), (th, res, c, ts))

RACE_AFTER(int, thrd_join, (thrd_t th, int *res), (th, res), thrd_success, joined((pthread_t)th))

static void detached(pthread_t th)
{
	struct race_thread *r;
	race_enter();
	if ((r = __race_of_pthread(th))) r->detached = 1;
	race_leave();
}
RACE_AFTER(int, pthread_detach, (pthread_t th), (th), 0, detached(th))
RACE_AFTER(int, thrd_detach, (thrd_t th), (th), thrd_success, detached((pthread_t)th))

/* The name a report gives the thread after it is gone. */
int __real_pthread_setname_np(pthread_t, const char *);
int __wrap_pthread_setname_np(pthread_t th, const char *name)
{
	int err = __real_pthread_setname_np(th, name);
	struct race_thread *r;
	if (err) return err;
	race_enter();
	if ((r = __race_of_pthread(th))) {
		strncpy(r->name, name, sizeof r->name - 1);
		r->name[sizeof r->name - 1] = 0;
	}
	race_leave();
	return 0;
}

_Noreturn void __real_pthread_exit(void *);
_Noreturn void __wrap_pthread_exit(void *v)
{
	exiting();
	__real_pthread_exit(v);
}

_Noreturn void __real_thrd_exit(int);
_Noreturn void __wrap_thrd_exit(int v)
{
	exiting();
	__real_thrd_exit(v);
}

/* fork: the child has only the caller, which happens after everything
 * every thread did before the fork; it starts with no race reported (its
 * exit status is its own) and with no thread of its own to leak. */
pid_t __real_fork(void);
pid_t __wrap_fork(void)
{
	pid_t pid = __real_fork();
	unsigned i;
	if (pid == 0) {
		struct race_thread *me;
		race_enter();
		me = race_self();
		for (i = 0; i < __race_nthreads; i++) {
			__race_vc_join(&me->vc, &__race_threads[i]->vc);
			if (__race_threads[i] != me) __race_threads[i]->detached = 1;
		}
		__race_nreports = 0;
		race_leave();
	}
	return pid;
}
