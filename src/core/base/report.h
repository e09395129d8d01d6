/*
 * report.h — messages (report.c), and threads and waits described for
 * people.
 */
#ifndef GREEN_REPORT_H
#define GREEN_REPORT_H
#include "base/gthread.h"

hidden void __green_say(const char *fmt, ...);
hidden void __green_describe(struct green_thread *, char *buf, size_t len);
hidden const char *__green_name(struct green_thread *); /* its name, "" if none */
hidden const char *__green_wait_name(enum gwait);
hidden const char *__green_state_name(enum gstate);

#endif
