/* x86_64 constants of the CPU contract (see ../contract.h). */
#ifndef GREEN_ARCH_H
#define GREEN_ARCH_H

#define GREEN_ARCH_NAME        "x86_64"
#define GREEN_ARCH_STACK_ALIGN 16      /* SysV ABI: rsp+8 is 16-aligned at entry */
#define GREEN_ARCH_FRAME_BYTES 64      /* what __green_arch_switch pushes */
/* the multiplexer moves to epoll by itself at this many waiting
 * descriptors (src/sysio/poll.c); a port that leaves it undefined never does */
#define GREEN_ARCH_AUTO_EPOLL_AT 64

/* The saved frame (context.S) as gdb reads it (../../core/diag/gdb_layout.c): the
 * slot of each callee-saved register, by gdb's register name, at the
 * saved stack pointer, and the thread's stack pointer once the switch
 * has returned into it. */
#define GREEN_ARCH_FRAME_SLOTS(X) \
	X("r15", 0x08) X("r14", 0x10) X("r13", 0x18) X("r12", 0x20) \
	X("rbx", 0x28) X("rbp", 0x30) X("rip", 0x38)
#define GREEN_ARCH_FRAME_SP    0x40

/* The callee-saved registers but rbp (which a build with frame pointers
 * needs), given up by a file whose waits switch in line (../contract.h):
 * global register variables, never read or written, which only keep
 * GCC from using them there.  A wait's values then live in its frame,
 * one store and one load each, where each took a push and a pop in the
 * wait's prologue and again in the switch.  Functions of the file keep
 * the caller's values in those registers untouched, as the ABI asks. */
#define GREEN_ARCH_WAITS_ON_STACK \
	register long __green_keep_rbx __asm__("rbx"); \
	register long __green_keep_r12 __asm__("r12"); \
	register long __green_keep_r13 __asm__("r13"); \
	register long __green_keep_r14 __asm__("r14"); \
	register long __green_keep_r15 __asm__("r15");

unsigned long getauxval(unsigned long);

/* The compare-and-swap of the contract: cmpxchg without the lock prefix
 * is one instruction, atomic against a signal on this CPU, and costs a
 * few cycles where `lock cmpxchg` costs twenty. */
#define GREEN_ARCH_HAS_CAS 1
static inline int __green_arch_cas(volatile uintptr_t *w, uintptr_t old, uintptr_t new)
{
	int ok;
	__asm__ volatile ("cmpxchgq %3, %1" : "+a"(old), "+m"(*w), "=@ccz"(ok) : "r"(new) : "memory");
	return ok;
}

static inline void *__green_arch_sp(void)
{
	void *sp;
	__asm__ volatile ("movq %%rsp, %0" : "=r"(sp));
	return sp;
}

/* Floating-point control state: MXCSR without its six exception flags,
 * and the x87 control word. */
struct green_arch_fp {
	unsigned mxcsr;
	unsigned short cw;
};

static inline void __green_arch_fp_get(struct green_arch_fp *f)
{
	__asm__ volatile ("stmxcsr %0; fnstcw %1" : "=m"(f->mxcsr), "=m"(f->cw));
	f->mxcsr &= ~0x3fu;
}

static inline void __green_arch_fp_set(const struct green_arch_fp *f)
{
	__asm__ volatile ("ldmxcsr %0; fldcw %1" : : "m"(f->mxcsr), "m"(f->cw));
}

/*
 * The thread pointer is the %fs base.  wrfsbase writes it in a few
 * nanoseconds where the kernel allows it (AT_HWCAP2 has HWCAP2_FSGSBASE,
 * Linux 5.9 on); otherwise arch_prctl(ARCH_SET_FS), a system call.
 * valgrind does not emulate wrfsbase: under it, always the system call.
 * The call is the bare instruction, not the libc's __syscall, which first
 * asks whether green-record is on (musl/syscall_arch.h): two instructions
 * more on every switch; recorded, the instruction traps to the recorder
 * (src/core/record/record.c), which lets it run.
 */
extern hidden int __green_arch_fsgsbase;     /* context.S */

static inline void __green_arch_tp_init(int on_valgrind)
{
	__green_arch_fsgsbase = (getauxval(26 /* AT_HWCAP2 */) & 2 /* HWCAP2_FSGSBASE */) &&
	                        !on_valgrind;
}

static inline void __green_arch_set_tp(void *tp)
{
	if (__green_arch_fsgsbase)
		__asm__ volatile ("wrfsbase %0" : : "r"(tp) : "memory");
	else {
		long r;
		__asm__ volatile ("syscall" : "=a"(r) : "a"(SYS_arch_prctl), "D"(0x1002 /* ARCH_SET_FS */),
		                  "S"(tp) : "rcx", "r11", "memory");
	}
}

#endif
