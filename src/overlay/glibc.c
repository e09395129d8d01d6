/*
 * glibc.c — the glibc side of the libc seam that is code (glibc-seam.h).
 *
 * Everything here goes through glibc's public interface: attributes are
 * read with the pthread_attr_get* calls, never by layout, except the one
 * word green keeps its stack mode in (below).
 */
#define _GNU_SOURCE
#include <link.h>
#include <sys/auxv.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "base/gthread.h"
#include "thread/gfork.h"
#include "base/report.h"
#include "sync/sync.h"

hidden long __green_syscall(long n, long a, long b, long c, long d, long e, long f)
{
	int saved = errno;
	long r = syscall(n, a, b, c, d, e, f);
	if (r == -1) r = -errno;
	errno = saved;
	return r;
}

/* ---- the program's own code: where a tick may switch */

#define MAX_TEXT 8
static struct { unsigned long lo, hi; } text[MAX_TEXT];
static int ntext;

/* The first object dl_iterate_phdr reports is the executable: green,
 * Check and the program, linked statically into it.  Everything else
 * (libc.so, ld.so, libm.so) is the libc's. */
static int find_text(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	for (int i = 0; i < info->dlpi_phnum && ntext < MAX_TEXT; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
			text[ntext].lo = info->dlpi_addr + ph->p_vaddr;
			text[ntext].hi = text[ntext].lo + ph->p_memsz;
			ntext++;
		}
	}
	return 1;   /* the executable only */
}

hidden int __green_pc_ours(unsigned long pc)
{
	for (int i = 0; i < ntext; i++)
		if (pc >= text[i].lo && pc < text[i].hi) return 1;
	return 0;
}

/* The first pthread_create: learn where the program's code is, and have
 * glibc's fork() leave only the caller in the child. */
/* Does the executable have a PT_TLS segment (`__thread` variables of its
 * own)?  Then green cannot run it: say so, once, and refuse threads. */
hidden size_t green_tls_bytes(int *err)
{
	const ElfW(Phdr) *ph = (const void *)getauxval(AT_PHDR);
	unsigned long n = getauxval(AT_PHNUM);
	for (unsigned long i = 0; ph && i < n; i++) {
		if (ph[i].p_type != PT_TLS || !ph[i].p_memsz) continue;
		__green_say("green: this program has __thread variables, which the glibc overlay "
		            "cannot make per thread (docs/ports.md): pthread_create fails with ENOTSUP\n");
		*err = ENOTSUP;
		break;
	}
	return 0;
}

hidden void green_libc_threads_on(struct green_thread *m)
{
	m->tid = getpid();   /* the initial thread's id, as in the musl build (tid.c) */
	dl_iterate_phdr(find_text, 0);
	pthread_atfork(0, 0, __green_fork_child);
}

/* ---- attributes */

/*
 * The stack mode lives in the last int of pthread_attr_t.  glibc 2.36's
 * struct pthread_attr leaves it unused on both SPARC ABIs (the `unused`
 * pointer of the 64-bit layout, the padding to 36 bytes of the 32-bit
 * one); pthread_attr_init clears the whole object.  The overlay's tests
 * check that glibc's setters leave it alone.
 */
static int *mode_word(const pthread_attr_t *a)
{
	return (int *)((char *)a + sizeof *a - sizeof(int));
}

hidden void green_attr_set_stackmode(pthread_attr_t *a, int mode)
{
	*mode_word(a) = mode;
}

hidden int green_attr_stackmode(const pthread_attr_t *a)
{
	return *mode_word(a);
}

/* The head of glibc 2.36's struct pthread_attr (nptl/internaltypes.h):
 * a stack size the program never set is 0 there, while
 * pthread_attr_getstacksize reads it as glibc's default (from
 * RLIMIT_STACK, often 8 MiB), which a program may also ask for. */
struct glibc_attr {
	struct sched_param schedparam;
	int schedpolicy;
	int flags;
	size_t guardsize;
	void *stackaddr;
	size_t stacksize;
};
_Static_assert(sizeof(struct glibc_attr) <= sizeof(pthread_attr_t) - sizeof(int),
               "glibc's attribute head overlaps the stack mode word");

hidden void green_attr_read(const pthread_attr_t *a, struct green_attr *g)
{
	struct sched_param sp = { 0 };
	void *addr = 0;
	int v = 0;

	memset(g, 0, sizeof *g);
	/* unset (0): green's default applies */
	g->stacksize = ((const struct glibc_attr *)a)->stacksize;
	pthread_attr_getguardsize(a, &g->guardsize);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	pthread_attr_getstackaddr(a, &addr);   /* the top, or null when unset */
#pragma GCC diagnostic pop
	g->stackaddr = (uintptr_t)addr;
	if (addr && !g->stacksize) pthread_attr_getstacksize(a, &g->stacksize);
	pthread_attr_getdetachstate(a, &v);
	g->detached = v == PTHREAD_CREATE_DETACHED;
	pthread_attr_getinheritsched(a, &v);
	g->explicit_sched = v == PTHREAD_EXPLICIT_SCHED;
	pthread_attr_getschedpolicy(a, &g->policy);
	pthread_attr_getschedparam(a, &sp);
	g->prio = sp.sched_priority;
	g->stackmode = green_attr_stackmode(a);
}

/* pthread_getattr_np: a is not initialised by the caller (glibc's rule) */
hidden int green_attr_fill(pthread_attr_t *a, const struct green_attr *g)
{
	struct sched_param sp = { .sched_priority = g->prio };
	int r = pthread_attr_init(a);

	if (r) return r;
	pthread_attr_setdetachstate(a, g->detached ? PTHREAD_CREATE_DETACHED : PTHREAD_CREATE_JOINABLE);
	if (g->stackaddr)
		pthread_attr_setstack(a, (void *)(g->stackaddr - g->stacksize), g->stacksize);
	pthread_attr_setguardsize(a, g->guardsize);
	pthread_attr_setschedpolicy(a, g->policy);
	pthread_attr_setschedparam(a, &sp);
	return 0;
}

/* The GM_* bits of sync.h; glibc's adaptive type is a normal mutex here. */
hidden unsigned green_mutexattr_bits(const pthread_mutexattr_t *a)
{
	int type = 0, robust = 0, proto = 0, shared = 0;
	unsigned b;

	pthread_mutexattr_gettype(a, &type);
	pthread_mutexattr_getrobust(a, &robust);
	pthread_mutexattr_getprotocol(a, &proto);
	pthread_mutexattr_getpshared(a, &shared);
	b = type == PTHREAD_MUTEX_RECURSIVE || type == PTHREAD_MUTEX_ERRORCHECK ? (unsigned)type : 0;
	if (robust) b |= GM_ROBUST;
	if (proto == PTHREAD_PRIO_INHERIT) b |= GM_PI;
	/* priority protection is not wired to glibc's ceiling attribute
	 * here (prioceiling.c refuses it): pthread_mutex_init refuses the
	 * mutex with ENOTSUP, as it does a process-shared one */
	if (proto == PTHREAD_PRIO_PROTECT) b |= GM_PROTECT | GM_PSHARED;
	if (shared == PTHREAD_PROCESS_SHARED) b |= GM_PSHARED;
	return b;
}

hidden int green_condattr_read(const pthread_condattr_t *a, int *clock)
{
	clockid_t c = CLOCK_REALTIME;
	int shared = 0;
	pthread_condattr_getclock(a, &c);
	pthread_condattr_getpshared(a, &shared);
	*clock = c;
	return shared == PTHREAD_PROCESS_SHARED;
}

hidden int green_rwlockattr_shared(const pthread_rwlockattr_t *a)
{
	int shared = 0;
	pthread_rwlockattr_getpshared(a, &shared);
	return shared == PTHREAD_PROCESS_SHARED;
}

/* glibc's default kind (PREFER_READER) stands for green's default policy */
/* glibc's attribute cannot tell a kind never set from PREFER_READER (its
 * default): a lock made with an attribute prefers readers, as in glibc;
 * one made without keeps green's balanced default (docs/sync.md). */
hidden int green_rwlockattr_kind(const pthread_rwlockattr_t *a)
{
	int k = PTHREAD_RWLOCK_PREFER_READER_NP;
	pthread_rwlockattr_getkind_np(a, &k);
	return k + 1;
}

hidden int green_barrierattr_shared(const pthread_barrierattr_t *a)
{
	int shared = 0;
	pthread_barrierattr_getpshared(a, &shared);
	return shared == PTHREAD_PROCESS_SHARED;
}
