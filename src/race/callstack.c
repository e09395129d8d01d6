/*
 * callstack.c — the stack store: call stacks kept for the report of a later
 * race (docs/race.md).
 *
 * A stack is a node of a tree: node = (parent node, call-site pc), node 0
 * the empty stack.  A thread's shadow call stack (threads.c) gives each
 * frame its node the first time the frame accesses memory, so an access
 * record holds a whole stack in 4 bytes and storing one costs at most a
 * lookup per new frame, not a copy per access.  Nodes are never freed.
 */
#include <string.h>
#include "race.h"

struct node {
	uint32_t parent, pc;
};

static struct node *nodes;          /* nodes[0] is the root */
static uint32_t nnodes, nodes_cap;
static uint32_t *index_;            /* open addressing: node numbers, 0 = empty */
static uint32_t index_cap;

static uint32_t slot_of(uint32_t parent, uint32_t pc, uint32_t cap)
{
	uint64_t k = ((uint64_t)parent << 32 | pc) * 0x9e3779b97f4a7c15ull;
	return (uint32_t)(k >> 32) & (cap - 1);
}

static void grow(void)
{
	uint32_t cap = index_cap ? index_cap * 2 : 1 << 14, i, j;
	uint32_t *ix = __race_alloc(cap * sizeof *ix);
	struct node *nn = __race_alloc(cap / 2 * sizeof *nn);
	if (nnodes) memcpy(nn, nodes, nnodes * sizeof *nn);
	else nnodes = 1;
	for (i = 1; i < nnodes; i++) {
		for (j = slot_of(nn[i].parent, nn[i].pc, cap); ix[j]; j = (j + 1) & (cap - 1)) {}
		ix[j] = i;
	}
	nodes = nn;
	nodes_cap = cap / 2;
	index_ = ix;
	index_cap = cap;
}

hidden uint32_t __race_node(uint32_t parent, uint32_t pc)
{
	uint32_t i, n;
	if (nnodes + 1 >= nodes_cap) grow();
	for (i = slot_of(parent, pc, index_cap); (n = index_[i]); i = (i + 1) & (index_cap - 1))
		if (nodes[n].parent == parent && nodes[n].pc == pc) return n;
	n = nnodes++;
	nodes[n].parent = parent;
	nodes[n].pc = pc;
	index_[i] = n;
	return n;
}

hidden void __race_node_get(uint32_t node, uint32_t *parent, uint32_t *pc)
{
	*parent = node < nnodes ? nodes[node].parent : 0;
	*pc = node < nnodes ? nodes[node].pc : 0;
}
