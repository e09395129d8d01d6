/*
 * gdb_layout.c — what gdb needs to know about green threads, in the binary.
 *
 * The gdb extension (gdb/green-gdb.py) hard-codes no layout: it reads
 * this one table, computed by the compiler from the real declarations,
 * so a field that moves or a wait kind that is added reaches gdb with the
 * next build.  Each entry is a name, a value and a size:
 *
 *   thread.F, gmutex.F   offset of field F in the struct, and its size;
 *                        thread.tp is the thread pointer that addresses
 *                        the thread's TCB (its `__thread` variables lie
 *                        below it on x86_64), thread.sigwait_set the
 *                        signals a sigwait waits for (bit s-1: signal s)
 *   thread.size          sizeof (struct green_thread)
 *   state.GS_*, wait.GW_*, stack.*, magic
 *                        enumerator values (the wait kinds are generated
 *                        from enum gwait in gthread.h at build time)
 *   frame.R, frame.sp    the saved frame of a parked thread (arch.h): the
 *                        slot of callee-saved register R at the saved
 *                        stack pointer, and the thread's stack pointer
 *                        once the switch returns
 *   fdev.*, fdkey.shift  a descriptor wait's events, and how wait_obj
 *                        encodes them with the descriptor (ioq.h)
 *   addr.*               addresses of the thread list, the running
 *                        thread, the main thread's descriptor,
 *                        __progname and the queue of threads waiting on
 *                        the kernel (a GW_CHILD wait there has a key, one
 *                        elsewhere a process id); 0 when the program never
 *                        links the scheduler (no thread was ever created)
 *
 * The table ends with a null name.  It is linked into every program
 * green-cc links statically, through the reference in
 * lib/green/green-gdb.o, the object that also carries the
 * .debug_gdb_scripts entry naming the extension (gdb/include.am); a
 * dynamically linked program finds it in green's libc.so.
 */
#include <stddef.h>
#include "base/gthread.h"
#include "fdwait.h"
#include "sync/sync.h"
#if __has_include("ioq.h")
#include "ioq.h"
#endif

/* Refer to the scheduler's state weakly: a program without threads
 * links this table but not the scheduler. */
#pragma weak __green_all
#pragma weak __green_cur
#pragma weak __green_main
#pragma weak __green_io_q

struct green_debug_entry {
	const char *name;
	unsigned long value, size;
};

#define FIELD(s, f) { #s "." #f, offsetof(struct s, f), sizeof ((struct s *)0)->f },
#define THREAD(f) { "thread." #f, offsetof(struct green_thread, f), \
                    sizeof ((struct green_thread *)0)->f },
#define VALUE(n, v) { n, (unsigned long)(v), 0 },
#define KIND(k) VALUE("wait." #k, k)
#define SLOT(reg, off) VALUE("frame." reg, off)

#ifdef GREEN_ARCH_FRAME_SLOTS
_Static_assert(GREEN_ARCH_FRAME_SP == GREEN_ARCH_FRAME_BYTES,
               "arch.h: the saved frame is GREEN_ARCH_FRAME_BYTES long");
#endif

/* (in green's libc.so nothing refers to it, and the link's
 * --gc-sections, musl's flag, would drop it: retained) */
#ifdef GREEN_SHARED
#define GREEN_DEBUG_KEEP __attribute__((used, retain))
#else
#define GREEN_DEBUG_KEEP __attribute__((used))
#endif
hidden const struct green_debug_entry __green_debug[] GREEN_DEBUG_KEEP = {
	VALUE("version", 1)
	VALUE("magic", GREEN_MAGIC)
	VALUE("thread.size", sizeof (struct green_thread))
	THREAD(sp)
	THREAD(magic)
	THREAD(id)
	THREAD(tcb)
	THREAD(tp)
	THREAD(state)
	THREAD(wait)
	THREAD(wait_obj)
	THREAD(wait_aux)
	THREAD(q)
	THREAD(q_next)
	THREAD(q_prev)
	THREAD(wake)
	THREAD(heap_idx)
	THREAD(deadline)
	THREAD(waddr)
	THREAD(start)
	THREAD(arg)
	THREAD(detached)
	THREAD(joiner)
	THREAD(all_next)
	THREAD(name)
	THREAD(cancel_pending)
	THREAD(sigwait_set)
	THREAD(stack_mode)
	THREAD(user_stack)
	THREAD(map_base)
	THREAD(map_size)
	THREAD(stack_lo)
	THREAD(stack_size)
	THREAD(guard_size)
	/* copied stacks: a parked cold thread's frames are save_len bytes at
	 * save; they belong at its saved sp (a hot one's are in place) */
	THREAD(hot)
	{ "thread.copy_buf", offsetof(struct green_thread, save), sizeof(void *) },
	{ "thread.copy_len", offsetof(struct green_thread, save_len), sizeof(size_t) },
	{ "thread.copy_at", offsetof(struct green_thread, sp), sizeof(void *) },
	/* the lock word: the owner's descriptor | GM_WAITERS (sync.h) */
	{ "gmutex.owner", offsetof(struct gmutex, lockw), sizeof(uintptr_t) },
	VALUE("gmutex.waiters_bit", GM_WAITERS)
	FIELD(gmutex, count)

	VALUE("state.GS_RUNNING", GS_RUNNING)
	VALUE("state.GS_RUNNABLE", GS_RUNNABLE)
	VALUE("state.GS_BLOCKED", GS_BLOCKED)
	VALUE("state.GS_EXITED", GS_EXITED)
#include "gdb/wait-kinds.h"
	VALUE("stack.separate", GREEN_STACK_SEPARATE)
	VALUE("stack.copied", GREEN_STACK_COPIED)

#ifdef GREEN_IN
	VALUE("fdev.in", GREEN_IN)
	VALUE("fdev.out", GREEN_OUT)
	VALUE("fdev.pri", GREEN_PRI)
#endif
#ifdef GREEN_IO_KEY_SHIFT
	VALUE("fdkey.shift", GREEN_IO_KEY_SHIFT)   /* wait_obj = fd << shift | events */
#endif

#ifdef GREEN_ARCH_FRAME_SLOTS
	GREEN_ARCH_FRAME_SLOTS(SLOT)
	VALUE("frame.sp", GREEN_ARCH_FRAME_SP)
#endif

	VALUE("addr.all", &__green_all)
	VALUE("addr.cur", &__green_cur)
	VALUE("addr.main", &__green_main)
	VALUE("addr.progname", &__progname)
#if __has_include("ioq.h")
	VALUE("addr.io_q", &__green_io_q)
#endif
	{ 0, 0, 0 }
};
