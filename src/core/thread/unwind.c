/*
 * unwind.c — pthread_exit (and so cancellation) unwinds the exiting
 * thread's C++ frames, as glibc's forced unwinding does: destructors
 * run, a catch (abi::__forced_unwind &) sees the exit and must rethrow
 * it, and a std::async or std::packaged_task whose function exits makes
 * its future ready with broken_promise.
 *
 * Only where there are C++ frames to unwind: a program that links the
 * C++ personality routine and the unwinder (green-c++ does), both named
 * weakly here, so a C program links neither and exits as before.  (In
 * green's libc.so, the ones the program handed over: unwinder.c.)  The
 * main thread, which has no green start frame to land in, exits as
 * before too.
 *
 * The unwinder walks the frames from pthread_exit's outwards, running
 * each frame's cleanups; the stop function below is asked at every
 * frame first, and runs the pthread_cleanup_push handlers registered in
 * the frames left behind (a handler's record lies below the CFA of the
 * frame that pushed it: stacks grow down on every green CPU), so C and
 * C++ cleanups interleave in frame order.  At the end of the stack
 * (green's thread start, or a frame without unwind tables) it jumps
 * back to the thread's start frame, which finishes the exit
 * (__green_exit_rest, create.c).  The exception object lives in the
 * landing record, in the start frame (the descriptor points to it): the
 * landing pads run on the frames below and must not overwrite it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unwind.h>
#include "base/gthread.h"
#include "thread/lifecycle.h"
#include "base/report.h"

#ifdef GREEN_SHARED
/* green's libc.so: the program's unwinder, handed over (unwinder.c) */
#include "thread/unwinder.h"
extern hidden struct green_unwinder __green_unwinder;
#define _Unwind_ForcedUnwind __green_unwinder.forced_unwind
#define _Unwind_GetCFA __green_unwinder.get_cfa
#define __gxx_personality_v0 __green_unwinder.gxx_personality
#else
_Unwind_Reason_Code _Unwind_ForcedUnwind(struct _Unwind_Exception *, _Unwind_Stop_Fn, void *) __attribute__((__weak__));
_Unwind_Word _Unwind_GetCFA(struct _Unwind_Context *) __attribute__((__weak__));
void __gxx_personality_v0(void) __attribute__((__weak__));
#endif

_Static_assert(sizeof(struct _Unwind_Exception) <= sizeof ((struct green_landing *)0)->exc, "fits");

/* a program caught the exit and did not rethrow it */
static void not_rethrown(_Unwind_Reason_Code r, struct _Unwind_Exception *e)
{
	(void)r;
	(void)e;
	__green_say("green: thread %u caught its pthread_exit's unwinding and did not rethrow it\n",
	            __green_cur->id);
	abort();
}

static _Unwind_Reason_Code stop(int version, _Unwind_Action actions, _Unwind_Exception_Class cls,
                                struct _Unwind_Exception *e, struct _Unwind_Context *ctx, void *jb)
{
	struct green_thread *self = __green_cur;
	uintptr_t cfa = actions & _UA_END_OF_STACK ? UINTPTR_MAX : (uintptr_t)_Unwind_GetCFA(ctx);

	(void)version;
	(void)cls;
	(void)e;
	while (self->cleanup && (uintptr_t)self->cleanup < cfa) green_cleanup_run(self);
	if (actions & _UA_END_OF_STACK) __builtin_longjmp(jb, 1);
	return _URC_NO_REASON;
}

/* Does the program link what unwinding C++ frames needs? */
hidden int __green_can_unwind(void)
{
	return _Unwind_ForcedUnwind && _Unwind_GetCFA && __gxx_personality_v0;
}

hidden void __green_exit_unwind(struct green_thread *self)
{
	struct green_landing *l = self->unwind;
	struct _Unwind_Exception *e;

	/* once exit() has begun its destructors may have taken the
	 * unwinder's tables away (crtbegin's deregistration): exit as a C
	 * thread does, running the cleanup handlers by hand */
	if (!l || !__green_can_unwind() || __green_exit_begun()) return;
	e = (struct _Unwind_Exception *)l->exc;
	self->unwind = 0;   /* a pthread_exit from a destructor exits at once */
	memset(e, 0, sizeof *e);
	memcpy(&e->exception_class, "GREENEXT", 8);
	e->exception_cleanup = not_rethrown;
	_Unwind_ForcedUnwind(e, stop, l->jb);
	/* nothing could be unwound: exit as a C thread does */
}
