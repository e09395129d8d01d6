/*
 * board.h — the waiter board of process-shared objects (board.c): a
 * waiter joins with its priority and a ticket, parks on its own slot,
 * and a waker wakes the best slot of the object.
 */
#ifndef GREEN_BOARD_H
#define GREEN_BOARD_H
#include "base/gthread.h"

struct gslot;

/* A slot, WAITING on the object whose id word is idw (drawn from the
 * board when 0), or 0 when there is no board or no room: the caller
 * then waits on the object's own word. */
hidden struct gslot *__green_board_join(volatile int *idw, int flags);
/* Woken, but the object was taken first: WAITING again, same ticket. */
hidden void __green_board_rejoin(struct gslot *);
/* Off the board: 1 if the slot had been woken. */
hidden int __green_board_leave(struct gslot *);
hidden int __green_board_woken(const struct gslot *);
/* Park while WAITING (pshared.c's wait: 0 look again, ETIMEDOUT, EINTR,
 * ECANCELED). */
hidden int __green_board_park(struct gslot *, uint64_t deadline, enum gwait kind,
                              const void *obj, unsigned *step);
/* Fewer better slots of the object (flags & mask == want) are WAITING
 * or WOKEN than `units`: this waiter may try to take it.  If not, and it
 * was woken, its wake goes on to the best waiting slot before it and it
 * is WAITING again.  Slots of dead processes met on the way are freed. */
hidden int __green_board_turn(struct gslot *, int units, int mask, int want);
/* Wake the n best WAITING slots of the object with flags & mask ==
 * want: how many were woken (0: nobody on the board). */
hidden int __green_board_wake(volatile int *idw, int n, int mask, int want);
/* The best WAITING slot's flags (and priority) among those with
 * flags & mask == want, -1 when none. */
hidden int __green_board_best(volatile int *idw, int mask, int want, int *prio);
/* Wake every WAITING slot with flags & mask == want of priority >= prio. */
hidden int __green_board_wake_from(volatile int *idw, int mask, int want, int prio);

#endif
