/*
 * cleanup.c — glibc's pthread_cleanup_push/pop, run by green.
 *
 * In C without -fexceptions glibc's macros keep a record on the stack
 * frame of the function that pushes: a jump buffer set by sigsetjmp, and
 * four spare words.  The record is registered with
 * __pthread_register_cancel and dropped with __pthread_unregister_cancel.
 * To run the handler, the thread jumps back into that frame (the macro's
 * sigsetjmp returns non-zero), the macro calls the handler and then
 * __pthread_unwind_next, which goes on exiting.
 *
 * green keeps the records as a list through the first spare word.
 * pthread_exit (create.c) pops the newest and jumps to it
 * (green_cleanup_run); __pthread_unwind_next comes back into pthread_exit
 * with the same result, which pops the next, until none is left.
 */
#include <setjmp.h>
#include "base/gthread.h"

void __pthread_register_cancel(__pthread_unwind_buf_t *buf)
{
	struct green_thread *self = __green_cur;
	buf->__pad[0] = self->cleanup;
	self->cleanup = buf;
}

void __pthread_unregister_cancel(__pthread_unwind_buf_t *buf)
{
	__green_cur->cleanup = buf->__pad[0];
}

hidden void green_cleanup_run(struct green_thread *self)
{
	__pthread_unwind_buf_t *buf = self->cleanup;
	self->cleanup = buf->__pad[0];
	/* the buffer's head is a jmp_buf whose signal mask was not saved:
	 * longjmp reads no further than __mask_was_saved */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
	longjmp(*(jmp_buf *)(void *)buf->__cancel_jmp_buf, 1);
#pragma GCC diagnostic pop
}

void __pthread_unwind_next(__pthread_unwind_buf_t *buf)
{
	(void)buf;
	__pthread_exit(__green_cur->result);
}
