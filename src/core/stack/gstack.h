/*
 * gstack.h — a thread's memory: separate stacks (separate.c), copied stacks
 * (copied.c), thread control blocks (tls.c), and GREEN_DEBUG's quarantine
 * of released memory (quarantine.c).
 */
#ifndef GREEN_GSTACK_H
#define GREEN_GSTACK_H
#include "base/gthread.h"

/* ---- stacks (separate.c) */
hidden struct green_thread *__green_stack_alloc(size_t size, size_t guard, int *err);   /* size 0: the default */
hidden struct green_thread *__green_stack_adopt(void *addr, size_t size, int *err);
hidden void __green_stack_free(struct green_thread *);
hidden void __green_guard_init(void);
hidden int __green_on_altstack(void);           /* separate.c: running on the SIGSEGV handler's stack */

/* ---- the default size (separate.c): glibc's on a 64-bit CPU, or the
 * one pthread_setattr_default_np set; asked once, then one load */
#define GREEN_STACK_DEFAULT_32 ((size_t)131072)   /* musl's, where address space is scarce */
extern hidden size_t __green_stack_default_now;
hidden size_t __green_stack_default_ask(void);
static inline size_t green_stack_default(void)
{
	size_t s = __green_stack_default_now;
	return s ? s : __green_stack_default_ask();
}
hidden size_t __green_stack_default(void);   /* the same, out of line, for the members */

/* ---- copied stacks (copied.c) */
hidden void __green_copied_load(struct green_thread *from, struct green_thread *to);
hidden struct green_thread *__green_copied_alloc(size_t size, int *err);
hidden size_t __green_copied_room(void);
hidden void __green_copied_free(struct green_thread *);
hidden void __green_copied_for_core(void);   /* a core dump is next: cold stacks in place */
hidden int __green_in_region(const void *);
hidden int __green_copied_fault(const char *, int *);
hidden int __green_copied_touch(const long *, int);
hidden size_t __green_next_colour(void);   /* separate.c */
/* 32-bit CPUs only: past the address space a slot per thread would take,
 * copied threads share slots, and one leaves its slot at every switch. */
#define GREEN_SLOT_SHARING (UINTPTR_MAX == 0xffffffffu)
hidden void __green_copied_leave(struct green_thread *from, struct green_thread *to);

/* ---- thread control blocks (tls.c) */
extern hidden size_t __green_tls_bytes;
hidden int __green_tls_init(void);
hidden void __green_tls_make_own(struct green_thread *, void *mem, struct green_thread *creator);
/* A new thread's TCB, in the __green_tls_bytes of zeroed memory at mem
 * that its allocator reserved (ignored when threads share one TCB). */
static inline void green_tls_make(struct green_thread *t, void *mem, struct green_thread *creator)
{
	green_libc_new_thread(t);
	if (__green_tls_bytes) {
		__green_tls_make_own(t, mem, creator);
	} else {
		t->tcb = __green_main.tcb;
		t->tp = __green_main.tp;
	}
}

#ifdef GREEN_SHARED
/* ---- the TLS of objects loaded at run time (dtv.c; green's libc.so) */
hidden void __green_dtv_install(void);
hidden void __green_dtv_init(void);
hidden int __green_dtv_new(struct green_thread *);
hidden void __green_dtv_free(struct green_thread *);
#endif

/* ---- GREEN_DEBUG's quarantine of released memory (quarantine.c) */
hidden int __green_quarantine(struct green_thread *, void *base, size_t len, const char *what);
hidden int __green_quarantined(const void *addr, char *buf, size_t len);

#endif
