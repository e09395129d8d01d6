/*
 * quarantine.c — GREEN_DEBUG: released memory of exited threads made
 * inaccessible, so that a late use faults and is named.
 *
 * Normally a joined (or exited detached) thread's stack mapping goes to
 * the stack cache and the next thread of that size gets it back at once;
 * a copied thread's descriptor goes back to malloc.  Anything that still
 * holds an address in that memory — the program (a pointer to a dead
 * thread's local), or green (a waker holding a freed descriptor) —
 * then reads or writes the new owner's memory, silently, and a crash
 * comes later and elsewhere, if at all.
 *
 * With GREEN_DEBUG=1 (docs/environment.md) that memory is quarantined
 * instead: its pages are given back to the kernel (MADV_DONTNEED) and
 * made PROT_NONE, the address range is kept, and the last QUARANTINE
 * releases are remembered with whose they were.  The first touch faults;
 * separate.c's SIGSEGV handler asks __green_quarantined whose memory it was
 * and names both threads.  A range leaves quarantine (unmapped) when
 * QUARANTINE newer ones have entered; nothing is reused while in it.
 */
#include <sys/mman.h>
#include <stdio.h>
#include <string.h>
#include "base/gthread.h"
#include "stack/gstack.h"

#define QUARANTINE 64

static struct released {
	char *base;
	size_t len;
	unsigned id;
	char name[16];
	const char *what;
} ring[QUARANTINE];
static unsigned next;

/* Quarantine [base, base+len), which was t's `what` (a stack, a
 * descriptor).  0, or -1 when it cannot be (the caller frees it). */
hidden int __green_quarantine(struct green_thread *t, void *base, size_t len, const char *what)
{
	struct released *r = &ring[next++ % QUARANTINE];
	unsigned id = t->id;
	char name[16];

	memcpy(name, t->name, sizeof name);   /* t may lie in the range */
	if (madvise(base, len, MADV_DONTNEED) || mprotect(base, len, PROT_NONE)) return -1;
	if (r->base) munmap(r->base, r->len);
	*r = (struct released){ base, len, id, "", what };
	memcpy(r->name, name, sizeof name);
	return 0;
}

/* Whose released memory holds a? Writes "the stack of exited thread 3
 * \"name\"" into buf and returns 1, or returns 0. */
hidden int __green_quarantined(const void *a, char *buf, size_t len)
{
	for (unsigned i = 0; i < QUARANTINE; i++) {
		const struct released *r = &ring[i];
		if (r->base && (const char *)a >= r->base && (const char *)a < r->base + r->len) {
			if (r->name[0])
				snprintf(buf, len, "the %s of exited thread %u \"%.15s\"", r->what, r->id, r->name);
			else
				snprintf(buf, len, "the %s of exited thread %u", r->what, r->id);
			return 1;
		}
	}
	return 0;
}
