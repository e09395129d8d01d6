/*
 * execve.c — the new image starts as POSIX prescribes for the calling
 * thread: its signal mask, the program's ignored signals, the program's
 * pending alarm — and nothing of green's (no time slice, no handler).
 */
#include <unistd.h>
#include <signal.h>
#include "base/gthread.h"
#include "signal/gsignal.h"

int execve(const char *path, char *const argv[], char *const envp[])
{
	struct sigaction old, now;
	struct green_kset mask, alrm = green_kset(1ULL << (SIGALRM - 1));
	long r;

	/* posix_spawn's vfork child shares our memory: touch nothing */
	if (!green_active() || __syscall(SYS_getpid) != __green_pid)
		return syscall(SYS_execve, path, argv, envp);
	mask = green_kset(__green_cur->sigmask);
	sigaction(SIGALRM, 0, &now);
	/* A time-slice tick that came once SIGALRM is at its default action
	 * would kill the process: hold SIGALRM while the tick stops, and
	 * discard a tick held meanwhile by ignoring SIGALRM before giving it
	 * the program's action. */
	__syscall(SYS_rt_sigprocmask, SIG_BLOCK, &alrm, 0, _NSIG / 8);
	__green_itimer_exec(0);
	__libc_sigaction(SIGALRM, &(struct sigaction){ .sa_handler = SIG_IGN }, &old);
	if (now.sa_handler != SIG_IGN)
		__libc_sigaction(SIGALRM, &(struct sigaction){ .sa_handler = SIG_DFL }, 0);
	__syscall(SYS_rt_sigprocmask, SIG_SETMASK, &mask, 0, _NSIG / 8);
	r = __syscall(SYS_execve, path, argv, envp);
	/* it failed: green again (SIGALRM held until green catches it) */
	__syscall(SYS_rt_sigprocmask, SIG_BLOCK, &alrm, 0, _NSIG / 8);
	__libc_sigaction(SIGALRM, &old, 0);
	__green_itimer_exec(1);
	__syscall(SYS_rt_sigprocmask, SIG_SETMASK, &(uint64_t){ 0 }, 0, _NSIG / 8);
	return __syscall_ret(r);
}
