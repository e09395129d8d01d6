/*
 * annotate.c — ThreadSanitizer's source annotations, for programs that
 * use them (docs/race.md): the dynamic annotations (AnnotateHappensBefore,
 * AnnotateBenignRaceSized, ..., as Chromium's and Abseil's
 * dynamic_annotations.h declare them), __tsan_acquire/__tsan_release, the
 * mutex annotations (__tsan_mutex_*) with which a lock written by the
 * program (Abseil's Mutex, folly's SharedMutex) says what it does, and
 * the external-object accesses.  They mean what they mean under
 * ThreadSanitizer:
 *
 *   AnnotateHappensBefore/After(addr)   a release into / acquire from the
 *                                       clock at addr (__tsan_release,
 *                                       __tsan_acquire)
 *   AnnotateBenignRace(Sized)           no report of a race on the range
 *   AnnotateIgnoreReads/WritesBegin/End the thread's reads / writes are
 *                                       not checked in between (nested)
 *   AnnotateIgnoreSyncBegin/End         nor are its edges made
 *   AnnotateRWLock*                     a lock's creation, destruction,
 *                                       acquire and release
 *   AnnotateThreadName                  pthread_setname_np for the report
 *   __tsan_mutex_create/destroy         the lock's creation (a write of
 *                                       its first byte, unless
 *                                       linker-initialised) and end
 *   __tsan_mutex_pre/post_lock,         the lock and unlock edges; the
 *   __tsan_mutex_pre/post_unlock        lock's own accesses in between
 *                                       are not checked; pre_unlock
 *                                       returns the recursion it undid
 *   __tsan_mutex_pre/post_signal,       around a wake-up made inside the
 *   __tsan_mutex_pre/post_divert        lock (ignored), and around user
 *                                       code called from inside it
 *                                       (checked again)
 *
 * The rest (AnnotateCondVar*, AnnotateNewMemory, AnnotatePCQ*, the WTF
 * happens-before pair, ...) do nothing, as in ThreadSanitizer.  Every
 * definition here is weak, so that a program defining one of these names
 * itself keeps its own.
 */
#include <string.h>
#include "race.h"

#define RET __builtin_return_address(0)
#define WEAK __attribute__((__weak__))
#define ANN(name) void WEAK name

void __tsan_mutex_create(void *, unsigned);
void __tsan_mutex_post_lock(void *, unsigned, int);
void AnnotateRWLockAcquired(const char *, int, const volatile void *, long);

/* ---- benign ranges, consulted when a race is about to be reported */
struct range { uintptr_t lo, hi; };
static struct range *benign;
static size_t nbenign, benign_cap;

hidden int __race_benign(uintptr_t a, size_t size)
{
	size_t i;
	for (i = 0; i < nbenign; i++)
		if (a < benign[i].hi && a + size > benign[i].lo) return 1;
	return 0;
}

static void benign_add(const volatile void *mem, unsigned long size)
{
	race_enter();
	if (nbenign == benign_cap) {
		size_t cap = benign_cap ? benign_cap * 2 : 64;
		struct range *r = __race_alloc(cap * sizeof *r);
		if (nbenign) memcpy(r, benign, nbenign * sizeof *r);
		benign = r;
		benign_cap = cap;
	}
	benign[nbenign].lo = (uintptr_t)mem;
	benign[nbenign].hi = (uintptr_t)mem + (size ? size : 1);
	nbenign++;
	race_leave();
}

ANN(AnnotateBenignRaceSized)(const char *f, int l, const volatile void *mem, unsigned long size,
                             const char *desc)
{
	benign_add(mem, size);
}

ANN(WTFAnnotateBenignRaceSized)(const char *f, int l, const volatile void *mem,
                                unsigned long size, const char *desc)
{
	benign_add(mem, size);
}

ANN(AnnotateBenignRace)(const char *f, int l, const volatile void *mem, const char *desc)
{
	benign_add(mem, 1);
}

ANN(AnnotateExpectRace)(const char *f, int l, const volatile void *mem, const char *desc)
{
	benign_add(mem, 1);
}

/* ---- happens-before */
static void edge(const volatile void *addr, int release)
{
	struct race_thread *me;
	race_enter();
	me = race_self();
	if (release) __race_release(me, (const void *)addr);
	else __race_acquire(me, (const void *)addr);
	race_leave();
}

ANN(AnnotateHappensBefore)(const char *f, int l, const volatile void *addr) { edge(addr, 1); }
ANN(AnnotateHappensAfter)(const char *f, int l, const volatile void *addr) { edge(addr, 0); }
ANN(__tsan_release)(void *addr) { edge(addr, 1); }
ANN(__tsan_acquire)(void *addr) { edge(addr, 0); }

/* ---- ignoring */
static void count(unsigned *n, int by)
{
	if (by > 0 || *n) *n += by;   /* an unmatched End does nothing */
}

static void ignore(int reads, int writes, int sync, int by)
{
	struct race_thread *me = race_self();
	if (reads) count(&me->ign[0], by);
	if (writes) count(&me->ign[1], by);
	if (sync) count(&me->ign_sync, by);
}

ANN(AnnotateIgnoreReadsBegin)(const char *f, int l) { ignore(1, 0, 0, 1); }
ANN(AnnotateIgnoreReadsEnd)(const char *f, int l) { ignore(1, 0, 0, -1); }
ANN(AnnotateIgnoreWritesBegin)(const char *f, int l) { ignore(0, 1, 0, 1); }
ANN(AnnotateIgnoreWritesEnd)(const char *f, int l) { ignore(0, 1, 0, -1); }
ANN(AnnotateIgnoreSyncBegin)(const char *f, int l) { ignore(0, 0, 1, 1); }
ANN(AnnotateIgnoreSyncEnd)(const char *f, int l) { ignore(0, 0, 1, -1); }
ANN(__tsan_ignore_thread_begin)(void) { ignore(1, 1, 0, 1); }
ANN(__tsan_ignore_thread_end)(void) { ignore(1, 1, 0, -1); }

/* ---- locks written by the program */
enum {
	LINKER_INIT = 1 << 0, READ_LOCK = 1 << 3, TRY_LOCK_FAILED = 1 << 5,
	RECURSIVE_LOCK = 1 << 6, RECURSIVE_UNLOCK = 1 << 7,
};

static void created(void *m, int write, const void *ret)
{
	struct race_thread *me;
	race_enter();
	me = race_self();
	if (write && !me->ign[1]) {
		uint32_t node, pc;
		__race_entry(me, (const void *)__tsan_mutex_create, ret, &node, &pc);
		__race_access(me, (uintptr_t)m, 1, 1, 0, node, pc);
	}
	__race_mutex_created(me, m, (const void *)__tsan_mutex_create, ret);
	race_leave();
}

static void destroyed(void *m)
{
	race_enter();
	__race_mutex_destroyed(m);
	__race_sync_forget(m);
	race_leave();
}

static void lock(void *m, int write, int times, const void *fn, const void *ret)
{
	struct race_thread *me;
	struct race_sync *s;
	uint32_t mid;
	race_enter();
	me = race_self();
	s = __race_sync(m, 1);
	if (!me->ign_sync) {
		__race_vc_join(&me->vc, &s->vc);
		if (write) {
			__race_vc_join(&me->vc, &s->rvc);
			s->writer = me->tid + 1;
		}
	}
	mid = __race_mutex_of(me, s, fn, ret);
	while (times-- > 0) __race_locked(me, mid, write);
	race_leave();
}

/* returns the recursion undone */
static int unlock(void *m, int all)
{
	struct race_thread *me;
	struct race_sync *s;
	int n = 1;
	unsigned i;
	race_enter();
	me = race_self();
	s = __race_sync(m, 1);
	if (!me->ign_sync) {
		if (s->writer == me->tid + 1 || !s->writer) {
			s->writer = 0;
			__race_vc_join(&s->vc, &me->vc);
		} else {
			__race_vc_join(&s->rvc, &me->vc);
		}
		__race_tick(me);
	}
	if (s->mid) {
		if (all)
			for (i = 0; i < me->nheld; i++)
				if (me->held[i].mid == s->mid) n = me->held[i].count;
		for (i = n; i > 0; i--) __race_unlocked(me, s->mid);
	}
	race_leave();
	return n;
}

ANN(AnnotateRWLockCreate)(const char *f, int l, const volatile void *m) { created((void *)m, 1, RET); }
ANN(AnnotateRWLockCreateStatic)(const char *f, int l, const volatile void *m) { created((void *)m, 0, RET); }
ANN(AnnotateRWLockDestroy)(const char *f, int l, const volatile void *m) { destroyed((void *)m); }
ANN(AnnotateRWLockAcquired)(const char *f, int l, const volatile void *m, long w)
{
	lock((void *)m, !!w, 1, (const void *)AnnotateRWLockAcquired, RET);
}
ANN(AnnotateRWLockReleased)(const char *f, int l, const volatile void *m, long w)
{
	unlock((void *)m, 0);
}

ANN(__tsan_mutex_create)(void *m, unsigned flags) { created(m, !(flags & LINKER_INIT), RET); }
ANN(__tsan_mutex_destroy)(void *m, unsigned flags) { destroyed(m); }
ANN(__tsan_mutex_pre_lock)(void *m, unsigned flags) { ignore(1, 1, 1, 1); }
ANN(__tsan_mutex_post_lock)(void *m, unsigned flags, int rec)
{
	ignore(1, 1, 1, -1);
	if (!(flags & TRY_LOCK_FAILED))
		lock(m, !(flags & READ_LOCK), flags & RECURSIVE_LOCK && rec > 0 ? rec : 1,
		     (const void *)__tsan_mutex_post_lock, RET);
}
int WEAK __tsan_mutex_pre_unlock(void *m, unsigned flags)
{
	int n = unlock(m, !!(flags & RECURSIVE_UNLOCK));
	ignore(1, 1, 1, 1);
	return flags & RECURSIVE_UNLOCK ? n : 0;
}
ANN(__tsan_mutex_post_unlock)(void *m, unsigned flags) { ignore(1, 1, 1, -1); }
ANN(__tsan_mutex_pre_signal)(void *m, unsigned flags) { ignore(1, 1, 1, 1); }
ANN(__tsan_mutex_post_signal)(void *m, unsigned flags) { ignore(1, 1, 1, -1); }
ANN(__tsan_mutex_pre_divert)(void *m, unsigned flags) { ignore(1, 1, 1, -1); }
ANN(__tsan_mutex_post_divert)(void *m, unsigned flags) { ignore(1, 1, 1, 1); }

/* ---- names */
ANN(AnnotateThreadName)(const char *f, int l, const char *name)
{
	struct race_thread *me;
	race_enter();
	me = race_self();
	strncpy(me->name, name, sizeof me->name - 1);
	race_leave();
}

/* ---- external objects: an access of one byte at the object's address */
void *WEAK __tsan_external_register_tag(const char *name) { return (void *)1; }
ANN(__tsan_external_register_header)(void *tag, const char *header) {}
ANN(__tsan_external_assign_tag)(void *addr, void *tag) {}
static void external(void *addr, void *pc, int write)
{
	struct race_thread *me;
	race_enter();
	me = race_self();
	if (!me->ign[write]) __race_access(me, (uintptr_t)addr, 1, write, 0, RACE_NODE_LAZY, __race_pc((char *)pc + 1));
	race_leave();
}
ANN(__tsan_external_read)(void *addr, void *pc, void *tag) { external(addr, pc, 0); }
ANN(__tsan_external_write)(void *addr, void *pc, void *tag) { external(addr, pc, 1); }

/* ---- the rest: nothing, as in ThreadSanitizer */
#define NOTHING(name, ...) ANN(name)(const char *f, int l, ##__VA_ARGS__) {}
NOTHING(AnnotateCondVarSignal, const volatile void *cv)
NOTHING(AnnotateCondVarSignalAll, const volatile void *cv)
NOTHING(AnnotateCondVarWait, const volatile void *cv, const volatile void *lock)
NOTHING(AnnotateMutexIsNotPHB, const volatile void *mu)
NOTHING(AnnotateMutexIsUsedAsCondVar, const volatile void *mu)
NOTHING(AnnotateTraceMemory, const volatile void *mem)
NOTHING(AnnotateFlushState)
NOTHING(AnnotateNewMemory, const volatile void *mem, unsigned long size)
NOTHING(AnnotateNoOp, const volatile void *mem)
NOTHING(AnnotateFlushExpectedRaces)
NOTHING(AnnotateEnableRaceDetection, int enable)
NOTHING(AnnotatePCQGet, const volatile void *pcq)
NOTHING(AnnotatePCQPut, const volatile void *pcq)
NOTHING(AnnotatePCQDestroy, const volatile void *pcq)
NOTHING(AnnotatePCQCreate, const volatile void *pcq)
NOTHING(AnnotatePublishMemoryRange, const volatile void *mem, unsigned long size)
NOTHING(AnnotateUnpublishMemoryRange, const volatile void *mem, unsigned long size)
NOTHING(AnnotateMemoryIsInitialized, const volatile void *mem, unsigned long size)
NOTHING(AnnotateMemoryIsUninitialized, const volatile void *mem, unsigned long size)
NOTHING(WTFAnnotateHappensBefore, const volatile void *addr)
NOTHING(WTFAnnotateHappensAfter, const volatile void *addr)

int WEAK RunningOnValgrind(void) { return 0; }
double WEAK ValgrindSlowdown(void) { return 10.0; }
const char *WEAK ThreadSanitizerQuery(const char *query)
{
	return strcmp(query, "pure_happens_before") ? "0" : "1";
}
