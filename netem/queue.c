/*
 * queue.c: the ring, binary min-heap and reorder stack behind a netem link
 * (see queue.h). Keys compare by time_to_send, then by arrival sequence,
 * which reproduces tfifo's rule that a packet with an equal time goes after
 * the ones already queued.
 */
#include <errno.h>
#include <stdlib.h>

#include "queue.h"

/* Written with & and | so the compiler can use conditional moves: the
 * heap's comparisons are unpredictable and branches cost more here. */
static inline int kbefore(const struct netem_hkey *a,
			  const struct netem_hkey *b)
{
	return (a->tts < b->tts) | ((a->tts == b->tts) & (a->seq < b->seq));
}

static int grow(struct netem_qent **v, size_t *cap)
{
	size_t ncap = *cap ? *cap * 2 : 64;
	struct netem_qent *nv;

	if (ncap > SIZE_MAX / sizeof(**v))
		return -ENOMEM;
	nv = realloc(*v, ncap * sizeof(**v));
	if (!nv)
		return -ENOMEM;
	*v = nv;
	*cap = ncap;
	return 0;
}

/* Double heap keys, pool and free list together. */
static int heap_grow(struct netem_queue *q)
{
	size_t ncap = q->cap * 2, i;
	struct netem_hkey *h;
	struct netem_qent *p;
	uint32_t *f;

	if (ncap > UINT32_MAX || ncap > SIZE_MAX / sizeof(*p))
		return -ENOMEM;
	h = realloc(q->heap, ncap * sizeof(*h));
	if (!h)
		return -ENOMEM;
	q->heap = h;
	p = realloc(q->pool, ncap * sizeof(*p));
	if (!p)
		return -ENOMEM;
	q->pool = p;
	f = realloc(q->free_idx, ncap * sizeof(*f));
	if (!f)
		return -ENOMEM;
	q->free_idx = f;
	/* the heap is full: every old slot is taken, the new ones are free */
	for (i = 0; i < ncap - q->cap; i++)
		f[i] = (uint32_t)(ncap - 1 - i);
	q->cap = ncap;
	return 0;
}

int netem_queue_init(struct netem_queue *q, size_t cap)
{
	size_t rcap = 64;

	while (rcap < cap)
		rcap *= 2;
	q->n = q->sn = q->rn = q->rhead = 0;
	q->cap = rcap;
	q->rcap = rcap; /* heap and ring start equal */
	q->scap = 16;
	q->max_tts = 0;
	q->ring = malloc(q->rcap * sizeof(*q->ring));
	q->heap = malloc(q->cap * sizeof(*q->heap));
	q->pool = malloc(q->cap * sizeof(*q->pool));
	q->free_idx = malloc(q->cap * sizeof(*q->free_idx));
	q->stack = malloc(q->scap * sizeof(*q->stack));
	if (!q->ring || !q->heap || !q->pool || !q->free_idx || !q->stack) {
		netem_queue_free(q);
		return -ENOMEM;
	}
	for (size_t i = 0; i < q->cap; i++)
		q->free_idx[i] = (uint32_t)(q->cap - 1 - i);
	return 0;
}

void netem_queue_free(struct netem_queue *q)
{
	free(q->ring);
	free(q->heap);
	free(q->pool);
	free(q->free_idx);
	free(q->stack);
	q->ring = q->stack = q->pool = NULL;
	q->heap = NULL;
	q->free_idx = NULL;
	q->n = q->sn = q->rn = q->cap = q->scap = q->rcap = 0;
}

/* Double the ring, unwrapping it. */
static int ring_grow(struct netem_queue *q)
{
	size_t ncap = q->rcap * 2, i;
	struct netem_qent *nv;

	if (ncap > SIZE_MAX / sizeof(*nv))
		return -ENOMEM;
	nv = malloc(ncap * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	for (i = 0; i < q->rn; i++)
		nv[i] = q->ring[(q->rhead + i) & (q->rcap - 1)];
	free(q->ring);
	q->ring = nv;
	q->rhead = 0;
	q->rcap = ncap;
	return 0;
}

static const struct netem_qent *ring_tail(const struct netem_queue *q)
{
	return &q->ring[(q->rhead + q->rn - 1) & (q->rcap - 1)];
}

int netem_queue_push(struct netem_queue *q, const struct netem_qent *e)
{
	size_t i;

	/* tfifo_enqueue: not before the linear tail -> append */
	if (q->rn == 0 || e->tts >= ring_tail(q)->tts) {
		if (q->rn == q->rcap && ring_grow(q) < 0)
			return -ENOMEM;
		q->ring[(q->rhead + q->rn) & (q->rcap - 1)] = *e;
		q->rn++;
		return 0;
	}
	struct netem_hkey k;

	if (q->n == q->cap && heap_grow(q) < 0)
		return -ENOMEM;
	k.tts = e->tts;
	k.seq = e->seq;
	k.idx = q->free_idx[q->cap - q->n - 1];
	q->pool[k.idx] = *e;
	i = q->n++;
	while (i > 0) {
		size_t parent = (i - 1) / 4;

		if (!kbefore(&k, &q->heap[parent]))
			break;
		q->heap[i] = q->heap[parent];
		i = parent;
	}
	q->heap[i] = k;
	if (q->n == 1 || e->tts > q->max_tts)
		q->max_tts = e->tts;
	return 0;
}

int netem_queue_min(const struct netem_queue *q, int64_t *tts)
{
	if (q->rn && (!q->n || !(q->heap[0].tts < q->ring[q->rhead].tts ||
				 (q->heap[0].tts == q->ring[q->rhead].tts &&
				  q->heap[0].seq < q->ring[q->rhead].seq)))) {
		*tts = q->ring[q->rhead].tts;
		return 1;
	}
	if (q->n) {
		*tts = q->heap[0].tts;
		return 1;
	}
	return 0;
}

int netem_queue_max_tts(const struct netem_queue *q, int64_t *t)
{
	int have = 0;

	if (q->rn) {
		*t = ring_tail(q)->tts;
		have = 1;
	}
	if (q->n && (!have || q->max_tts > *t)) {
		*t = q->max_tts;
		have = 1;
	}
	return have;
}

/* Remove the next entry. From the heap: the removed entry is the
 * smallest, so if it held the maximum every remaining heap entry has that
 * same time and max_tts stays right. */
void netem_queue_pop(struct netem_queue *q, struct netem_qent *out)
{
	struct netem_hkey last;
	size_t i = 0, n;

	if (q->rn && (!q->n || !(q->heap[0].tts < q->ring[q->rhead].tts ||
				 (q->heap[0].tts == q->ring[q->rhead].tts &&
				  q->heap[0].seq < q->ring[q->rhead].seq)))) {
		*out = q->ring[q->rhead];
		q->rhead = (q->rhead + 1) & (q->rcap - 1);
		q->rn--;
		return;
	}
	*out = q->pool[q->heap[0].idx];
	n = --q->n;
	q->free_idx[q->cap - n - 1] = q->heap[0].idx;
	if (n == 0)
		return;
	last = q->heap[n];
	/* Floyd's bottom-up deletion: walk the hole down along the smallest
	 * children to a leaf without comparing against "last" (which came
	 * from the bottom and almost always belongs near it), then sift
	 * "last" up from there. */
	for (;;) {
		size_t c = 4 * i + 1, m = c, j, end = c + 4;

		if (c >= n)
			break;
		if (end > n)
			end = n;
		for (j = c + 1; j < end; j++)
			m = kbefore(&q->heap[j], &q->heap[m]) ? j : m;
		q->heap[i] = q->heap[m];
		i = m;
	}
	while (i > 0) {
		size_t parent = (i - 1) / 4;

		if (!kbefore(&last, &q->heap[parent]))
			break;
		q->heap[i] = q->heap[parent];
		i = parent;
	}
	q->heap[i] = last;
}

int netem_queue_stack_push(struct netem_queue *q, const struct netem_qent *e)
{
	if (q->sn == q->scap && grow(&q->stack, &q->scap) < 0)
		return -ENOMEM;
	q->stack[q->sn++] = *e;
	return 0;
}
