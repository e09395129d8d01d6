/*
 * dlerror.c — dlerror, and the message a failed dl* call leaves for it,
 * kept in the green thread's descriptor.
 *
 * musl keeps a thread's last dl* error (a malloc'd string and a flag
 * saying dlerror has not yet returned it) in the TCB, and green threads
 * that share one TCB would have to save and restore both at every
 * switch.  Only this member reaches them, always for the running thread,
 * so they live in its descriptor and no switch touches them.  A static
 * program's dlopen, dlsym, dlclose and dlinfo fail through
 * __dl_seterr here.  The message is the thread's until its next error
 * replaces it, or the thread ends (each freed then).
 */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "pthread_impl.h"
#include "dynlink.h"
#include "base/gthread.h"

/* the libc's own allocator, should the program replace malloc */
#define malloc __libc_malloc
#define free __libc_free

/* a message that could not be allocated */
#define NO_ROOM ((void *)-1)

char *dlerror(void)
{
	struct green_libc_local *my = green_libc_local();

	if (!my->dlerror_flag) return 0;
	my->dlerror_flag = 0;   /* each message is returned once */
	if (my->dlerror_buf == NO_ROOM)
		return "Dynamic linker failed to allocate memory for error message";
	return my->dlerror_buf;
}

/* The ending thread's message, freed (create.c, through the seam) */
hidden void __dl_thread_cleanup(void)
{
	struct green_libc_local *my = green_libc_local();

	if (my->dlerror_buf != NO_ROOM) free(my->dlerror_buf);
	my->dlerror_buf = 0;
	my->dlerror_flag = 0;
}

hidden void __dl_vseterr(const char *fmt, va_list ap)
{
	struct green_libc_local *my = green_libc_local();
	va_list again;
	size_t len;
	char *msg;

	if (my->dlerror_buf != NO_ROOM) free(my->dlerror_buf);
	va_copy(again, ap);
	len = vsnprintf(0, 0, fmt, again);
	va_end(again);
	msg = malloc(len + 1);
	if (msg) vsnprintf(msg, len + 1, fmt, ap);
	my->dlerror_buf = msg ? msg : NO_ROOM;
	my->dlerror_flag = 1;
}

hidden void __dl_seterr(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	__dl_vseterr(fmt, ap);
	va_end(ap);
}

/* without the dynamic linker no handle is valid */
static int any_handle_invalid(void *h)
{
	__dl_seterr("Invalid library handle %p", h);
	return 1;
}
weak_alias(any_handle_invalid, __dl_invalid_handle);
