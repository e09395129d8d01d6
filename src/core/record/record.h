/*
 * record.h — green-record and green-replay (record.c; the essay is
 * src/core/record/README.md).  The rest of the library sees three
 * things: the mode, the scheduling-point hook that the outermost
 * GREEN_LEAVE reaches through GREEN_PEND_RECORD, and the start.
 */
#ifndef GREEN_RECORD_H
#define GREEN_RECORD_H
#include "base/seam.h"

#include <stdint.h>

enum { GREEN_REC_OFF, GREEN_REC_RECORD, GREEN_REC_REPLAY };
extern hidden int __green_rmode;                 /* GREEN_REC_*: set once, before main */
hidden void __green_rec_start(void);             /* GREEN_RECORDING=record|replay: begin */
hidden void __green_rec_point(void);             /* a countable point: deferred signals land here */

/* The gateway (src/arch/<cpu>/gate.S): the one code range whose system
 * calls Syscall User Dispatch lets through. */
hidden long __green_gate_call(long nr, long a, long b, long c, long d, long e, long f);
hidden long __green_gate_clone(long flags, long stack, long ptid, long ctid, long tls,
                              long resume, long child_r9);
hidden void __green_gate_sigaction_restore(void);
extern hidden char __green_gate_start[], __green_gate_end[];

/* The recorder's own system calls (record.c, ring.c, trace.c), made
 * through the gateway */
static inline long gate(long nr, long a, long b, long c, long d, long e, long f)
{
	return __green_gate_call(nr, a, b, c, d, e, f);
}
#define G1(n, a) gate(n, (long)(a), 0, 0, 0, 0, 0)
#define G2(n, a, b) gate(n, (long)(a), (long)(b), 0, 0, 0, 0)
#define G3(n, a, b, c) gate(n, (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define G4(n, a, b, c, d) gate(n, (long)(a), (long)(b), (long)(c), (long)(d), 0, 0)

/* A ring's checkpoint (ring.c; src/arch/<cpu>/ringregs.S): the callee-saved
 * registers, the stack pointer and the return address into ctx, 0; a
 * replay that restores the checkpoint's memory resumes there by
 * __green_ring_jump, and the save returns 1. */
hidden long __green_ring_save(long *ctx) __attribute__((returns_twice));
hidden _Noreturn void __green_ring_jump(const long *ctx);

/* The kernel's struct sigaction (x86_64) */
struct green_ksa {
	void *handler;
	unsigned long flags;
	void *restorer;
	uint64_t mask;
};

/* The trace's descriptor, opened by the launcher: high, out of the way of
 * the program's own */
#define GREEN_TRACE_FD 1000
/* If open: a line for every event, for green-replay --events */
#define GREEN_EVENTS_FD 1001

/* Pseudo calls: an rdtsc or rdtscp the CPU refused (PR_SET_TSC), recorded
 * and replayed as events of their own */
#define GREEN_REC_RDTSC 1000
#define GREEN_REC_RDTSCP 1001

/* ring.c: green-record --last=N keeps the last N seconds */
#define GREEN_RING_SEG 1002     /* its two segment files: 1002 and 1003 */
#define GREEN_RING_SOCK 1004    /* its sockets to the checkpoints: 1004 and 1005 */
#define GREEN_REC_OWN_LO 0x5f0000000000ul   /* the recorder's own mappings (trace.c, ring.c), */
#define GREEN_REC_OWN_HI 0x700000000000ul   /* never part of a checkpoint */
struct green_rec_keep {                  /* what a replay keeps across a ring's restore */
	uint64_t stop_at;
	int fork_req, events_fd;
};
hidden void __green_ring_begin(void);            /* GREEN_RECORD_LAST=N: record a ring */
hidden void __green_ring_tick(void);             /* before an event: a checkpoint every N s */
hidden void __green_ring_end(void);              /* the last block flushed: write the trace */
hidden int __green_ring_fd(long fd);             /* one of the ring's descriptors */
hidden _Noreturn void __green_ring_restore(const struct green_rec_keep *k);
hidden void __green_rec_resumed(const struct green_rec_keep *k);  /* restored: replay on */

/* sysout.c: the memory a system call wrote, for the trace */
struct green_rec_pre { long len[2]; };           /* lengths read before the call */
hidden void __green_rec_pre(long nr, const long *a, struct green_rec_pre *p);
hidden void __green_rec_outs(long nr, const long *a, long ret, const struct green_rec_pre *p,
                             void (*emit)(const void *addr, unsigned long len));
hidden int __green_rec_nargs(long nr);           /* the arguments compared in replay */
hidden const char *__green_rec_name(long nr);   /* for the divergence message */

#endif
