/*
 * report.h — diagnostics (report.c): messages, and threads and waits
 * described for people.
 */
#ifndef GREEN_REPORT_H
#define GREEN_REPORT_H
#include "gthread.h"

/* ---- diagnostics (report.c) */
hidden void __green_say(const char *fmt, ...);
hidden void __green_describe(struct green_thread *, char *buf, size_t len);
hidden const char *__green_name(struct green_thread *); /* report.c: "thread 3 (name)" */
hidden const char *__green_wait_name(enum gwait);

/* ---- names for addresses (symbols.c): 1 and the name in buf, or 0 */
hidden int __green_data_name(const void *, char *buf, size_t len);   /* 'ledger+0x8' */
hidden int __green_wait_frame(struct green_thread *, const void *from, char *buf, size_t len);   /* 'worker+0x1c' */

#endif
