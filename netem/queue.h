/*
 * queue.h: the link's packet store. A binary min-heap ordered by
 * (time_to_send, arrival sequence) stands in for netem's tfifo rb-tree and
 * linear tail (equal times leave in arrival order, as tfifo_enqueue keeps
 * them), and a stack stands in for the head-inserted reorder queue sch->q
 * (pending reordered packets leave last-in first-out). Storage is
 * preallocated and grows by doubling only when the queue outgrows it.
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

struct netem_queue {
	struct netem_qent *heap;
	size_t n, cap;
	int64_t max_tts; /* largest tts in the heap (valid when n > 0) */
	struct netem_qent *stack; /* reorder queue; top = stack[sn-1] */
	size_t sn, scap;
};

int netem_queue_init(struct netem_queue *q, size_t cap);
void netem_queue_free(struct netem_queue *q);
int netem_queue_push(struct netem_queue *q, const struct netem_qent *e);
const struct netem_qent *netem_queue_min(const struct netem_queue *q);
void netem_queue_pop(struct netem_queue *q, struct netem_qent *out);
int netem_queue_stack_push(struct netem_queue *q, const struct netem_qent *e);

static inline size_t netem_queue_len(const struct netem_queue *q)
{
	return q->n + q->sn;
}

#endif
