/*
 * fd.c — file descriptors as the race detector sees them (docs/race.md),
 * as ThreadSanitizer models them.
 *
 * Each descriptor number below NFD has an object: 8 bytes of the
 * detector's own memory, whose shadow records who used the descriptor.
 * Creating a descriptor (open, socket, pipe, accept, dup, fopen, ...)
 * forgets its object's history and writes it; closing it (close, fclose,
 * the target of dup2) writes it, then forgets; every I/O call on it
 * reads it.  So a close that is not ordered after another thread's read
 * or write on the descriptor is a race, reported with the stacks of both
 * calls (#0 close, #0 write) and "Location is file descriptor N".
 *
 * I/O also synchronises, as ThreadSanitizer's io_sync=1: a write (write,
 * pwrite, send, ...) releases into the descriptor's clock, a read that
 * succeeds (read, recv, ...) acquires from it.  The two ends of a pipe or
 * a socket pair share a clock, an eventfd or epoll descriptor has its
 * own, every regular file shares one and every socket another; connect
 * releases into a clock that accept acquires.  A descriptor the program
 * did not create (inherited, like 0, 1 and 2) has no clock.
 *
 * Calls made by threads green starts by itself (AIO workers) and by
 * posix_spawn's child are not seen.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include "race.h"

/* (sys/epoll.h's endian.h is not warning-clean in this build) */
struct epoll_event;
#define EPOLL_CTL_ADD 1

#define NFD 65536
#define RET __builtin_return_address(0)

static uint64_t object[NFD];          /* what the shadow sees: one per descriptor */
static struct {
	uintptr_t clock;                  /* the address of its clock, 0: none */
	unsigned tid;                     /* who created it */
	uint32_t node, pc;
	unsigned char known;
} fds[NFD];
static char file_clock, socket_clock, connect_clock;

/* The calling thread, if its call is to be seen. */
static struct race_thread *caller(int fd)
{
	struct race_thread *me;
	if ((unsigned)fd >= NFD || green_vfork_child()) return 0;
	me = race_self();
	return me->tid == 0 || me->created ? me : 0;
}

static void use(struct race_thread *me, int fd, int write, const void *fn, const void *ret)
{
	uint32_t node, pc;
	if (me->ign[write]) return;
	__race_entry(me, fn, ret, &node, &pc);
	__race_access(me, (uintptr_t)&object[fd], 8, write, 0, node, pc);
}

/* A new descriptor with the clock at `clock`. */
static void created(struct race_thread *me, int fd, uintptr_t clock, const void *fn,
                    const void *ret)
{
	__race_shadow_reset((uintptr_t)&object[fd], 8);
	fds[fd].clock = clock;
	fds[fd].tid = me->tid;
	fds[fd].known = 1;
	__race_entry(me, fn, ret, &fds[fd].node, &fds[fd].pc);
	use(me, fd, 1, fn, ret);
}

/* A clock of its own for a new descriptor (and its pair's). */
static uintptr_t own_clock(int fd)
{
	uintptr_t c = (uintptr_t)&fds[fd].clock;
	__race_sync_forget((void *)c);
	return c;
}

static void closing(struct race_thread *me, int fd, int write, const void *fn, const void *ret)
{
	use(me, fd, write, fn, ret);
	__race_shadow_reset((uintptr_t)&object[fd], 8);
	fds[fd].clock = 0;
	fds[fd].known = 0;
}

hidden int __race_fd_of(uintptr_t a, unsigned *tid, uint32_t *node, uint32_t *pc)
{
	int fd;
	if (a < (uintptr_t)object || a >= (uintptr_t)(object + NFD)) return -1;
	fd = (int)((a - (uintptr_t)object) / sizeof *object);
	*tid = fds[fd].known ? fds[fd].tid : (unsigned)-1;
	*node = fds[fd].node;
	*pc = fds[fd].pc;
	return fd;
}

/* ---- the entry points' halves */
enum { FILE_FD, SOCKET_FD, OWN_FD };

static void made(int fd, int kind, const void *fn, const void *ret)
{
	struct race_thread *me;
	if (fd < 0 || !(me = caller(fd))) return;
	race_enter();
	created(me, fd, kind == FILE_FD ? (uintptr_t)&file_clock :
	                kind == SOCKET_FD ? (uintptr_t)&socket_clock : own_clock(fd), fn, ret);
	race_leave();
}

static void made_pair(const int *p, const void *fn, const void *ret)
{
	struct race_thread *me;
	uintptr_t c;
	if (!(me = caller(p[0])) || (unsigned)p[1] >= NFD) return;
	race_enter();
	c = own_clock(p[0]);
	created(me, p[0], c, fn, ret);
	created(me, p[1], c, fn, ret);
	race_leave();
}

/* before a call that writes to fd (release) or only uses it (edge 0) */
static void before(int fd, int release, const void *fn, const void *ret)
{
	struct race_thread *me;
	if (!(me = caller(fd))) return;
	race_enter();
	use(me, fd, 0, fn, ret);
	if (release && fds[fd].clock) __race_release(me, (void *)fds[fd].clock);
	race_leave();
}

/* after a read from fd that succeeded */
static void after_read(int fd)
{
	struct race_thread *me;
	if (!(me = caller(fd)) || !fds[fd].clock) return;
	race_enter();
	__race_acquire(me, (void *)fds[fd].clock);
	race_leave();
}

static void closed(int fd, const void *fn, const void *ret)
{
	struct race_thread *me;
	if (!(me = caller(fd))) return;
	race_enter();
	closing(me, fd, 1, fn, ret);
	race_leave();
}

/* dup2/dup3/dup: new becomes a copy of old (the old new closed first, a
 * read where dup2 closes it: ThreadSanitizer's choice, as programs dup
 * /dev/null over a descriptor in use on purpose) */
static void duped(int old, int new, int write, const void *fn, const void *ret)
{
	struct race_thread *me;
	uintptr_t c;
	if (new < 0 || old == new || !(me = caller(old)) || (unsigned)new >= NFD) return;
	race_enter();
	use(me, old, 0, fn, ret);
	c = fds[old].clock;
	closing(me, new, write, fn, ret);
	created(me, new, c, fn, ret);
	race_leave();
}

/* ---- creation */
/* open's and openat's mode, present when the flags create a file */
#define MODE(flags, mode) do { \
		va_list ap_; \
		va_start(ap_, flags); \
		mode = flags & (O_CREAT | O_TMPFILE) ? va_arg(ap_, mode_t) : 0; \
		va_end(ap_); \
	} while (0)

int __real_open(const char *, int, ...);
int __wrap_open(const char *path, int flags, ...)
{
	const void *ret = RET;
	mode_t mode;
	int fd;
	MODE(flags, mode);
	fd = __real_open(path, flags, mode);
	made(fd, FILE_FD, (const void *)__real_open, ret);
	return fd;
}

int __real_openat(int, const char *, int, ...);
int __wrap_openat(int dir, const char *path, int flags, ...)
{
	const void *ret = RET;
	mode_t mode;
	int fd;
	MODE(flags, mode);
	fd = __real_openat(dir, path, flags, mode);
	made(fd, FILE_FD, (const void *)__real_openat, ret);
	return fd;
}

#define MADE_WRAP(name, params, args, kind) \
	int __real_##name params; \
	int __wrap_##name params \
	{ \
		const void *ret_ = RET; \
		int fd_ = __real_##name args; \
		made(fd_, kind, (const void *)__real_##name, ret_); \
		return fd_; \
	}
MADE_WRAP(creat, (const char *path, mode_t mode), (path, mode), FILE_FD)
MADE_WRAP(socket, (int d, int t, int p), (d, t, p), SOCKET_FD)
MADE_WRAP(eventfd, (unsigned v, int flags), (v, flags), OWN_FD)
MADE_WRAP(epoll_create, (int n), (n), OWN_FD)
MADE_WRAP(epoll_create1, (int flags), (flags), OWN_FD)

#define PAIR_WRAP(name, params, args, p) \
	int __real_##name params; \
	int __wrap_##name params \
	{ \
		const void *ret_ = RET; \
		int r_ = __real_##name args; \
		if (!r_) made_pair(p, (const void *)__real_##name, ret_); \
		return r_; \
	}
PAIR_WRAP(pipe, (int p[2]), (p), p)
PAIR_WRAP(pipe2, (int p[2], int flags), (p, flags), p)
PAIR_WRAP(socketpair, (int d, int t, int pr, int sv[2]), (d, t, pr, sv), sv)

#define ACCEPT_WRAP(name, params, args) \
	int __real_##name params; \
	int __wrap_##name params \
	{ \
		const void *ret_ = RET, *fn_ = (const void *)__real_##name; \
		int fd_; \
		before(s, 0, fn_, ret_); \
		fd_ = __real_##name args; \
		if (fd_ >= 0 && caller(fd_)) { \
			race_enter(); \
			__race_acquire(race_self(), &connect_clock); \
			race_leave(); \
			made(fd_, SOCKET_FD, fn_, ret_); \
		} \
		return fd_; \
	}
ACCEPT_WRAP(accept, (int s, struct sockaddr *restrict a, socklen_t *restrict n), (s, a, n))
ACCEPT_WRAP(accept4, (int s, struct sockaddr *restrict a, socklen_t *restrict n, int f), (s, a, n, f))

int __real_connect(int, const struct sockaddr *, socklen_t);
int __wrap_connect(int s, const struct sockaddr *a, socklen_t n)
{
	const void *ret = RET, *fn = (const void *)__real_connect;
	int r;
	before(s, 0, fn, ret);
	if (caller(s)) {
		race_enter();
		__race_release(race_self(), &connect_clock);
		race_leave();
	}
	r = __real_connect(s, a, n);
	if (!r) made(s, SOCKET_FD, fn, ret);
	return r;
}

int __real_dup(int);
int __wrap_dup(int old)
{
	const void *ret = RET;
	int fd = __real_dup(old);
	duped(old, fd, 1, (const void *)__real_dup, ret);
	return fd;
}

int __real_dup2(int, int);
int __wrap_dup2(int old, int new)
{
	const void *ret = RET;
	int fd = __real_dup2(old, new);
	duped(old, fd, 0, (const void *)__real_dup2, ret);
	return fd;
}

int __real_dup3(int, int, int);
int __wrap_dup3(int old, int new, int flags)
{
	const void *ret = RET;
	int fd = __real_dup3(old, new, flags);
	duped(old, fd, 0, (const void *)__real_dup3, ret);
	return fd;
}

/* ---- closing */
int __real_close(int);
int __wrap_close(int fd)
{
	closed(fd, (const void *)__real_close, RET);
	return __real_close(fd);
}

/* ---- I/O */
#define READ_WRAP(type, name, params, args) \
	type __real_##name params; \
	type __wrap_##name params \
	{ \
		type r_; \
		before(fd, 0, (const void *)__real_##name, RET); \
		r_ = __real_##name args; \
		if (r_ >= 0) after_read(fd); \
		return r_; \
	}
#define WRITE_WRAP(type, name, params, args) \
	type __real_##name params; \
	type __wrap_##name params \
	{ \
		before(fd, 1, (const void *)__real_##name, RET); \
		return __real_##name args; \
	}
READ_WRAP(ssize_t, read, (int fd, void *b, size_t n), (fd, b, n))
READ_WRAP(ssize_t, pread, (int fd, void *b, size_t n, off_t o), (fd, b, n, o))
READ_WRAP(ssize_t, readv, (int fd, const struct iovec *v, int n), (fd, v, n))
READ_WRAP(ssize_t, recv, (int fd, void *b, size_t n, int f), (fd, b, n, f))
READ_WRAP(ssize_t, recvfrom, (int fd, void *restrict b, size_t n, int f, struct sockaddr *restrict a, socklen_t *restrict l), (fd, b, n, f, a, l))
READ_WRAP(ssize_t, recvmsg, (int fd, struct msghdr *m, int f), (fd, m, f))
READ_WRAP(int, epoll_wait, (int fd, struct epoll_event *e, int n, int t), (fd, e, n, t))
WRITE_WRAP(ssize_t, write, (int fd, const void *b, size_t n), (fd, b, n))
WRITE_WRAP(ssize_t, pwrite, (int fd, const void *b, size_t n, off_t o), (fd, b, n, o))
WRITE_WRAP(ssize_t, writev, (int fd, const struct iovec *v, int n), (fd, v, n))
WRITE_WRAP(ssize_t, send, (int fd, const void *b, size_t n, int f), (fd, b, n, f))
WRITE_WRAP(ssize_t, sendto, (int fd, const void *b, size_t n, int f, const struct sockaddr *a, socklen_t l), (fd, b, n, f, a, l))
WRITE_WRAP(ssize_t, sendmsg, (int fd, const struct msghdr *m, int f), (fd, m, f))

int __real_epoll_ctl(int, int, int, struct epoll_event *);
int __wrap_epoll_ctl(int fd, int op, int target, struct epoll_event *e)
{
	const void *ret = RET, *fn = (const void *)__real_epoll_ctl;
	before(target, 0, fn, ret);
	before(fd, op == EPOLL_CTL_ADD, fn, ret);
	return __real_epoll_ctl(fd, op, target, e);
}

#define USE_WRAP(name) \
	int __real_##name(int); \
	int __wrap_##name(int fd) \
	{ \
		before(fd, 0, (const void *)__real_##name, RET); \
		return __real_##name(fd); \
	}
USE_WRAP(fsync)
USE_WRAP(fdatasync)

/* ---- streams: their descriptor */
#define FOPEN_WRAP(name, params, args) \
	FILE *__real_##name params; \
	FILE *__wrap_##name params \
	{ \
		const void *ret_ = RET; \
		FILE *f_ = __real_##name args; \
		if (f_) made(fileno(f_), FILE_FD, (const void *)__real_##name, ret_); \
		return f_; \
	}
FOPEN_WRAP(fopen, (const char *restrict p, const char *restrict m), (p, m))
FOPEN_WRAP(fdopen, (int fd, const char *m), (fd, m))

int __real_fclose(FILE *);
int __wrap_fclose(FILE *f)
{
	int fd = fileno(f);
	if (fd >= 0) closed(fd, (const void *)__real_fclose, RET);
	return __real_fclose(f);
}
