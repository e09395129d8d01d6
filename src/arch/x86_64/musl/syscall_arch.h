/*
 * syscall_arch.h — musl's system calls on x86_64, for green's libc (musl.am
 * compiles a second musl tree with this header ahead of musl's own; the
 * 1:1 libc keeps musl's).
 *
 * The same `syscall` instruction as musl's, behind one test: while a run
 * is recorded or replayed (src/core/record/, docs/record.md) every call of
 * the libc and of green goes to the recorder as a function call.  Without
 * it, Syscall User Dispatch would turn each into a SIGSYS, whose delivery
 * and return cost more than the call; the trap stays for the calls made
 * outside the libc (the program's own `syscall` instructions) and for
 * those the recorder must see from a signal frame (clone, execve, exit).
 * Off, the test is a load and a branch not taken.
 *
 * The call is made in assembly (src/arch/x86_64/reccall.S), with the
 * system call's registers and what it loses declared as the asm's: a
 * call from C would make the compiler save the callee-saved registers
 * in the prologue of every function with a system call in line, the
 * fast read and write among them, recording or not.
 */
#define __SYSCALL_LL_E(x) (x)
#define __SYSCALL_LL_O(x) (x)

extern int __green_rmode __attribute__((__visibility__("hidden")));

/* the recorder's answer to system call n (reccall.S: rax the number,
 * the arguments where the instruction takes them and kept, as the
 * instruction keeps them) */
static __inline long __green_rec_call(long n, long a1, long a2, long a3, long a4, long a5, long a6)
{
	register long r10 __asm__("r10") = a4;
	register long r8 __asm__("r8") = a5;
	register long r9 __asm__("r9") = a6;
	__asm__ __volatile__ ("lea -128(%%rsp), %%rsp\n\tcall __green_rec_trampoline\n\tlea 128(%%rsp), %%rsp"
	                      : "+a"(n)
	                      : "D"(a1), "S"(a2), "d"(a3), "r"(r10), "r"(r8), "r"(r9)
	                      : "rcx", "r11", "memory", "cc",
	                        "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
	                        "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15",
	                        "st", "st(1)", "st(2)", "st(3)", "st(4)", "st(5)", "st(6)", "st(7)");
	return n;
}
#define GREEN_RECORDED(n, a, b, c, d, e, f) \
	if (__builtin_expect(__green_rmode, 0)) return __green_rec_call(n, a, b, c, d, e, f)

static __inline long __syscall0(long n)
{
	unsigned long ret;
	GREEN_RECORDED(n, 0, 0, 0, 0, 0, 0);
	__asm__ __volatile__ ("syscall" : "=a"(ret) : "a"(n) : "rcx", "r11", "memory");
	return ret;
}

static __inline long __syscall1(long n, long a1)
{
	unsigned long ret;
	GREEN_RECORDED(n, a1, 0, 0, 0, 0, 0);
	__asm__ __volatile__ ("syscall" : "=a"(ret) : "a"(n), "D"(a1) : "rcx", "r11", "memory");
	return ret;
}

static __inline long __syscall2(long n, long a1, long a2)
{
	unsigned long ret;
	GREEN_RECORDED(n, a1, a2, 0, 0, 0, 0);
	__asm__ __volatile__ ("syscall" : "=a"(ret) : "a"(n), "D"(a1), "S"(a2)
	                      : "rcx", "r11", "memory");
	return ret;
}

static __inline long __syscall3(long n, long a1, long a2, long a3)
{
	unsigned long ret;
	GREEN_RECORDED(n, a1, a2, a3, 0, 0, 0);
	__asm__ __volatile__ ("syscall" : "=a"(ret) : "a"(n), "D"(a1), "S"(a2), "d"(a3)
	                      : "rcx", "r11", "memory");
	return ret;
}

static __inline long __syscall4(long n, long a1, long a2, long a3, long a4)
{
	unsigned long ret;
	register long r10 __asm__("r10") = a4;
	GREEN_RECORDED(n, a1, a2, a3, a4, 0, 0);
	__asm__ __volatile__ ("syscall" : "=a"(ret) : "a"(n), "D"(a1), "S"(a2), "d"(a3),
	                      "r"(r10) : "rcx", "r11", "memory");
	return ret;
}

static __inline long __syscall5(long n, long a1, long a2, long a3, long a4, long a5)
{
	unsigned long ret;
	register long r10 __asm__("r10") = a4;
	register long r8 __asm__("r8") = a5;
	GREEN_RECORDED(n, a1, a2, a3, a4, a5, 0);
	__asm__ __volatile__ ("syscall" : "=a"(ret) : "a"(n), "D"(a1), "S"(a2), "d"(a3),
	                      "r"(r10), "r"(r8) : "rcx", "r11", "memory");
	return ret;
}

static __inline long __syscall6(long n, long a1, long a2, long a3, long a4, long a5, long a6)
{
	unsigned long ret;
	register long r10 __asm__("r10") = a4;
	register long r8 __asm__("r8") = a5;
	register long r9 __asm__("r9") = a6;
	GREEN_RECORDED(n, a1, a2, a3, a4, a5, a6);
	__asm__ __volatile__ ("syscall" : "=a"(ret) : "a"(n), "D"(a1), "S"(a2), "d"(a3),
	                      "r"(r10), "r"(r8), "r"(r9) : "rcx", "r11", "memory");
	return ret;
}

/* The same call without the recorder's test, for the fast I/O paths
 * alone (src/sysio/fastio.h, green_fast_syscall6): a recorded or
 * replayed run keeps every thread off them (GREEN_SLOW_RECORD), so their
 * calls never meet the recorder, and the test would be 3 instructions of
 * every fast read, write and wait. */
#define GREEN_UNRECORDED_SYSCALL6 1
static __inline long __green_unrecorded_syscall6(long n, long a1, long a2, long a3, long a4, long a5, long a6)
{
	unsigned long ret;
	register long r10 __asm__("r10") = a4;
	register long r8 __asm__("r8") = a5;
	register long r9 __asm__("r9") = a6;
	__asm__ __volatile__ ("syscall" : "=a"(ret) : "a"(n), "D"(a1), "S"(a2), "d"(a3),
	                      "r"(r10), "r"(r8), "r"(r9) : "rcx", "r11", "memory");
	return ret;
}

#define VDSO_USEFUL
#define VDSO_CGT_SYM "__vdso_clock_gettime"
#define VDSO_CGT_VER "LINUX_2.6"
#define VDSO_GETCPU_SYM "__vdso_getcpu"
#define VDSO_GETCPU_VER "LINUX_2.6"

#define IPC_64 0
