/*
 * queue.c: binary min-heap and reorder stack behind a netem link (see
 * queue.h). Keys compare by time_to_send, then by arrival sequence, which
 * reproduces tfifo's rule that a packet with an equal time goes after the
 * ones already queued.
 */
#include <errno.h>
#include <stdlib.h>

#include "queue.h"

static int before(const struct netem_qent *a, const struct netem_qent *b)
{
	return a->tts < b->tts || (a->tts == b->tts && a->seq < b->seq);
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

int netem_queue_init(struct netem_queue *q, size_t cap)
{
	q->n = q->sn = 0;
	q->cap = cap ? cap : 64;
	q->scap = 16;
	q->max_tts = 0;
	q->heap = malloc(q->cap * sizeof(*q->heap));
	q->stack = malloc(q->scap * sizeof(*q->stack));
	if (!q->heap || !q->stack) {
		free(q->heap);
		free(q->stack);
		q->heap = q->stack = NULL;
		return -ENOMEM;
	}
	return 0;
}

void netem_queue_free(struct netem_queue *q)
{
	free(q->heap);
	free(q->stack);
	q->heap = q->stack = NULL;
	q->n = q->sn = q->cap = q->scap = 0;
}

int netem_queue_push(struct netem_queue *q, const struct netem_qent *e)
{
	size_t i;

	if (q->n == q->cap && grow(&q->heap, &q->cap) < 0)
		return -ENOMEM;
	i = q->n++;
	while (i > 0) {
		size_t parent = (i - 1) / 2;

		if (!before(e, &q->heap[parent]))
			break;
		q->heap[i] = q->heap[parent];
		i = parent;
	}
	q->heap[i] = *e;
	if (q->n == 1 || e->tts > q->max_tts)
		q->max_tts = e->tts;
	return 0;
}

const struct netem_qent *netem_queue_min(const struct netem_queue *q)
{
	return q->n ? &q->heap[0] : NULL;
}

/* Remove the minimum. The removed entry is the smallest, so if it held the
 * maximum every remaining entry has that same time and max_tts stays
 * right. */
void netem_queue_pop(struct netem_queue *q, struct netem_qent *out)
{
	struct netem_qent last;
	size_t i = 0, n;

	*out = q->heap[0];
	n = --q->n;
	if (n == 0)
		return;
	last = q->heap[n];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = l;

		if (l >= n)
			break;
		if (r < n && before(&q->heap[r], &q->heap[l]))
			m = r;
		if (!before(&q->heap[m], &last))
			break;
		q->heap[i] = q->heap[m];
		i = m;
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
