/*
 * dtv.c — the TLS of objects a program loads as it runs (dlopen), one
 * instance per green thread.  Green's libc.so only (GREEN_SHARED): a
 * static program cannot load objects.
 *
 * Design
 * ------
 * musl reaches a loaded object's `__thread` variables through the
 * thread's DTV (dynamic thread vector), which the TCB points at: entry
 * 0 counts the modules with TLS, entry i is the address of module i's
 * block for this thread (__tls_get_addr reads it; so does the x86_64
 * TLS-descriptor path).  A thread created after a load gets every
 * module in its TLS block and DTV (__copy_tls, as for the executable's
 * own).  At a dlopen that adds modules with TLS, musl gives every
 * existing thread a longer DTV and blocks for the new modules, walking
 * its list of kernel threads (install_new_tls), with memory reserved
 * for libc.threads_minus_1 + 1 of them.  Green keeps that list to the
 * running thread and threads_minus_1 at 0 (musl.c), so musl serves the
 * thread that calls dlopen; green serves every other here, at the end
 * of the dlopen (__green_dtv_install, from lock_ptc.c's __release_ptc,
 * which dlopen calls still holding its lock, before the object's
 * constructors run and before dlopen returns a handle: no thread can
 * reach the new variables earlier).  Blocked, runnable, copied-stack
 * and not-yet-started threads are served alike; an exited one is
 * passed over.
 *
 * The two TCB modes of tls.c:
 *
 *   private   each thread's TCB has its own DTV: it is replaced by one
 *             of every module, the old blocks kept, new blocks made for
 *             the new modules.  Threads created later take the larger
 *             TLS size (__green_tls_bytes, read again here).
 *
 *   shared    the program started without TLS, so every thread runs on
 *             the initial TCB, and its one DTV would give every thread
 *             the same instance.  From the first load that adds TLS on,
 *             each thread has a DTV of its own (its descriptor's dtv,
 *             zero until then), and the switch binds the TCB's DTV
 *             shallowly, as it binds errno (GREEN_SWITCH_DTV: the
 *             switch's out-of-line path, switch.c).  A thread created
 *             later gets a DTV and blocks of every module, freed with
 *             its descriptor.
 *
 * Memory: one allocation per load for all the threads it serves, kept
 * for the life of the process, as musl keeps the memory it reserved for
 * its own threads in the loaded object's record (dlclose unloads
 * nothing in musl).  A failure to allocate at that point cannot fail
 * the dlopen any more (musl has committed to the object): green reports
 * it and aborts.
 *
 * No thread is created while a dlopen lays out TLS: pthread_create takes
 * musl's lock against that (__acquire_ptc, lock_ptc.c), as musl's does.
 * The walk runs in a no-preempt section; the allocation before it may
 * wait (malloc's lock), and a thread that exits meanwhile is simply not
 * served.
 */
#include <errno.h>
#include <stdlib.h>
#include "base/gthread.h"
#include "base/section.h"
#include "base/words.h"
#include "base/report.h"
#include "stack/gstack.h"

/* the modules with TLS that every thread's DTV has */
static size_t dtv_cnt;

/* every load's memory, for the life of the process */
struct install {
	struct install *next;
	/* the DTVs and blocks follow */
};
static struct install *installs;

static size_t round16(size_t n) { return (n + 15) & -(size_t)16; }

/* The DTV a thread runs with: its TCB's, or its own while threads
 * share one TCB (0 before the first load with TLS: no module). */
static uintptr_t *dtv_of(const struct green_thread *t)
{
	return __green_tls_bytes ? *green_tcb_dtv(t->tcb) : t->dtv;
}

static void dtv_set(struct green_thread *t, uintptr_t *dtv)
{
	if (__green_tls_bytes) *green_tcb_dtv(t->tcb) = dtv;
	else t->dtv = dtv;
}

/* A thread the load serves: alive, not the caller (musl served it), and
 * short of modules. */
static int serves(const struct green_thread *t, size_t cnt)
{
	const uintptr_t *d;
	if (t == __green_cur || t->state == GS_EXITED) return 0;
	d = dtv_of(t);
	return !d || d[0] < cnt;
}

static size_t bytes_for(const struct green_thread *t)
{
	const uintptr_t *d = dtv_of(t);
	return round16(green_dtv_bytes(d ? d[0] : 0));
}

static _Noreturn void no_memory(size_t n)
{
	__green_say("green: no memory for the thread-local storage of a loaded object "
	            "(%zu bytes for the program's threads): aborting\n", n);
	abort();
}

/* Every thread but the caller gets the modules a dlopen added (from
 * __release_ptc, at the end of dlopen; a cheap test otherwise). */
hidden void __green_dtv_install(void)
{
	size_t cnt = green_tls_modules(), n = 0;
	struct green_thread *t;
	struct install *mem;
	char *at;
	int err = 0;

	if (cnt == dtv_cnt) return;
	if (!green_active()) {   /* one thread, musl's own: tls.c chooses later */
		dtv_cnt = cnt;
		return;
	}
	for (t = __green_all; t; t = t->all_next)
		if (serves(t, cnt)) n += bytes_for(t);
	mem = calloc(1, round16(sizeof *mem) + n);   /* may wait: no walk open across it */
	if (!mem) no_memory(n);

	GREEN_ENTER();
	mem->next = installs;
	installs = mem;
	at = (char *)mem + round16(sizeof *mem);
	for (t = __green_all; t; t = t->all_next) {
		size_t b;
		if (!serves(t, cnt)) continue;
		b = bytes_for(t);
		if (b > n) break;   /* (a thread can only have exited since the count) */
		dtv_set(t, green_dtv_fill(at, dtv_of(t)));
		at += b;
		n -= b;
	}
	if (__green_tls_bytes) __green_tls_bytes = green_tls_bytes(&err);   /* for threads to come */
	else __green_switch_kind |= GREEN_SWITCH_DTV;
	dtv_cnt = cnt;
	GREEN_LEAVE();
}

/* Threads start (tls.c): the modules they start with. */
hidden void __green_dtv_init(void)
{
	dtv_cnt = green_tls_modules();
}

/* A new thread's fields (create.c, in its section): in the shared mode
 * after a load with TLS, a DTV and blocks of its own.  0, or EAGAIN. */
hidden int __green_dtv_new(struct green_thread *t)
{
	if (__green_tls_bytes || !(__green_switch_kind & GREEN_SWITCH_DTV)) return 0;
	t->dyn_tls = calloc(1, green_dtv_bytes(0));
	if (!t->dyn_tls) return EAGAIN;
	t->dtv = green_dtv_fill(t->dyn_tls, 0);
	return 0;
}

/* The descriptor is freed (separate.c). */
hidden void __green_dtv_free(struct green_thread *t)
{
	free(t->dyn_tls);
	t->dyn_tls = 0;
}
