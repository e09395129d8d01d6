/*
 * h_errno.c — h_errno, kept in the green thread's descriptor.
 *
 * musl keeps a thread's h_errno in its TCB, and green threads that share
 * one TCB would have to save and restore that field at every switch.
 * Only this function reaches it (netdb.h's h_errno is a call of it), so
 * it answers with the running green thread's own field instead, and no
 * switch touches h_errno.  The initial thread keeps the global variable,
 * as in musl, for programs that declare h_errno themselves.
 */
#include <netdb.h>
#include "base/gthread.h"

#undef h_errno
int h_errno;

int *__h_errno_location(void)
{
	return __green_cur == &__green_main ? &h_errno : &green_libc_local()->h_errno_val;
}
