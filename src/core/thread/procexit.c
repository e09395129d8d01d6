/*
 * procexit.c — the process's exit, run by one thread.
 *
 * exit() runs the atexit handlers, the destructors and stdio's flush,
 * then ends the process.  musl 1.2.3 does not keep a second thread out:
 * one that calls exit() while another is inside it runs the handlers
 * and destructors again, from where they stand, and a program whose
 * destructor frees memory aborts on the double free.  glibc lets one
 * thread exit and makes the others wait.  So does green (exit.c, the
 * member): the first thread to call exit() runs it; any other that calls
 * it meanwhile waits for the end of the process (GW_EXIT), never woken.
 * The exiting thread itself may call exit() again, from a handler (C
 * leaves it undefined; musl goes on): it goes on.
 */
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "thread/lifecycle.h"

static struct green_thread *exiting;   /* the thread that runs the exit */

hidden void __green_exit_begin(void)
{
	struct green_thread *self = __green_cur;

	if (!green_active() || green_vfork_child()) return;
	GREEN_ENTER();
	if (!exiting) exiting = self;
	if (exiting != self)
		for (;;) __green_wait(0, GW_EXIT, exiting, GREEN_NO_DEADLINE);   /* until _Exit */
	GREEN_LEAVE();
}

/* C++ thread exit during the process's exit: the unwinder's tables may
 * be gone (unwind.c asks) */
hidden int __green_exit_begun(void)
{
	return exiting != 0;
}
