/*
 * diag.h — diagnostics that read every subsystem (README.md): the
 * deadlock report (deadlock.c).  gdb's layout table (gdb_layout.c) is
 * read by gdb, not called.
 */
#ifndef GREEN_DIAG_H
#define GREEN_DIAG_H

/* Nothing can run or wake: report every thread and abort, unless a
 * signal handler could still wake one (then return: idle). */
hidden void __green_deadlock(void);

#endif
