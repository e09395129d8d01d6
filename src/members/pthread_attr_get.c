/*
 * pthread_attr_get.c — the attribute getters (musl keeps them all in one
 * member, so green replaces them together, in both threads modes).
 *
 * Three answers differ from musl's:
 *   - an attribute that names no stack size (green mode's
 *     pthread_attr_init leaves it 0) reports the default a new thread
 *     would get, green's (__green_stack_default), as glibc reports its
 *     own;
 *   - pthread_attr_getstack on an attribute that names no stack succeeds
 *     with a null address and the size a new thread would get, as glibc
 *     does (musl fails with EINVAL);
 *   - pthread_mutexattr_getprotocol also reports PTHREAD_PRIO_PROTECT,
 *     green's own bit in the attribute word.
 * Every other getter hands back the field its setter stored.
 */
#include "pthread_impl.h"

/* The mutex attribute word: musl's layout, plus green's PRIO_PROTECT
 * bit (GM_PROTECT in src/core/sync/sync.h; only green mode ever sets it). */
#define MA_TYPE     3u      /* the low two bits: PTHREAD_MUTEX_* type */
#define MA_ROBUST   4u
#define MA_INHERIT  8u      /* PTHREAD_PRIO_INHERIT */
#define MA_PROTECT  64u     /* PTHREAD_PRIO_PROTECT */
#define MA_PSHARED  128u

#define has(word, bit) (((word) & (bit)) != 0)

/* The size an attribute names, else the default: green mode's
 * (src/core/stack/separate.c); in 1:1 mode musl's pthread_attr_init
 * always writes musl's own in. */
#ifndef GREEN_ONETOONE
hidden size_t __green_stack_default(void);
#define DEFAULT_SIZE() __green_stack_default()
#else
#define DEFAULT_SIZE() ((size_t)__default_stacksize)
#endif

static size_t stacksize_of(const pthread_attr_t *a)
{
	return a->_a_stacksize ? a->_a_stacksize : DEFAULT_SIZE();
}

/* Most getters copy one value to *out and succeed. */
#define GETTER(name, attr_type, out_type, value)                        \
	int name(const attr_type *restrict a, out_type *restrict out)   \
	{                                                               \
		*out = (value);                                         \
		return 0;                                               \
	}

/* ---- thread attributes */
GETTER(pthread_attr_getdetachstate,  pthread_attr_t, int,    a->_a_detach)
GETTER(pthread_attr_getguardsize,    pthread_attr_t, size_t, a->_a_guardsize)
GETTER(pthread_attr_getinheritsched, pthread_attr_t, int,    a->_a_sched)
GETTER(pthread_attr_getschedpolicy,  pthread_attr_t, int,    a->_a_policy)
GETTER(pthread_attr_getscope,        pthread_attr_t, int,    PTHREAD_SCOPE_SYSTEM)
GETTER(pthread_attr_getstacksize,    pthread_attr_t, size_t, stacksize_of(a))

/* only the priority is written: the rest of *sp is left as it was */
int pthread_attr_getschedparam(const pthread_attr_t *restrict a, struct sched_param *restrict sp)
{
	sp->sched_priority = a->_a_prio;
	return 0;
}

/* The attribute keeps the stack's top and size; the lowest address is
 * what the caller wants, or null when no stack was given. */
int pthread_attr_getstack(const pthread_attr_t *restrict a, void **restrict addr, size_t *restrict size)
{
	unsigned long top = a->_a_stackaddr;

	*size = stacksize_of(a);
	*addr = top ? (void *)(top - a->_a_stacksize) : 0;
	return 0;
}

/* ---- the other objects' attributes */
GETTER(pthread_barrierattr_getpshared, pthread_barrierattr_t, int,    a->__attr != 0)
/* the condattr word: the clock in bits 0-30, process-shared in bit 31 */
GETTER(pthread_condattr_getclock,      pthread_condattr_t,    clockid_t, a->__attr & 0x7fffffff)
GETTER(pthread_condattr_getpshared,    pthread_condattr_t,    int,    a->__attr >> 31)
GETTER(pthread_mutexattr_gettype,      pthread_mutexattr_t,   int,    a->__attr & MA_TYPE)
GETTER(pthread_mutexattr_getrobust,    pthread_mutexattr_t,   int,    has(a->__attr, MA_ROBUST))
GETTER(pthread_mutexattr_getpshared,   pthread_mutexattr_t,   int,    has(a->__attr, MA_PSHARED))
GETTER(pthread_rwlockattr_getpshared,  pthread_rwlockattr_t,  int,    a->__attr[0])

/* inheritance wins if both bits were somehow set */
static int protocol_of(unsigned word)
{
	if (has(word, MA_INHERIT)) return PTHREAD_PRIO_INHERIT;
	if (has(word, MA_PROTECT)) return PTHREAD_PRIO_PROTECT;
	return PTHREAD_PRIO_NONE;
}

GETTER(pthread_mutexattr_getprotocol,  pthread_mutexattr_t,   int,    protocol_of(a->__attr))
