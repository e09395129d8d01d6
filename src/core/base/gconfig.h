/*
 * gconfig.h — the environment (config.c): GREEN_STACK_SIZE, GREEN_STACKS,
 * GREEN_QUANTUM_MS, GREEN_SCHED and the rest, read once; and the seeded
 * schedules GREEN_SCHED selects (explore.c).
 */
#ifndef GREEN_GCONFIG_H
#define GREEN_GCONFIG_H
#include "base/gthread.h"
#include "base/words.h"

/* ---- seeded schedules (explore.c): GREEN_SCHED */
enum { GREEN_SCHED_OFF = 0, GREEN_SCHED_RANDOM = 1, GREEN_SCHED_PCT = 2, GREEN_SCHED_POS = 3,
       GREEN_SCHED_CLASS = 4 };
/* __green_xmode, the mode, is declared with the packed words (words.h) */
hidden void __green_explore_init(void);
hidden struct green_thread *__green_explore_pick(void);  /* off the run queue's top level */
hidden void __green_explore_point(int fine);    /* the running thread may be switched */
hidden void __green_explore_touched(void);      /* a first touch of a page (mempoints) */
hidden void __green_explore_access_point(const volatile void *addr, int write);  /* at a shared access */
hidden void __green_explore_yielded(void);      /* sched_yield: PCT demotes the caller */
hidden void __green_explore_sleep(uint64_t deadline);  /* a zero or tiny sleep: as a yield */
/* "I am waiting for someone else" (a failed trylock): under GREEN_SCHED,
 * as sched_yield for PCT's priorities; the call's own GREEN_LEAVE is the
 * scheduling point.  Only on failure paths: a load and a branch. */
static inline void green_explore_spin(void)
{
	if (__green_xmode) __green_explore_yielded();
}
hidden void __green_explore_report(void);       /* the seed, steps and decision hash, once */
hidden int __green_vclock_jump(uint64_t deadline);  /* all blocked: move the virtual clock */
hidden void __green_vclock_idled(uint64_t deadline, uint64_t t0); /* after a real idle wait */
hidden int __green_vclock_read(clockid_t clk, uint64_t *ns);  /* the program's clocks, virtual */
extern hidden uint64_t __green_vclock;

/* ---- environment (config.c) */
/* GREEN_IO's backends of the multiplexer (src/sysio/poll.c); unset,
 * select, switching to epoll for good once the wait set reaches
 * GREEN_ARCH_AUTO_EPOLL_AT descriptors (arch.h; never on a CPU that does
 * not define it). */
enum { GREEN_IO_AUTO, GREEN_IO_SELECT, GREEN_IO_POLL, GREEN_IO_EPOLL };
struct green_config {
	size_t stack_size;   /* GREEN_STACK_SIZE */
	int stack_mode;      /* GREEN_STACKS */
	long quantum_us;     /* GREEN_QUANTUM_MS, in microseconds */
	size_t region_size;  /* GREEN_COPIED_REGION */
	unsigned copied_hot; /* GREEN_COPIED_HOT */
	int sched_mode;      /* GREEN_SCHED: GREEN_SCHED_* */
	uint64_t sched_seed, sched_steps, sched_touches;   /* touches: class only */
	int sched_depth;
	char sched_text[64]; /* the value, for the report */
	int aio_threads;     /* GREEN_AIO=threads: AIO by worker threads, never io_uring */
	int io_backend;      /* GREEN_IO: GREEN_IO_AUTO, else the one named */
	int debug;           /* GREEN_DEBUG: GREEN_DEBUG_QUARANTINE | GREEN_DEBUG_CHECKS */
	int loaded;
};
extern hidden struct green_config __green_config;
/* The ranges the environment may set (config.c refuses others, by name) */
#define GREEN_COPIED_REGION_MIN 16384   /* GREEN_COPIED_REGION: room for a frame or two and a signal */
#define GREEN_COPIED_HOT_MIN 4          /* GREEN_COPIED_HOT: the fewest hot slots */
#define GREEN_COPIED_HOT_MAX 65535      /* ... the most: a thread's hot_at is 16 bits (gthread.h) */
/* GREEN_DEBUG=1 turns on both; =checks the invariant checks alone */
enum {
	GREEN_DEBUG_QUARANTINE = 1,   /* released memory quarantined (quarantine.c) */
	GREEN_DEBUG_CHECKS = 2,       /* invariants checked at every switch (check.h) */
};
hidden void __green_config_load(void);

#endif
