/*
 * queue.h: the link's packet store, shaped like netem's tfifo and ordered
 * by (time_to_send, arrival sequence): equal times leave in arrival order.
 * A ring takes every packet whose time is not before the ring's tail
 * (netem's linear t_head/t_tail list, the common in-order case, O(1)). The
 * rest (netem's rb-tree) wait in a pool and are ordered by a radix heap
 * (Ahuja, Mehlhorn, Orlin and Tarjan, "Faster algorithms for the shortest
 * path problem", JACM 37(2), 1990, section 3) keyed on the time: valid
 * because a key is never below the last key the radix heap handed out
 * (see queue.c for why, and for the 4-ary heap that takes the rare key
 * that is). The earliest of the three heads leaves first. A stack stands
 * in for the head-inserted reorder queue sch->q (pending reordered packets
 * leave last-in first-out). Storage is preallocated and grows by doubling
 * only when outgrown, in push; pop never allocates.
 */
#ifndef RECKON_NETEM_QUEUE_H
#define RECKON_NETEM_QUEUE_H

#include <stddef.h>
#include <stdint.h>

#include "netem.h"

struct netem_qent {
	int64_t tts;
	uint64_t seq;
	struct netem_pkt pkt;
};

/* Fallback heap key; the packet waits in pool[idx]. */
struct netem_hkey {
	int64_t tts;
	uint64_t seq;
	uint32_t idx;
};

/* Radix heap node for pool[i]: the time as an order-preserving unsigned
 * key and the next node of its bucket's list. */
struct netem_xnode {
	uint64_t key;
	uint32_t next;
};

/* Radix heap buckets: keys are read in 6-bit digits (11 positions). Bucket
 * 0 holds keys equal to last; bucket 1 + 64 p + d the keys whose highest
 * digit differing from last is at position p and has value d. */
struct netem_xbucket {
	uint64_t mink;	     /* smallest key in the list (buckets > 0) */
	uint32_t head, tail; /* FIFO list through xnode */
	uint32_t min;	     /* first node holding mink */
};

#define NETEM_XDIGIT   6
#define NETEM_XPOS     11
#define NETEM_XBUCKETS (1 + NETEM_XPOS * 64)

struct netem_queue {
	struct netem_qent *ring; /* capacity rcap, a power of two */
	size_t rhead, rn, rcap;

	/* pool slots shared by the radix heap and the fallback heap */
	struct netem_qent *pool; /* cap payload slots */
	uint32_t *free_idx;	 /* cap - n free slots */
	size_t n, cap;		 /* n = xn + hn */

	/* radix heap: FIFO lists per bucket, linked through xnode */
	struct netem_xnode *xnode;  /* cap nodes, xnode[i] for pool[i] */
	struct netem_xbucket *xb;   /* NETEM_XBUCKETS */
	uint64_t xmask[NETEM_XPOS]; /* bit d: bucket (p, d) is not empty */
	uint32_t xpos;		    /* bit p: xmask[p] != 0 */
	uint64_t xlast;	  /* key of the last entry popped from the radix heap */
	uint64_t xminkey; /* the radix minimum (valid when xn): its key, */
	uint32_t xmin;	  /* its pool slot */
	uint32_t xminb;	  /* and its bucket */
	size_t xn;

	/* 4-ary min-heap of keys below xlast (negative delays, time going
	 * backwards): rare */
	struct netem_hkey *heap;
	size_t hn;

	struct netem_qent *stack; /* reorder queue; top = stack[sn-1] */
	size_t sn, scap;
};

int netem_queue_init(struct netem_queue *q, size_t cap);
void netem_queue_free(struct netem_queue *q);
int netem_queue_push(struct netem_queue *q, const struct netem_qent *e);
/* The same in place: queue an entry of time tts and sequence seq and return
 * it (tts and seq set) for the caller to fill in pkt before anything else
 * touches the queue; NULL when memory runs out (nothing changed). Filling
 * the slot directly spares the per-packet path a copy of a struct built
 * piecemeal on the stack, which stalls on store forwarding. */
struct netem_qent *netem_queue_push_slot(struct netem_queue *q, int64_t tts,
					 uint64_t seq);
/* Remove the next entry; the queue must not be empty (ring or pool). */
void netem_queue_pop(struct netem_queue *q, struct netem_qent *out);
int netem_queue_stack_push(struct netem_queue *q, const struct netem_qent *e);

/* The lookups below are inline: the link calls them for every packet. */

static inline size_t netem_queue_len(const struct netem_queue *q)
{
	return q->rn + q->n + q->sn;
}

static inline const struct netem_qent *
netem_queue_ring_tail(const struct netem_queue *q)
{
	return &q->ring[(q->rhead + q->rn - 1) & (q->rcap - 1)];
}

/* The time of the pool's minimum (n > 0): the fallback heap's top when it
 * holds anything (all its keys are below the radix heap's), else the
 * radix minimum, whose key is cached so that the pool is not read. */
static inline int64_t netem_queue_pool_min_tts(const struct netem_queue *q)
{
	return q->hn ? q->heap[0].tts : (int64_t)(q->xminkey ^ (1ULL << 63));
}

/* Does the ring head leave before the pool minimum? */
static inline int netem_queue_ring_first(const struct netem_queue *q)
{
	const struct netem_qent *r;
	int64_t pt;

	if (!q->rn)
		return 0;
	if (!q->n)
		return 1;
	r = &q->ring[q->rhead];
	pt = netem_queue_pool_min_tts(q);
	if (pt != r->tts)
		return r->tts < pt;
	/* a tie: the earlier arrival leaves first */
	return r->seq < q->pool[q->hn ? q->heap[0].idx : q->xmin].seq;
}

/* Time of the next entry to leave (ring head or pool minimum); 0 when
 * empty. */
static inline int netem_queue_min(const struct netem_queue *q, int64_t *tts)
{
	if (netem_queue_ring_first(q)) {
		*tts = q->ring[q->rhead].tts;
		return 1;
	}
	if (q->n) {
		*tts = netem_queue_pool_min_tts(q);
		return 1;
	}
	return 0;
}

/* Largest tts queued: the ring's tail (see queue.c); 0 when empty. */
static inline int netem_queue_max_tts(const struct netem_queue *q, int64_t *t)
{
	if (!q->rn)
		return 0;
	*t = netem_queue_ring_tail(q)->tts;
	return 1;
}

#endif
