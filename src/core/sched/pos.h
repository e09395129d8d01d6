/*
 * pos.h — partial order sampling (pos.c), called by explore.c.
 */
#ifndef GREEN_POS_H
#define GREEN_POS_H
#include "base/gthread.h"

struct gq;
extern hidden int __green_mp_accessed;            /* set by every memory access (mempoints) */
extern hidden int __green_mp_built;               /* memory points are compiled in (mempoints) */
extern hidden uintptr_t __green_explore_access;   /* the access of the point being made, or 0 */
hidden uint64_t __green_explore_fresh(void);      /* a fresh random priority (explore.c) */
hidden int __green_pos_point(struct green_thread *self, int fine);
hidden void __green_pos_yielded(struct green_thread *self);
hidden void __green_pos_ran(struct gq *q, struct green_thread *best);
/* PCT over classes of threads (classpct.c) */
hidden void __green_class_init(int depth, uint64_t touches, uint64_t steps, uint64_t (*below)(uint64_t));
hidden void __green_class_step(uint64_t step, uint64_t low);
hidden struct green_thread *__green_class_pick(struct gq *q);
hidden void __green_class_touched(uint64_t low);
hidden void __green_class_yielded(uint64_t prio);
hidden uint64_t __green_class_touches(void);
#endif
