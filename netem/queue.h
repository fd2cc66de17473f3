/*
 * queue.h: the link's packet store, shaped like netem's tfifo: a ring
 * takes every packet whose time is not before the ring's tail (netem's
 * linear t_head/t_tail list, the common in-order case, O(1)), a binary
 * 4-ary min-heap of small keys ordered by (time_to_send, arrival
 * sequence), with the packets in a side pool, takes the rest
 * (netem's rb-tree), and the earlier of the two heads leaves first; equal
 * times leave in arrival order. A stack stands in for the head-inserted
 * reorder queue sch->q (pending reordered packets leave last-in first-out).
 * Storage is preallocated and grows by doubling only when outgrown.
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

/* Heap key; the packet waits in pool[idx]. */
struct netem_hkey {
	int64_t tts;
	uint64_t seq;
	uint32_t idx;
};

struct netem_queue {
	struct netem_qent *ring; /* capacity rcap, a power of two */
	size_t rhead, rn, rcap;
	struct netem_hkey *heap; /* 4-ary min-heap of n keys */
	struct netem_qent *pool; /* cap payload slots */
	uint32_t *free_idx;	 /* cap - n free slots */
	size_t n, cap;
	int64_t max_tts; /* largest tts in the heap (valid when n > 0) */
	struct netem_qent *stack; /* reorder queue; top = stack[sn-1] */
	size_t sn, scap;
};

int netem_queue_init(struct netem_queue *q, size_t cap);
void netem_queue_free(struct netem_queue *q);
int netem_queue_push(struct netem_queue *q, const struct netem_qent *e);
/* Time of the next entry to leave (ring head or heap top); 0 when empty. */
int netem_queue_min(const struct netem_queue *q, int64_t *tts);
/* Largest tts in ring and heap; 0 when both are empty. */
int netem_queue_max_tts(const struct netem_queue *q, int64_t *t);
void netem_queue_pop(struct netem_queue *q, struct netem_qent *out);
int netem_queue_stack_push(struct netem_queue *q, const struct netem_qent *e);

static inline size_t netem_queue_len(const struct netem_queue *q)
{
	return q->rn + q->n + q->sn;
}

#endif
