/* A loaded object's thread-local counter (tests/dyn/counter.c). */
__thread long count;

long bump(void) { return ++count; }
long *where(void) { return &count; }
