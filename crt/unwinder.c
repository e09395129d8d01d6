/*
 * unwinder.c — linked into every dynamically linked executable green-cc
 * makes (lib/<mode>/unwinder.o): hands the program's unwinder to green's
 * libc.so, which has none of its own (src/core/thread/unwinder.c).
 *
 * The unwinder's functions are referenced weakly, so a C program links
 * none of them and hands over nulls; a C++ program links them with
 * libstdc++.  The constructor runs before the program's others
 * (priority 101); under a libc.so without __green_set_unwinder (musl's
 * own, the 1:1 one) it does nothing.
 */
#include "thread/unwinder.h"

_Unwind_Reason_Code __gcc_personality_v0(int, _Unwind_Action, _Unwind_Exception_Class,
                                         struct _Unwind_Exception *, struct _Unwind_Context *)
	__attribute__((__weak__));
void __gxx_personality_v0(void) __attribute__((__weak__));
#pragma weak _Unwind_ForcedUnwind
#pragma weak _Unwind_GetCFA
#pragma weak _Unwind_Resume
#pragma weak __green_set_unwinder

__attribute__((constructor(101))) static void hand_over(void)
{
	struct green_unwinder u = {
		_Unwind_ForcedUnwind, _Unwind_GetCFA, _Unwind_Resume, __gcc_personality_v0,
		__gxx_personality_v0,
	};
	if (__green_set_unwinder) __green_set_unwinder(&u);
}
