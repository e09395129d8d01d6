/*
 * once.c — pthread_once and call_once.
 *
 * The control word is 0 (not run), 1 (running) or 2 (done).  Threads that
 * find it running wait on its address; a cancelled initialiser puts it
 * back to 0 and wakes them, so one of them runs it again (POSIX).
 */
#include "green.h"

static void undo(void *p)
{
	volatile int *c = p;
	*c = 0;
	__green_futex_wake(c, -1);
}

int __pthread_once(pthread_once_t *control, void (*init)(void))
{
	volatile int *c = (volatile int *)control;

	while (*c != 2) {
		int mine;
		GREEN_ENTER();
		mine = *c == 0;
		if (mine) *c = 1;
		GREEN_LEAVE();
		if (mine) {
			pthread_cleanup_push(undo, (void *)c);
			init();
			pthread_cleanup_pop(0);
			*c = 2;
			if (green_active()) __green_futex_wake(c, -1);
			return 0;
		}
		__green_futex_wait(c, 1, GREEN_NO_DEADLINE, GW_ADDR);
	}
	return 0;
}
weak_alias(__pthread_once, pthread_once);
