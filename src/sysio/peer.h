/*
 * peer.h — a write that makes its peer readable wakes the peer's reader
 * itself (peer.c): the look, in line in the I/O paths.
 */
#ifndef GREEN_PEER_H
#define GREEN_PEER_H
#include "fdtab.h"

/* peer.c */
hidden void __green_fd_pair(int a, int b);        /* a and b are the two ends of one pipe or socket pair */
hidden long __green_peer_wake(struct green_fd *p, struct green_fd *w, long r);   /* p's readers, w written; returns r */

/* f's peer, when it has a list of nodes, on which a reader may wait;
 * else 0: the first look, where a write's fast path keeps its registers */
static inline struct green_fd *green_peer_listed(const struct green_fd *f)
{
	struct green_fd *p;

	if (!f->peer) return 0;
	p = green_fd_peer(f);
	return p->head ? p : 0;
}

/*
 * Data was written to f's descriptor: when f's peer has a list of
 * nodes, wake the readers waiting on it (peer.c).  The list is looked
 * at inside the wake's no-preempt section only, never here: a tick
 * between a look at a node and its use may run the node's thread to
 * its end, and a node lives in its thread's descriptor, which is freed
 * then (a write that looked at the head's fields here read freed memory
 * when a preempted writer's reader finished meanwhile).
 */
static inline void green_peer_wrote(struct green_fd *f)
{
	struct green_fd *p = green_peer_listed(f);

	if (__builtin_expect(p != 0, 0)) __green_peer_wake(p, f, 0);
}

#endif
