/*
 * sysout.c — what each system call writes into the process's memory.
 *
 * A recorded call that read the outside world is replayed by writing
 * back the bytes the kernel wrote (the data read, the address accepted,
 * the events ready, the time) and returning the result it returned.
 * This table says, for each call, which memory that was: called after a
 * recorded call, __green_rec_outs emits every (address, length) the
 * kernel filled.  A call not listed here wrote nothing the program
 * reads (write, close, the memory calls) or is one green-record does
 * not know: its result alone is replayed (docs/record.md lists them).
 * x86_64's system-call numbers and structure sizes.
 */
#ifdef __x86_64__   /* Syscall User Dispatch and this table: x86_64 (record.c) */
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/ioctl.h>
#include <poll.h>
#include <fcntl.h>
#include <errno.h>
#include <sys/prctl.h>
#include "base/seam.h"
#include "record/record.h"

#define OUT(p, n) do { if ((p) && (long)(n) > 0) emit((const void *)(p), (unsigned long)(n)); } while (0)

static void iov_out(const struct iovec *iov, long cnt, long bytes,
                    void (*emit)(const void *, unsigned long))
{
	for (long i = 0; i < cnt && bytes > 0; i++) {
		long n = (long)iov[i].iov_len < bytes ? (long)iov[i].iov_len : bytes;
		OUT(iov[i].iov_base, n);
		bytes -= n;
	}
}

/* Lengths the kernel reads and rewrites (an address buffer's size). */
hidden void __green_rec_pre(long nr, const long *a, struct green_rec_pre *p)
{
	p->len[0] = p->len[1] = 0;
	switch (nr) {
	case SYS_accept: case SYS_accept4: case SYS_getsockname: case SYS_getpeername:
		if (a[2]) p->len[0] = *(socklen_t *)a[2];
		break;
	case SYS_recvfrom:
		if (a[5]) p->len[0] = *(socklen_t *)a[5];
		break;
	case SYS_getsockopt:
		if (a[4]) p->len[0] = *(socklen_t *)a[4];
		break;
	}
}

static long ioctl_out(unsigned long req)
{
	switch (req) {
	case TCGETS: return 36;        /* the kernel's struct termios */
	case TIOCGWINSZ: return 8;
	case FIONREAD: case TIOCOUTQ: case TIOCGPGRP: case TIOCGSID: return 4;
	}
	if (req >> 30 & 2) return req >> 16 & 0x3fff;   /* _IOC_READ: the size in the number */
	return 0;
}

hidden void __green_rec_outs(long nr, const long *a, long r, const struct green_rec_pre *p,
                             void (*emit)(const void *, unsigned long))
{
	if (r < 0 && nr != SYS_nanosleep && nr != SYS_clock_nanosleep) return;
	switch (nr) {
	case SYS_read: case SYS_pread64: case SYS_readlink: case SYS_getdents64:
	case SYS_listxattr: case SYS_llistxattr: case SYS_flistxattr:
		OUT(a[1], r);
		break;
	case SYS_getrandom: case SYS_getcwd:
		OUT(a[0], r);
		break;
	case SYS_getxattr: case SYS_lgetxattr: case SYS_fgetxattr:
		OUT(a[2], r);
		break;
	case SYS_readlinkat:
		OUT(a[2], r);
		break;
	case SYS_readv: case SYS_preadv: case SYS_preadv2:
		iov_out((const struct iovec *)a[1], a[2], r, emit);
		break;
	case SYS_recvfrom:
		OUT(a[1], r);
		if (a[5]) {
			long n = *(socklen_t *)a[5];
			OUT(a[4], n < p->len[0] ? n : p->len[0]);
			OUT(a[5], sizeof(socklen_t));
		}
		break;
	case SYS_recvmsg: {
		struct msghdr *m = (struct msghdr *)a[1];
		OUT(m, sizeof *m);
		OUT(m->msg_name, m->msg_namelen);
		OUT(m->msg_control, m->msg_controllen);
		iov_out(m->msg_iov, m->msg_iovlen, r, emit);
		break;
	}
	case SYS_accept: case SYS_accept4: case SYS_getsockname: case SYS_getpeername:
		if (a[2]) {
			long n = *(socklen_t *)a[2];
			OUT(a[1], n < p->len[0] ? n : p->len[0]);
			OUT(a[2], sizeof(socklen_t));
		}
		break;
	case SYS_getsockopt:
		if (a[4]) {
			long n = *(socklen_t *)a[4];
			OUT(a[3], n < p->len[0] ? n : p->len[0]);
			OUT(a[4], sizeof(socklen_t));
		}
		break;
	case SYS_pipe: case SYS_pipe2:
		OUT(a[0], 2 * sizeof(int));
		break;
	case SYS_socketpair:
		OUT(a[3], 2 * sizeof(int));
		break;
	case SYS_fstat: case SYS_stat: case SYS_lstat:
		OUT(a[1], 144);
		break;
	case SYS_newfstatat:
		OUT(a[2], 144);
		break;
	case SYS_statx:
		OUT(a[4], 256);
		break;
	case SYS_statfs: case SYS_fstatfs:
		OUT(a[1], 120);
		break;
	case SYS_clock_gettime: case SYS_clock_getres:
		OUT(a[1], 16);
		break;
	case SYS_gettimeofday:
		OUT(a[0], 16);
		OUT(a[1], 8);
		break;
	case SYS_time:
		OUT(a[0], 8);
		break;
	case SYS_nanosleep:
		if (r == -EINTR) OUT(a[1], 16);
		break;
	case SYS_clock_nanosleep:
		if (r == -EINTR) OUT(a[3], 16);
		break;
	case SYS_poll: case SYS_ppoll:
		OUT(a[0], a[1] * sizeof(struct pollfd));
		break;
	case SYS_select: case SYS_pselect6: {
		long n = (a[0] + 63) / 64 * 8;
		OUT(a[1], n);
		OUT(a[2], n);
		OUT(a[3], n);
		if (nr == SYS_select) OUT(a[4], 16);
		break;
	}
	case SYS_epoll_wait: case SYS_epoll_pwait: case SYS_epoll_pwait2:
		OUT(a[1], r * 12);   /* struct epoll_event is packed on x86_64 */
		break;
	case SYS_uname:
		OUT(a[0], 390);
		break;
	case SYS_sysinfo:
		OUT(a[0], 112);
		break;
	case SYS_times:
		OUT(a[0], 32);
		break;
	case SYS_getrusage:
		OUT(a[1], 144);
		break;
	case SYS_getrlimit:
		OUT(a[1], 16);
		break;
	case SYS_prlimit64:
		OUT(a[3], 16);
		break;
	case SYS_wait4:
		OUT(a[1], sizeof(int));
		OUT(a[3], 144);
		break;
	case SYS_waitid:
		OUT(a[2], 128);
		OUT(a[4], 144);
		break;
	case SYS_rt_sigtimedwait:
		OUT(a[1], 128);
		break;
	case SYS_rt_sigpending:
		OUT(a[0], a[1]);
		break;
	case SYS_getresuid: case SYS_getresgid:
		OUT(a[0], 4);
		OUT(a[1], 4);
		OUT(a[2], 4);
		break;
	case SYS_getgroups:
		OUT(a[1], r * 4);
		break;
	case SYS_sched_getaffinity:
		OUT(a[2], r);
		break;
	case SYS_sched_getparam:
		OUT(a[1], 4);
		break;
	case SYS_sched_rr_get_interval:
		OUT(a[1], 16);
		break;
	case SYS_getitimer:
		OUT(a[1], 32);
		break;
	case SYS_setitimer:
		OUT(a[2], 32);
		break;
	case SYS_timer_gettime:
		OUT(a[1], 32);
		break;
	case SYS_timer_settime:
		OUT(a[3], 32);
		break;
	case SYS_timerfd_gettime:
		OUT(a[1], 32);
		break;
	case SYS_timerfd_settime:
		OUT(a[3], 32);
		break;
	case SYS_timer_create:
		OUT(a[2], sizeof(int));
		break;
	case SYS_getcpu:
		OUT(a[0], 4);
		OUT(a[1], 4);
		break;
	case SYS_fcntl:
		if (a[1] == F_GETLK || a[1] == F_OFD_GETLK) OUT(a[2], sizeof(struct flock));
		break;
	case SYS_ioctl:
		OUT(a[2], ioctl_out(a[1]));
		break;
	case SYS_sendfile:
		OUT(a[2], 8);
		break;
	case SYS_copy_file_range: case SYS_splice:
		OUT(a[1], 8);
		OUT(a[3], 8);
		break;
	case SYS_msgrcv:
		OUT(a[1], r + sizeof(long));
		break;
	case SYS_mq_timedreceive:
		OUT(a[1], r);
		OUT(a[3], 4);
		break;
	case SYS_capget:
		OUT(a[1], 24);
		break;
	case SYS_sigaltstack:
		OUT(a[1], 24);
		break;
	case SYS_prctl:
		if (a[0] == PR_GET_NAME) OUT(a[1], 16);
		break;
	case SYS_io_getevents:
		OUT(a[3], r * 32);
		break;
	}
}

/* The arguments a replayed call must match: the ones it has (registers
 * past them hold whatever the caller left there). */
hidden int __green_rec_nargs(long nr)
{
	switch (nr) {
	case GREEN_REC_RDTSC: case GREEN_REC_RDTSCP:
	case SYS_getpid: case SYS_gettid: case SYS_getppid: case SYS_getuid: case SYS_geteuid:
	case SYS_getgid: case SYS_getegid: case SYS_sched_yield: case SYS_fork: case SYS_vfork:
	case SYS_pause: case SYS_setsid: case SYS_getpgrp:
		return 0;
	case SYS_close: case SYS_exit: case SYS_exit_group: case SYS_brk: case SYS_uname:
	case SYS_dup: case SYS_time: case SYS_times: case SYS_sysinfo: case SYS_epoll_create1:
	case SYS_epoll_create: case SYS_pipe: case SYS_set_tid_address: case SYS_umask:
	case SYS_chdir: case SYS_fchdir: case SYS_fsync: case SYS_fdatasync: case SYS_rmdir:
	case SYS_unlink: case SYS_alarm:
		return 1;
	case SYS_fstat: case SYS_stat: case SYS_lstat: case SYS_munmap: case SYS_clock_gettime:
	case SYS_clock_getres: case SYS_gettimeofday: case SYS_nanosleep: case SYS_dup2:
	case SYS_listen: case SYS_shutdown: case SYS_pipe2: case SYS_getrlimit: case SYS_getrusage:
	case SYS_kill: case SYS_tkill: case SYS_arch_prctl: case SYS_sigaltstack: case SYS_access:
	case SYS_getitimer: case SYS_timerfd_create: case SYS_eventfd2: case SYS_fstatfs:
	case SYS_statfs: case SYS_mkdir: case SYS_rename: case SYS_link: case SYS_symlink:
	case SYS_chmod: case SYS_fchmod: case SYS_ftruncate: case SYS_truncate:
	case SYS_getcwd: case SYS_flock: case SYS_set_robust_list:
		return 2;
	case SYS_read: case SYS_write: case SYS_open: case SYS_lseek: case SYS_mprotect:
	case SYS_ioctl: case SYS_readv: case SYS_writev: case SYS_socket: case SYS_connect:
	case SYS_accept: case SYS_bind: case SYS_getsockname: case SYS_getpeername:
	case SYS_sendmsg: case SYS_recvmsg: case SYS_fcntl: case SYS_dup3: case SYS_madvise:
	case SYS_poll: case SYS_getdents64: case SYS_setitimer: case SYS_tgkill:
	case SYS_getrandom: case SYS_execve: case SYS_mincore: case SYS_readlink:
	case SYS_unlinkat: case SYS_mkdirat: case SYS_fchown: case SYS_chown:
	case SYS_lchown: case SYS_getresuid: case SYS_getresgid: case SYS_sched_getaffinity:
	case SYS_getcpu: case SYS_membarrier:
		return 3;
	case SYS_pread64: case SYS_pwrite64: case SYS_socketpair: case SYS_rt_sigaction:
	case SYS_rt_sigprocmask: case SYS_openat: case SYS_newfstatat: case SYS_epoll_ctl:
	case SYS_epoll_wait: case SYS_accept4: case SYS_wait4: case SYS_clock_nanosleep:
	case SYS_rt_sigtimedwait: case SYS_readlinkat: case SYS_prlimit64: case SYS_sendfile:
	case SYS_rt_tgsigqueueinfo: case SYS_timer_settime: case SYS_timerfd_settime:
	case SYS_fallocate: case SYS_renameat: case SYS_faccessat: case SYS_utimensat:
		return 4;
	case SYS_select: case SYS_mremap: case SYS_getsockopt: case SYS_setsockopt:
	case SYS_statx: case SYS_waitid: case SYS_ppoll: case SYS_preadv: case SYS_pwritev:
	case SYS_renameat2: case SYS_faccessat2: case SYS_prctl:
		return 5;
	default:
		return 6;
	}
}

hidden const char *__green_rec_name(long nr)
{
	switch (nr) {
	case GREEN_REC_RDTSC: return "rdtsc";
	case GREEN_REC_RDTSCP: return "rdtscp";
#define N(x) case SYS_##x: return #x;
	N(read) N(write) N(open) N(close) N(stat) N(fstat) N(lstat) N(poll) N(lseek) N(mmap)
	N(mprotect) N(munmap) N(brk) N(rt_sigaction) N(rt_sigprocmask) N(ioctl) N(pread64)
	N(pwrite64) N(readv) N(writev) N(access) N(pipe) N(select) N(sched_yield) N(mremap)
	N(madvise) N(dup) N(dup2) N(nanosleep) N(getitimer) N(setitimer) N(getpid) N(sendfile)
	N(socket) N(connect) N(accept) N(sendto) N(recvfrom) N(sendmsg) N(recvmsg) N(shutdown)
	N(bind) N(listen) N(getsockname) N(getpeername) N(socketpair) N(setsockopt)
	N(getsockopt) N(clone) N(fork) N(vfork) N(execve) N(exit) N(wait4) N(kill) N(uname)
	N(fcntl) N(flock) N(fsync) N(ftruncate) N(getdents64) N(getcwd) N(chdir) N(rename)
	N(mkdir) N(rmdir) N(unlink) N(readlink) N(umask) N(gettimeofday) N(getrlimit)
	N(getrusage) N(sysinfo) N(times) N(getuid) N(getgid) N(geteuid) N(getegid) N(getppid)
	N(sigaltstack) N(arch_prctl) N(gettid) N(tkill) N(futex) N(sched_getaffinity)
	N(epoll_create) N(set_tid_address) N(timer_create) N(timer_settime) N(clock_gettime)
	N(clock_getres) N(clock_nanosleep) N(exit_group) N(epoll_wait) N(epoll_ctl) N(tgkill)
	N(waitid) N(openat) N(newfstatat) N(pselect6) N(ppoll) N(epoll_pwait) N(timerfd_create)
	N(eventfd2) N(epoll_create1) N(dup3) N(pipe2) N(accept4) N(prlimit64) N(getrandom)
	N(statx) N(rt_sigtimedwait) N(rt_tgsigqueueinfo) N(prctl) N(membarrier) N(epoll_pwait2)
	N(io_uring_setup) N(clone3) N(close_range) N(pidfd_open) N(rt_sigsuspend)
#undef N
	default: return 0;
	}
}
#endif
