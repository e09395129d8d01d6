/*
 * unwinder.c — in green's libc.so, the program's unwinder (GREEN_SHARED).
 *
 * Two pieces of green unwind C++ frames: pthread_exit's forced
 * unwinding (unwind.c) and the cleanup that puts a pthread_once control
 * back when an initialiser throws (sync/once.c, compiled with
 * -fexceptions).  In a static program they call the unwinder the
 * program links (libgcc_eh.a, for a C++ program), named weakly.  In a
 * dynamically linked one, libc.so cannot: the host gcc's libgcc_eh.a
 * gives its symbols hidden visibility, so the program cannot export
 * them, and a second copy of the unwinder inside libc.so would walk
 * frames whose personality routines then call the program's copy with
 * a context that copy never set up (abort).  So the program hands its
 * unwinder over: green-cc links every dynamically linked executable with
 * lib/<mode>/unwinder.o (crt/unwinder.c), whose constructor, before any
 * other of the program's, passes the addresses it links to
 * __green_set_unwinder, all null in a C program (green-c++ links C's
 * personality routine into a C++ program for the purpose:
 * tools/mkspecs.sh).
 *
 * libc.so's references go here: __gcc_personality_v0 and
 * _Unwind_Resume, which the compiler names for once.c's cleanup, are
 * these hidden trampolines to the program's; unwind.c reads the table.
 * Without an unwinder (a C program, or one not linked by green-cc) an
 * exception never reaches them.
 */
#include "base/seam.h"
/* (hidden, before the unwinder's header declares it: libc.so's own, not
 * exported) */
struct _Unwind_Exception;
hidden void _Unwind_Resume(struct _Unwind_Exception *);
#include "thread/unwinder.h"

hidden struct green_unwinder __green_unwinder;

/* the program's start-up (crt/unwinder.c); not hidden */
void __green_set_unwinder(const struct green_unwinder *u)
{
	__green_unwinder = *u;
}

hidden _Unwind_Reason_Code __gcc_personality_v0(int version, _Unwind_Action actions,
	_Unwind_Exception_Class cls, struct _Unwind_Exception *e, struct _Unwind_Context *ctx)
{
	if (!__green_unwinder.gcc_personality) return _URC_CONTINUE_UNWIND;
	return __green_unwinder.gcc_personality(version, actions, cls, e, ctx);
}

hidden void _Unwind_Resume(struct _Unwind_Exception *e)
{
	__green_unwinder.resume(e);   /* there is one: an exception is unwinding */
	__builtin_trap();
}
