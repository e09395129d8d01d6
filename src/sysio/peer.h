/*
 * peer.h — a write that makes its peer readable wakes the peer's reader
 * itself (peer.c): the look, in line in the I/O paths.
 */
#ifndef GREEN_PEER_H
#define GREEN_PEER_H
/* <sys/epoll.h> brings musl's <endian.h>, whose byte-swap helpers GCC's
 * -Wparentheses dislikes (musl's headers are not system headers here) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wparentheses"
#include <sys/epoll.h>
#pragma GCC diagnostic pop
#include "fdtab.h"
#include "io.h"

/* peer.c */
hidden void __green_fd_pair(int a, int b);        /* a and b are the two ends of one pipe or socket pair */
hidden long __green_peer_wake(struct green_fd *p, long r);   /* p's readers; returns r */

/* f's peer, when it has a list of nodes, on which a reader may wait;
 * else 0: the first look, where a write's fast path keeps its registers */
static inline struct green_fd *green_peer_listed(const struct green_fd *f)
{
	struct green_fd *p;

	if (!f->peer) return 0;
	p = &__green_fds[f->peer - 1];
	return p->head ? p : 0;
}

/*
 * Data was written to f's descriptor.  When f has a peer on whose list
 * a thread may wait to read (a head that waits for it, or a list longer
 * than one: a usual wait's node stays on the list after it, not
 * waiting), wake the peer's readers.
 */
static inline void green_peer_wrote(const struct green_fd *f)
{
	struct green_fd *p;
	struct green_io_node *h;

	if (__builtin_expect(!f->peer, 1)) return;
	p = &__green_fds[f->peer - 1];
	h = p->head;
	if (!h || p->lgen != __green_epoll_lists) return;
	if (h->next || (h->waiting && (h->events & EPOLLIN))) __green_peer_wake(p, 0);
}

#endif
