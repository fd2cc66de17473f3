/*
 * sim_queue.c: the simulator's events in (t, seq) order (see
 * netsim_int.h). Events sit in buckets: a bucket holds events of one
 * time in push order, which is seq order, since seq grows with every
 * push. A binary min-heap orders the buckets by (time, first seq). A push
 * goes to the open bucket of its time, looked for among the buckets
 * opened last (OPEN_WAYS of them), or else to a new bucket that becomes
 * its time's open one: an older bucket of that time takes no more
 * events, so all of its events come before the new bucket's. A crowded
 * match pushes most of its events at a handful of times and pops them
 * off the front of one bucket, where a heap of events sifts on every
 * pop; a run whose events all have times of their own costs a bucket an
 * event, as the heap of events did. Pure: no clock, no I/O.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "netsim_int.h"

#define NO_BUCKET UINT32_MAX

/* The capacity that holds need, doubling from cap (16 at first). */
static size_t grown(size_t cap, size_t need)
{
	size_t c = cap ? cap : 16;

	while (c < need)
		c *= 2;
	return c;
}

int sim_grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t c = grown(*cap, need);
	void *q;

	if (need <= *cap)
		return 0;
	q = realloc(*p, c * size);
	if (q == NULL)
		return -ENOMEM;
	*p = q;
	*cap = c;
	return 0;
}

int sim_grow_aligned(void **p, size_t *cap, size_t need, size_t size,
		     size_t align)
{
	size_t c = grown(*cap, need);
	void *q;

	if (need <= *cap)
		return 0;
	q = aligned_alloc(align, c * size);
	if (q == NULL)
		return -ENOMEM;
	if (*cap)
		memcpy(q, *p, *cap * size);
	free(*p);
	*p = q;
	*cap = c;
	return 0;
}

static int before(const struct sim_queue *q, uint32_t a, uint32_t b)
{
	const struct sim_bucket *x = &q->b[a], *y = &q->b[b];

	return x->t < y->t || (x->t == y->t && x->seq0 < y->seq0);
}

static void sift_up(struct sim_queue *q, size_t i)
{
	uint32_t v = q->heap[i];

	for (; i > 0; i = (i - 1) / 2) {
		size_t parent = (i - 1) / 2;

		if (!before(q, v, q->heap[parent]))
			break;
		q->heap[i] = q->heap[parent];
	}
	q->heap[i] = v;
}

/* The earliest bucket off the heap. */
static void heap_pop(struct sim_queue *q)
{
	uint32_t last = q->heap[--q->nheap];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= q->nheap)
			break;
		if (c + 1 < q->nheap && before(q, q->heap[c + 1], q->heap[c]))
			c++;
		if (!before(q, q->heap[c], last))
			break;
		q->heap[i] = q->heap[c];
		i = c;
	}
	if (q->nheap > 0)
		q->heap[i] = last;
}

void sim_queue_init(struct sim_queue *q)
{
	*q = (struct sim_queue){.free_head = NO_BUCKET};
	for (unsigned k = 0; k < OPEN_WAYS; k++)
		q->open[k] = NO_BUCKET;
}

void sim_queue_free(struct sim_queue *q)
{
	for (size_t i = 0; i < q->nb; i++)
		free(q->b[i].ev);
	free(q->b);
	free(q->heap);
	sim_queue_init(q);
}

/* The open bucket of time t, or NO_BUCKET. */
static uint32_t open_bucket(const struct sim_queue *q, int64_t t)
{
	for (unsigned k = 0; k < OPEN_WAYS; k++)
		if (q->open[k] != NO_BUCKET && q->b[q->open[k]].t == t)
			return q->open[k];
	return NO_BUCKET;
}

/* A new bucket for time t, with room for an event, on the heap and open:
 * its index, or NO_BUCKET out of memory (nothing changed then). */
static uint32_t open_new(struct sim_queue *q, int64_t t)
{
	uint32_t i = q->free_head;
	struct sim_bucket *b;

	if (sim_grow((void **)&q->heap, &q->caph, q->nheap + 1,
		     sizeof(*q->heap)))
		return NO_BUCKET;
	if (i == NO_BUCKET) {
		if (q->nb >= NO_BUCKET || sim_grow((void **)&q->b, &q->capb,
						   q->nb + 1, sizeof(*q->b)))
			return NO_BUCKET;
		i = (uint32_t)q->nb;
		q->b[i] = (struct sim_bucket){.ev = NULL};
	}
	b = &q->b[i];
	if (sim_grow((void **)&b->ev, &b->cap, 1, sizeof(*b->ev)))
		return NO_BUCKET;
	if (i == q->nb)
		q->nb++;
	else
		q->free_head = b->next_free;
	b->t = t;
	b->seq0 = q->next_seq;
	b->head = b->n = 0;
	q->heap[q->nheap] = i;
	sift_up(q, q->nheap++);
	q->open[q->open_next] = i;
	q->open_next = (q->open_next + 1) % OPEN_WAYS;
	return i;
}

int sim_queue_push(struct sim_queue *q, int64_t t, uint32_t kind, uint32_t who,
		   uint64_t gen)
{
	uint32_t i = open_bucket(q, t);
	struct sim_bucket *b;

	if (i != NO_BUCKET) {
		b = &q->b[i];
		if (sim_grow((void **)&b->ev, &b->cap, b->n + 1,
			     sizeof(*b->ev)))
			return -ENOMEM;
	} else if ((i = open_new(q, t)) == NO_BUCKET) {
		return -ENOMEM;
	}
	b = &q->b[i];
	b->ev[b->n++] = (struct sim_event){t, q->next_seq++, kind, who, gen};
	return 0;
}

int sim_queue_pop(struct sim_queue *q, struct sim_event *out)
{
	struct sim_bucket *b;
	uint32_t i;

	if (q->nheap == 0)
		return 0;
	i = q->heap[0];
	b = &q->b[i];
	*out = b->ev[b->head++];
	if (b->head == b->n) {
		heap_pop(q);
		for (unsigned k = 0; k < OPEN_WAYS; k++)
			if (q->open[k] == i)
				q->open[k] = NO_BUCKET;
		b->next_free = q->free_head;
		q->free_head = i;
	}
	return 1;
}

const struct sim_event *sim_queue_peek(const struct sim_queue *q)
{
	const struct sim_bucket *b;

	if (q->nheap == 0)
		return NULL;
	b = &q->b[q->heap[0]];
	return &b->ev[b->head];
}
