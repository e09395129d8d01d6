/*
 * trace.h — the trace file of green-record (trace.c): an event stream
 * written in compressed blocks (lz.c), read back by green-replay.
 */
#ifndef GREEN_TRACE_H
#define GREEN_TRACE_H
#include <stdint.h>
#include <stddef.h>
#include <signal.h>
#include "base/seam.h"

/* record */
hidden int trace_begin(void);                       /* the descriptor is writable: go */
hidden void trace_put(const void *p, size_t n);     /* bytes of an event */
hidden void trace_flush(void);                      /* everything so far to the file */
hidden void trace_forget(void);                     /* a fork's child: write nothing */
hidden void trace_to(int fd);                       /* the blocks from now on to fd (ring.c) */

/* replay */
struct trace_sys {
	long nr, nargs, ret;
	long args[6];
};
hidden int trace_load(void);                        /* read the whole trace */
hidden int trace_get(void *p, size_t n);            /* n bytes of the stream (p 0: skipped) */
hidden int trace_peek(void);                        /* the next byte, or -1 */
hidden int trace_next_sys(struct trace_sys *t);     /* 0: the next event is no call */
hidden void trace_apply_outs(void);                 /* the call's memory, written back */
hidden int trace_next_signal(uint64_t point, siginfo_t *si);  /* a signal taken at this point? */
hidden int trace_at_exit(void);
hidden int trace_at_exec(void);
hidden void trace_expect_fatal(int sig, uint64_t event);
hidden const char *trace_what_next(void);           /* the next event, for a message */
hidden void trace_diverged(void);
hidden void trace_describe(char *buf, size_t len, long nr, const long *args, int nargs,
                           int with_ret, long ret);

/* lz.c: the block compressor */
hidden size_t green_lz_pack(const unsigned char *in, size_t n, unsigned char *out);
hidden size_t green_lz_unpack(const unsigned char *in, size_t n, unsigned char *out, size_t cap);
#define GREEN_LZ_BOUND(n) ((n) + (n) / 255 + 16)

#endif
