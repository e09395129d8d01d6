/*
 * diag.h — diagnostics that read every subsystem (README.md): the
 * deadlock report (deadlock.c) and the names it gives addresses
 * (symbols.c).  gdb's layout table (gdb_layout.c) is read by gdb, not
 * called.
 */
#ifndef GREEN_DIAG_H
#define GREEN_DIAG_H

/* Nothing can run or wake: report every thread and abort, unless a
 * signal handler could still wake one (then return: idle). */
hidden void __green_deadlock(void);

/* Names for addresses, from the program's symbol table (symbols.c): 1
 * and the name in buf, or 0.  A data object: 'ledger', 'accounts+0x28'.
 * Where thread t called into the libc to wait: 'worker+0x1c' (x86_64;
 * t's stack is read upwards, the running thread's from `from`). */
hidden int __green_data_name(const void *, char *buf, size_t len);
hidden int __green_wait_frame(struct green_thread *t, const void *from, char *buf, size_t len);

#endif
