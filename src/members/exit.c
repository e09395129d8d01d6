/*
 * exit — green mode: one thread at a time (src/core/thread/procexit.c).
 * Then what exit always does: the atexit handlers, the destructors of
 * .fini_array in reverse order and _fini, stdio's flush, _Exit.  The
 * first and third are musl's own members when the program links them
 * (atexit.c, __stdio_exit.c), nothing otherwise.
 */
#include <stdlib.h>
#include <stdint.h>
#include "libc.h"
#include "thread/lifecycle.h"

static void nothing(void) { }
weak_alias(nothing, __funcs_on_exit);
weak_alias(nothing, __stdio_exit);
weak_alias(nothing, _fini);

extern weak hidden void (*const __fini_array_start)(void), (*const __fini_array_end)(void);

static void run_fini(void)
{
	void (*const *f)(void) = &__fini_array_end;

	while (f > &__fini_array_start) (*--f)();
	_fini();
}
weak_alias(run_fini, __libc_exit_fini);

_Noreturn void exit(int code)
{
	__green_exit_begin();
	__funcs_on_exit();
	__libc_exit_fini();
	__stdio_exit();
	_Exit(code);
}
