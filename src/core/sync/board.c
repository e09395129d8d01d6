/*
 * board.c — the waiter board: who waits on a process-shared object, in
 * which order, across processes.
 *
 * A process-shared semaphore, mutex, condition variable or rwlock is a
 * few words in memory that several processes map; its waiters may be
 * green threads of any of them.  The kernel orders the waiters of a
 * futex word by the priority of their kernel threads, but here every
 * process is one kernel thread, and a green thread's priority is known
 * only to its own process.  So the waiters write it down where every
 * process can read it: one board per user, a small file in /dev/shm
 * (green-waiters-UID, mode 0600; green-waiters-be-UID on a big-endian
 * CPU) that each process maps on its first shared wait or wake.  The
 * objects are too small for a queue (musl's ABI fixes sizeof(sem_t) at
 * 16 bytes on 32-bit CPUs), so an object
 * keeps only an id word, drawn from the board's counter the first time
 * anyone waits on it; the board holds one slot per waiting thread:
 *
 *   state   the waiter's futex word (below); id of the object; the
 *   waiter's priority (its scheduling level, a boost included) and a
 *   ticket from the board's counter, taken when it first waited; its
 *   pid; flags the object kind gives meaning to (a writer, for rwlocks).
 *
 * Slot states:
 *
 *            join                    wake (by a waker, any process)
 *   FREE ─────────────▶ WAITING ─────────────────────────▶ WOKEN
 *    ▲                    │  ▲                               │
 *    │     leave          │  └──────── rejoin ───────────────┤
 *    ├────────────────────┘       (woken, lost the race:     │
 *    │                             same ticket)              │
 *    └──────────────────────── leave ────────────────────────┘
 *
 * Every change is a compare-and-swap on the state word, so a waker and
 * a waiter that gives up (timeout, signal, cancel) never both win: the
 * waiter's leave tells it whether it was woken first, and a semaphore's
 * or condition's waiter then passes the wake on (sem.c, cond.c).
 *
 * The waker picks the best WAITING slot of the object: the highest
 * priority, the lowest ticket among equals (FIFO), sets it WOKEN and
 * wakes its state word: greenly when the waiter is a thread of its own
 * process, with FUTEX_WAKE (shared) otherwise.  The waiter parks on its
 * slot's word with the process-shared wait (pshared.c): its process, if
 * idle, sleeps in futex_waitv on it; if busy, the waiter re-checks
 * every 1, 2, then 4 ms.  A waiter, woken or at a re-check, may take
 * the object only if fewer better slots of it are WAITING or WOKEN than
 * the object has units free (__green_board_turn): that keeps the order
 * when a re-check lands between a release and the chosen waiter's run,
 * when a waker looked at the board after such a re-check and woke a
 * second waiter for the one unit, and covers a waker that could not see
 * the board (below).
 *
 * A dead waiter.  A process killed while its threads wait leaves their
 * slots behind.  Whoever meets a slot of another process while picking
 * or re-checking asks the kernel whether its pid lives (kill(pid, 0));
 * a dead process's slot is freed, WAITING or WOKEN (a wake it never
 * used: the object's value or word is still there for the next, who
 * takes it at its re-check).  A join that finds no free slot frees
 * the slots of dead processes too, whatever their object (a killed
 * waiter of an object nobody waits on since is met by no pick).  A pid
 * reused before anybody looked makes a dead waiter look alive: its slot
 * is then woken in vain, once.
 *
 * Where the board is missing (no /dev/shm, a file of another layout, no
 * room: 511 slots; or two users sharing an object, each with a board of
 * their own), a waiter
 * parks on the object's own word as before and a waker that finds no
 * slot wakes that word: order is then the kernel's and the re-checks',
 * but no wake is lost.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/gthread.h"
#include "sched/runq.h"
#include "sync/addrwait.h"
#include "sync/board.h"

enum { S_FREE, S_CLAIM, S_WAITING, S_WOKEN };

struct gslot {
	volatile int state;
	volatile int id;
	int prio;
	unsigned ticket;
	int pid;
	int flags;
	int pad[2];
};

#define BOARD_BYTES 16384
#define NSLOTS (BOARD_BYTES / sizeof(struct gslot) - 1)

#define BOARD_MAGIC 0x67726231u       /* "grb1": this layout */

struct board {
	volatile unsigned magic;
	volatile unsigned next_id, next_ticket;
	volatile unsigned high;           /* slots ever used: scans stop there */
	unsigned pad[4];
	struct gslot s[NSLOTS];
};
_Static_assert(sizeof(struct board) == BOARD_BYTES, "board fills its file");

static struct board *bd;
static int bd_failed;

/* One board per user and byte order: the words are the CPU's (a
 * big-endian program under qemu-user shares the machine with native
 * ones, never an object). */
static void name(char *p, unsigned uid)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	static const char pre[] = "/dev/shm/green-waiters-be-";
#else
	static const char pre[] = "/dev/shm/green-waiters-";
#endif
	char d[12];
	int n = 0;

	for (unsigned i = 0; i < sizeof pre - 1; i++) *p++ = pre[i];
	do d[n++] = '0' + uid % 10; while (uid /= 10);
	while (n) *p++ = d[--n];
	*p = 0;
}

/* The board, mapped on first use; 0 where it cannot be. */
static struct board *board(void)
{
	char path[48];
	struct stat st;
	long fd;
	long long end;
	void *p;

	if (bd || bd_failed) return bd;
	name(path, __syscall(SYS_getuid));
	fd = __syscall(SYS_openat, AT_FDCWD, path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		bd_failed = 1;
		return 0;
	}
	/* the libc's fstat and ftruncate, whose off_t is 64 bits on every
	 * CPU: a raw SYS_ftruncate is ftruncate64 on a 32-bit one, which
	 * wants the length in two words */
	end = fstat((int)fd, &st) ? -1 : st.st_size;
	if (end >= 0 && end < BOARD_BYTES) end = ftruncate((int)fd, BOARD_BYTES) ? -1 : BOARD_BYTES;
	p = end < 0 ? MAP_FAILED : mmap(0, BOARD_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, (int)fd, 0);
	__syscall(SYS_close, fd);
	if (p == MAP_FAILED) {
		bd_failed = 1;
		return 0;
	}
	/* a new file is all zeros; one of another layout is left alone */
	__sync_bool_compare_and_swap(&((struct board *)p)->magic, 0, BOARD_MAGIC);
	if (((struct board *)p)->magic != BOARD_MAGIC) {
		munmap(p, BOARD_BYTES);
		bd_failed = 1;
		return 0;
	}
	return bd = p;
}

/* The object's id, drawn from the board the first time. */
static int object_id(struct board *b, volatile int *idw)
{
	int id = *idw, n;

	if (id) return id;
	do n = (int)__atomic_add_fetch(&b->next_id, 1, __ATOMIC_SEQ_CST);
	while (!n);
	if (!__sync_bool_compare_and_swap(idw, 0, n)) n = *idw;
	return n;
}

/* a before b: higher priority, then the earlier ticket */
static int better(const struct gslot *a, const struct gslot *b)
{
	return a->prio != b->prio ? a->prio > b->prio : (int)(a->ticket - b->ticket) < 0;
}

/* Another process's slot whose process is gone: freed. */
static int reclaim_dead(struct gslot *s, int st)
{
	if (s->pid == __green_pshared_pid() || __syscall(SYS_kill, s->pid, 0) != -ESRCH) return 0;
	__sync_bool_compare_and_swap(&s->state, st, S_FREE);
	return 1;
}

/* The best slot of object id in state st (and WOKEN too if `woken`)
 * whose flags & mask == want; dead ones are reclaimed on the way. */
static struct gslot *best(struct board *b, int id, int woken, int mask, int want)
{
	struct gslot *top = 0;
	unsigned hi = b->high;

	for (unsigned i = 0; i < hi && i < NSLOTS; i++) {
		struct gslot *s = &b->s[i];
		int st = __atomic_load_n(&s->state, __ATOMIC_ACQUIRE);
		if (!(st == S_WAITING || (woken && st == S_WOKEN)) || s->id != id) continue;
		if ((s->flags & mask) != want) continue;
		if (top && !better(s, top)) continue;
		if (reclaim_dead(s, st)) continue;
		top = s;
	}
	return top;
}

hidden struct gslot *__green_board_join(volatile int *idw, int flags)
{
	struct board *b = board();
	unsigned i, hi;

	if (!b) return 0;
	/* a free slot; failing that, one whose process is gone (a process
	 * killed while its threads waited on an object nobody waits on
	 * since: best() never meets those) */
	for (i = 0; i < 2 * NSLOTS; i++) {
		unsigned k = i % NSLOTS;
		struct gslot *s = &b->s[k];
		int st = s->state;
		if (st != S_FREE && (i < NSLOTS || st == S_CLAIM || !reclaim_dead(s, st))) continue;
		if (!__sync_bool_compare_and_swap(&s->state, S_FREE, S_CLAIM)) continue;
		s->id = object_id(b, idw);
		s->prio = green_level(__green_cur);
		s->ticket = __atomic_fetch_add(&b->next_ticket, 1, __ATOMIC_SEQ_CST);
		s->pid = __green_pshared_pid();
		s->flags = flags;
		while ((hi = b->high) <= k && !__sync_bool_compare_and_swap(&b->high, hi, k + 1))
			;
		__atomic_store_n(&s->state, S_WAITING, __ATOMIC_SEQ_CST);
		return s;
	}
	return 0;
}

hidden void __green_board_rejoin(struct gslot *s)
{
	s->prio = green_level(__green_cur);
	__atomic_store_n(&s->state, S_WAITING, __ATOMIC_SEQ_CST);
}

hidden int __green_board_leave(struct gslot *s)
{
	int was = S_WAITING;

	if (!__sync_bool_compare_and_swap(&s->state, S_WAITING, S_FREE)) {
		was = s->state;
		__atomic_store_n(&s->state, S_FREE, __ATOMIC_SEQ_CST);
	}
	return was == S_WOKEN;
}

hidden int __green_board_woken(const struct gslot *s)
{
	return s->state == S_WOKEN;
}

hidden int __green_board_park(struct gslot *s, uint64_t deadline, enum gwait kind,
                              const void *obj, unsigned *step)
{
	return __green_pshared_wait(&s->state, S_WAITING, deadline, kind, obj, step);
}

/* Wake one slot: WAITING -> WOKEN, then its word. */
static int wake_slot(struct gslot *s)
{
	if (!__sync_bool_compare_and_swap(&s->state, S_WAITING, S_WOKEN)) return 0;
	__green_pshared_wake(&s->state, 1, s->pid != __green_pshared_pid());
	return 1;
}

/* How many slots of s's object (flags & mask == want), WAITING or
 * WOKEN, go before s; dead ones are freed on the way. */
static int ahead(struct board *b, const struct gslot *s, int mask, int want)
{
	unsigned hi = b->high;
	int n = 0;

	for (unsigned i = 0; i < hi && i < NSLOTS; i++) {
		struct gslot *t = &b->s[i];
		int st = __atomic_load_n(&t->state, __ATOMIC_ACQUIRE);
		if ((st != S_WAITING && st != S_WOKEN) || t == s || t->id != s->id) continue;
		if ((t->flags & mask) != want || !better(t, s)) continue;
		if (!reclaim_dead(t, st)) n++;
	}
	return n;
}

/* A woken waiter is not always the one to go: a waker whose look at the
 * board came after a re-check had taken the object wakes the next best
 * too, and two woken waiters then race for one unit, the worse one
 * first when its process runs first (seen under an emulator, where the
 * look comes late).  So a waiter, woken or not, goes only when fewer
 * better slots wait or are woken than there are units; a woken one that
 * does not go passes its wake on to the best waiting slot before it, if
 * any (a better woken one needs none), and waits again in its place. */
hidden int __green_board_turn(struct gslot *s, int units, int mask, int want)
{
	struct board *b = bd;
	struct gslot *t;

	if (ahead(b, s, mask, want) < units) return 1;
	if (s->state == S_WOKEN) {
		__green_board_rejoin(s);
		if ((t = best(b, s->id, 0, mask, want)) && t != s && better(t, s)) wake_slot(t);
	}
	return 0;
}

hidden int __green_board_wake(volatile int *idw, int n, int mask, int want)
{
	struct board *b;
	struct gslot *s;
	int k = 0;

	if (!*idw || !(b = board())) return 0;
	while (k < n && (s = best(b, *idw, 0, mask, want)))
		k += wake_slot(s);
	return k;
}

hidden int __green_board_best(volatile int *idw, int mask, int want, int *prio)
{
	struct board *b;
	struct gslot *s;

	if (!*idw || !(b = board()) || !(s = best(b, *idw, 0, mask, want))) return -1;
	*prio = s->prio;
	return s->flags;
}

/* Wake every WAITING slot of the object with flags & mask == want and a
 * priority of at least `prio`: how many. */
hidden int __green_board_wake_from(volatile int *idw, int mask, int want, int prio)
{
	struct board *b;
	unsigned hi;
	int k = 0;

	if (!*idw || !(b = board())) return 0;
	hi = b->high;
	for (unsigned i = 0; i < hi && i < NSLOTS; i++) {
		struct gslot *s = &b->s[i];
		if (__atomic_load_n(&s->state, __ATOMIC_ACQUIRE) != S_WAITING || s->id != *idw ||
		    (s->flags & mask) != want || s->prio < prio)
			continue;
		if (reclaim_dead(s, S_WAITING)) continue;
		k += wake_slot(s);
	}
	return k;
}
