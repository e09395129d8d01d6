/*
 * key.c — thread-specific data.
 *
 * A key is an index into every thread's PTHREAD_KEYS_MAX slots.  A
 * deleted key's stale values are cleared in every thread when the index
 * is handed out again, so a new key always starts out null (creation is
 * rare; reading and writing a value stay a load and a store).
 *
 * A thread's slots are zeroed at its first pthread_setspecific, not at
 * its creation (most threads never use them, and zeroing them was most
 * of the cost of a create): until then tsd_used is 0, and every slot
 * reads as null whatever the memory holds.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "base/gthread.h"
#include "base/section.h"
#include "thread/lifecycle.h"

static void (*dtor[PTHREAD_KEYS_MAX])(void *);
static unsigned char used[PTHREAD_KEYS_MAX];
static unsigned next_key;

static void no_dtor(void *p) { }

int __pthread_key_create(pthread_key_t *k, void (*d)(void *))
{
	unsigned i, j;
	GREEN_ENTER();
	for (i = 0; i < PTHREAD_KEYS_MAX; i++) {
		j = (next_key + i) % PTHREAD_KEYS_MAX;
		if (!used[j]) {
			used[j] = 1;
			dtor[j] = d ? d : no_dtor;
			next_key = j + 1;
			*k = j;
			/* values of a recycled key start out null everywhere */
			for (struct green_thread *t = __green_all; t; t = t->all_next)
				if (t->tsd_used) t->tsd[j] = 0;
			GREEN_LEAVE();
			return 0;
		}
	}
	GREEN_LEAVE();
	return EAGAIN;
}

int __pthread_key_delete(pthread_key_t k)
{
	if (k >= PTHREAD_KEYS_MAX || !used[k]) return EINVAL;
	GREEN_ENTER();
	used[k] = 0;
	dtor[k] = 0;
	GREEN_LEAVE();
	return 0;
}

weak_alias(__pthread_key_create, pthread_key_create);
weak_alias(__pthread_key_delete, pthread_key_delete);

void *pthread_getspecific(pthread_key_t k)
{
	struct green_thread *self = __green_cur;
	if (k >= PTHREAD_KEYS_MAX || !self->tsd_used) return 0;
	return self->tsd[k];
}
weak_alias(pthread_getspecific, tss_get);

int pthread_setspecific(pthread_key_t k, const void *v)
{
	struct green_thread *self = __green_cur;
	if (k >= PTHREAD_KEYS_MAX || !used[k]) return EINVAL;
	if (!self->tsd_used) {
		if (!self->tsd) self->tsd = malloc(PTHREAD_KEYS_MAX * sizeof(void *));
		if (!self->tsd) return ENOMEM;
		memset(self->tsd, 0, PTHREAD_KEYS_MAX * sizeof(void *));
		self->tsd_used = 1;
	}
	self->tsd[k] = (void *)v;
	return 0;
}

int tss_set(unsigned k, void *v)
{
	return pthread_setspecific(k, v) ? 2 /* thrd_error */ : 0;
}

/* POSIX: up to PTHREAD_DESTRUCTOR_ITERATIONS passes while values remain. */
static __attribute__((noinline)) void run_dtors(struct green_thread *t)
{
	int pass, i, again;
	for (pass = 0; pass < PTHREAD_DESTRUCTOR_ITERATIONS; pass++) {
		again = 0;
		for (i = 0; i < PTHREAD_KEYS_MAX; i++) {
			void *v = t->tsd[i];
			void (*d)(void *);
			/* the key's state read with preemption held off: a
			 * pthread_key_delete between the test and the call would
			 * leave a null, or another key's, destructor.  A bare
			 * depth step, not GREEN_ENTER/LEAVE: no scheduling point
			 * here (a tick deferred meanwhile is taken at the next) */
			green_np_up();
			d = v && used[i] ? dtor[i] : 0;
			green_np_down();
			if (!d) continue;
			t->tsd[i] = 0;
			d(v);
			again = 1;
		}
		if (!again) break;
	}
}

/* pthread_exit's last per-thread clean-up (create.c): the destructors,
 * only if the thread ever set a value, then the robust mutexes the
 * thread still holds pass on owner-dead. */
hidden void __green_tsd_run_dtors(struct green_thread *t)
{
	if (t->tsd_used) run_dtors(t);
	if (t->mheld) __green_mutex_owner_died(t);
	__green_pmutex_owner_died(t);
}

/* musl's timer_create refers to this name (weakly): the keys' destructors
 * of a SIGEV_THREAD timer's thread. */
hidden void __pthread_tsd_run_dtors(void)
{
	green_tsd_run_dtors(__green_cur);
}
