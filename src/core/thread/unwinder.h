/*
 * unwinder.h — the program's unwinder, as a dynamically linked program
 * hands it to green's libc.so (unwinder.c; crt/unwinder.c).  Each is
 * null when the program links no unwinder (a C program).
 */
#ifndef GREEN_UNWINDER_H
#define GREEN_UNWINDER_H
#include <unwind.h>

struct green_unwinder {
	_Unwind_Reason_Code (*forced_unwind)(struct _Unwind_Exception *, _Unwind_Stop_Fn, void *);
	_Unwind_Word (*get_cfa)(struct _Unwind_Context *);
	void (*resume)(struct _Unwind_Exception *);
	_Unwind_Reason_Code (*gcc_personality)(int, _Unwind_Action, _Unwind_Exception_Class,
	                                       struct _Unwind_Exception *, struct _Unwind_Context *);
	void (*gxx_personality)(void);   /* only whether there is one */
};

void __green_set_unwinder(const struct green_unwinder *);
#endif
