/*
 * lock_ptc.c — musl's lock against concurrent pthread_create (used by
 * dlopen and pthread_setattr_default_np).  Green creates threads inside
 * a no-preempt section on one kernel thread, so there is nothing to hold
 * off: these are no-ops by construction, not by omission.
 */

void __inhibit_ptc(void) { }
void __acquire_ptc(void) { }
void __release_ptc(void) { }
